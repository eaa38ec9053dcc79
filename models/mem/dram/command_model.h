// The command model (timing_model "command"): JEDEC command timing (DramDevice, dram_device.h),
// scheduled as a controller of the kind JEDEC devices assume (and Ramulator 2's generic DDR
// controller) does:
//   - reads and writes wait in their own queues (queue_depth, write_queue_depth); writes are
//     drained in bursts by watermark;
//   - each queued request needs ACT (bank closed), PRE (another row open) or its RD/WR next; the
//     policy picks among those whose command every timing constraint allows now;
//   - a request whose row was opened for it leaves its queue (its bank holds it) and is served
//     whatever the drain mode; no PRE closes that row before its column command;
//   - every tREFI a refresh falls due: no new request starts, the rows opened for requests are
//     used, then PREA (if a bank is open) and REF; REF keeps the rank from ACT for tRFC.
// A request's row outcome is counted at its first command: hit (RD/WR), empty (ACT), conflict
// (PRE). A request larger than one burst takes several column commands.
#pragma once

#include <algorithm>
#include <array>
#include <vector>

#include "models/mem/dram/dram_device.h"
#include "models/mem/dram/dram_kind_index.h"
#include "models/mem/dram/dram_timing.h"

namespace gputlm::mem {

class CommandModel : public DramTimingModel {
 public:
  explicit CommandModel(const DramTimingContext& context);

  bool has_room(bool write) const override;
  void queued(size_t i) override;
  std::optional<DramStart> step(Cycle now) override;
  void started(const DramQueueEntry& e, const DramRequest& r) override;
  void idle(Cycle now) override { m_idle_since = std::min(m_idle_since, now); }
  Cycle next_wake(Cycle now) const override;

 private:
  bool any_command_ready(Cycle now) const;
  bool next_write_mode() const;
  void update_write_mode();  // to next_write_mode(), counting a turn to draining writes
  bool candidate(bool opened, bool write, bool write_mode) const;
  // Which commands a pick may take: any, or (the second of a cycle on a dual command bus) those
  // on the other bus than the first's.
  enum class Bus : uint8_t { Any, Row, Column };
  // The policy's pick among the queued requests whose next command goes on `bus` and may go now,
  // issued; nullopt also when none was (`issued` says whether one was, and its bus).
  std::optional<DramStart> pick_and_issue(Cycle now, Bus bus, Bus& issued);
  std::optional<DramStart> issue_command(size_t i, DramCmd cmd, Cycle now);
  // Refresh (command_refresh.cpp).
  bool schedule_refresh(Cycle now);
  void refresh_while_idle(Cycle now);
  void precharge_all(Cycle at, bool waves);
  bool rows_opened_for_requests() const;
  // The device's earliest(), remembered per bank and command until the device next issues a
  // command (the scheduler asks it for every queued request, and twice a cycle).
  Cycle earliest(DramCmd cmd, uint32_t bank) const;
  void device_issue(DramCmd cmd, uint32_t bank, uint64_t row, Cycle at,
                    bool auto_precharge = false);

  DramDevice m_device;
  // Queued requests whose row was not yet opened for them, by kind (the read and write queues),
  // and whether writes are being drained.
  uint32_t m_queued_reads = 0, m_queued_writes = 0;
  bool m_write_mode = false;
  Cycle m_next_refresh = kNever;
  bool m_refresh_due = false;
  Cycle m_idle_since = 0;  // nothing queued or in the banks since this cycle (kNever: busy)
  std::vector<uint32_t> m_bank_activated;  // per bank: queued requests whose row was opened
  uint64_t m_device_issues = 1;  // commands the device has taken (+1): the memo's generation
  mutable std::vector<std::array<Cycle, kDramCmds>> m_earliest;  // memo of earliest(), per bank
  mutable std::vector<std::array<uint64_t, kDramCmds>> m_earliest_of;  // ... its generation
  // A queued request's next command: a kind's oldest request (below), or any (a policy that does
  // not pick by kind).
  struct Kind {
    uint64_t serial;              // the request
    const DramQueueEntry* entry;  // ... as queued
    DramCmd cmd;                  // ... its next command
    bool opened;                  // ... whether its row was opened for it
  };
  struct Step : Kind {
    bool ready;  // ... whether that command may issue now
  };
  std::vector<Step> m_steps;                 // scratch: per queued request looked at, this cycle
  std::vector<DramQueueEntry> m_candidates;  // scratch: the entries the policy sees
  // ... each one's key: its serial above kStepBits, its m_steps index below (fewer steps than
  // 2^16: six kinds a bank, or the queue), so that sorting the keys as integers orders them by age.
  static constexpr unsigned kStepBits = 16;
  std::vector<uint64_t> m_candidate_steps;
  const Step& step_of(uint64_t key) const { return m_steps[key & ((1u << kStepBits) - 1)]; }
  DramKindIndex m_kinds;  // the queue by kind
  // Per bank, the kinds of its queued requests (DramKindIndex::for_each_kind at its open row),
  // kept until its queue or open row changes (touch): the policy's pick and the next wake-up look
  // at every bank's kinds each cycle, and most cycles change one bank.
  struct BankKinds {
    std::array<Kind, 6> kinds;  // at most opened, hit and miss in each direction
    uint8_t count = 0;
    bool stale = true;
  };
  const BankKinds& kinds_of(uint32_t bank) const;
  void touch(uint32_t bank) { m_bank_kinds[bank].stale = true; }
  mutable std::vector<BankKinds> m_bank_kinds;
};

}  // namespace gputlm::mem
