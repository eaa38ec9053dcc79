// The DRAM devices of one channel as the command model sees them: each bank's open row and, for
// every command, the first cycle the JEDEC constraints (CommandTiming, dram_spec.h) allow it in
// each bank, bank group and the rank. Plain C++: the controller asks what an access needs next
// and when that command may issue, and tells the device what it issued.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "models/common/clock.h"
#include "models/mem/dram/dram_spec.h"

namespace gputlm::mem {

enum class DramCmd : uint8_t { Act, Pre, PreAll, Read, Write, Refresh };
constexpr size_t kDramCmds = 6;

class DramDevice {
 public:
  explicit DramDevice(const DramSpec& spec);

  // The command an access to `row` of `bank` needs next: Act (bank closed), Pre (another row
  // open) or its column command (Read or Write).
  DramCmd next_command(uint32_t bank, uint64_t row, bool write) const {
    const std::optional<uint64_t>& open = m_banks[bank].open_row;
    if (!open) return DramCmd::Act;
    if (*open != row) return DramCmd::Pre;
    return write ? DramCmd::Write : DramCmd::Read;
  }
  // The first cycle `cmd` may issue to `bank` under every constraint (any cycle from then on,
  // until another command issues). PreAll waits for every open bank; Refresh for the rank.
  Cycle earliest(DramCmd cmd, uint32_t bank) const;
  // Issues `cmd` at `now` (earliest(cmd, bank) <= now). A column command with `auto_precharge`
  // closes the row as soon as its constraints allow (RDA/WRA).
  void issue(DramCmd cmd, uint32_t bank, uint64_t row, Cycle now, bool auto_precharge = false);

  std::optional<uint64_t> open_row(uint32_t bank) const { return m_banks[bank].open_row; }
  bool any_open() const;
  // Cycles from a column command to the end of its data on the bus.
  Cycle data_end(bool write) const { return (write ? m_t.tWL : m_t.tCL) + m_t.burst(); }
  Cycle burst() const { return m_t.burst(); }

 private:
  enum Scope : uint8_t { kBank, kGroup, kRank };
  struct Rule {
    DramCmd before, after;
    Scope scope;
    Cycle gap;
  };
  using Next = std::array<Cycle, kDramCmds>;  // per command: the first cycle it may issue
  struct Bank {
    std::optional<uint64_t> open_row;
    Next next{};
  };
  void apply(DramCmd cmd, uint32_t bank, Cycle now);
  uint32_t group(uint32_t bank) const { return bank / m_banks_per_group; }

  CommandTiming m_t;
  uint32_t m_banks_per_group;
  std::vector<Rule> m_rules;
  std::vector<Bank> m_banks;
  std::vector<Next> m_groups;
  Next m_rank{};
  std::array<Cycle, 4> m_acts{};  // the last four activates (tFAW), oldest at m_act_pos
  size_t m_act_pos = 0;
  uint64_t m_act_count = 0;
};

}  // namespace gputlm::mem
