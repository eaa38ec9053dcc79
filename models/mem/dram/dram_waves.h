// A DRAM controller's waves: the queue's occupancy, the data bus, and per bank the command, the
// open row and (for a policy that holds rows) the held row and the cycle its hold ends. The module
// shell (dram_controller.h) owns them and traces them once start() is called; its timing model
// (dram_timing.h) records the commands it issues. Changes are stamped with the kernel's time or a
// time to come and applied then (WaveTimeline), so a command's later steps (its data, the row
// closing) are recorded when it issues.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <systemc>
#include <vector>

#include "models/common/clock.h"
#include "models/common/waves.h"
#include "models/mem/dram/dram_scheduler.h"

namespace gputlm::mem {

// The command a bank's wave shows.
enum class DramCommand : uint8_t {
  Idle = 0,
  Activate = 1,
  Read = 2,
  Write = 3,
  Precharge = 4,
  Refresh = 5
};

class DramWaves {
 public:
  // `holds`: the policy holds rows (the held row and hold end are traced).
  DramWaves(const ClockDomain& clock, uint32_t banks, bool holds);

  bool on() const { return m_tracing; }
  // From now on changes are recorded.
  void start() { m_tracing = true; }
  // The signals, named `name`.<signal> (the controller's WaveProvider::declare_waves).
  void declare(WaveList& waves, const std::string& name) const;

  // Each of these records a change at `at` (only call them once on()).
  void command(const sc_core::sc_time& at, uint32_t bank, DramCommand c) {
    m_timeline.set(at, &m_cmd[bank], uint64_t(c));
  }
  void open_row(const sc_core::sc_time& at, uint32_t bank, uint64_t row) {
    m_timeline.set(at, &m_row[bank], row & 0xFFFFFFFFull);
  }
  void close_row(const sc_core::sc_time& at, uint32_t bank) {
    m_timeline.set(at, &m_row[bank], kNoRow);
  }
  // A transfer of `bank` on the data bus from `start` to `done`, after which the bank shows idle
  // unless it issued again.
  void transfer(uint32_t bank, const sc_core::sc_time& start, const sc_core::sc_time& done);
  // The queue holds `n` requests now.
  void queue(size_t n) { m_timeline.set(sim_now(), &m_queue, n); }
  // The hold on `bank` now (none: `h` empty), back to none when it ends unless it changes first.
  void hold(uint32_t bank, const std::optional<DramHold>& h);

 private:
  static constexpr uint64_t kNoRow = 0xFFFFFFFFull;  // no open row (rows are traced as 32 bits)
  const ClockDomain& m_clock;
  uint32_t m_banks;
  bool m_holds;
  bool m_tracing = false;
  WaveTimeline m_timeline{"waves"};
  std::vector<uint64_t> m_row, m_cmd;
  std::vector<uint64_t> m_issues;  // transfers per bank, guards "back to idle"
  std::vector<uint64_t> m_held_row, m_hold_until;
  std::vector<uint64_t> m_hold_changes;  // guards a hold's scheduled end
  uint64_t m_queue = 0, m_bus = 0;
};

}  // namespace gputlm::mem
