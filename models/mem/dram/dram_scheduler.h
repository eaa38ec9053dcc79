// Which queued DRAM request to serve next: a plain C++ policy chosen by name ("scheduler"),
// registered in a Registry and unit-tested without a SystemC kernel. The controller calls pick()
// at most once per controller cycle with the queue (oldest first), each entry marked with whether
// it can take its next step now and whether that step is a row hit (its row is open). In the
// latency model a step is a whole access; in the command model it is the request's next command
// (ACT, PRE, or its RD/WR), so a policy picks among ready commands.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "models/common/clock.h"

namespace gputlm::mem {

struct DramQueueEntry {
  uint32_t bank = 0;
  uint64_t row = 0;
  bool write = false;
  bool row_hint = false;
  Cycle arrival = 0;
  bool ready = false;   // its next step may start now (set by the controller before pick)
  bool hit = false;     // its row is open in its bank: the next step is the column access
  bool opened = false;  // the command model: its row was opened for it (it had an ACT)
};

// A bank as the latency model sees it.
struct DramBankView {
  bool ready = false;                // can start an access this cycle
  bool row_change = true;            // ... and one to another row than the open one
  std::optional<uint64_t> open_row;  // row in the row buffer
};

// Marks each entry of `q` ready and hit from its bank's view (the latency model).
inline void mark_ready(std::vector<DramQueueEntry>& q, const std::vector<DramBankView>& banks) {
  for (DramQueueEntry& e : q) {
    const DramBankView& b = banks[e.bank];
    e.hit = b.open_row && *b.open_row == e.row;
    e.ready = b.ready && (b.row_change || e.hit);
  }
}

// A bank a policy keeps for one open row until a cycle (the row-buffer hint's hold).
struct DramHold {
  uint64_t row = 0;
  Cycle until = 0;  // conflicting requests wait until this cycle
};

// A counter a policy keeps, for the controller's statistics.
struct DramPolicyCounter {
  const char* name;
  uint64_t* value;  // not const: between launches the statistics swap in a launch's value and back
                    // (stats.h)
  const char* description;
};

class IDramScheduler {
 public:
  virtual ~IDramScheduler() = default;
  // Index into `queue` (ordered oldest first) of the request whose next step starts at `now`, or
  // -1. Only a ready entry may be picked.
  virtual int pick(const std::vector<DramQueueEntry>& queue, Cycle now) = 0;
  // Called when the picked request's access starts at `now` (the command model: its column
  // command); its data transfer ends at `done`.
  virtual void on_issue(const DramQueueEntry&, Cycle /*now*/, Cycle /*done*/) {}
  // Whether the policy only ever picks a ready request that is the oldest queued for its bank
  // (fcfs): the controller may then give pick() only those, oldest first (the latency model keeps
  // each bank's requests in order, so a full queue is not marked and searched whole each cycle).
  virtual bool bank_heads_only() const { return false; }
  // Whether the pick depends only on each entry's bank, ready, hit, opened and write flags and on
  // the entries' order, not on which of two entries alike in those it is (every built-in policy):
  // the command model may then give pick() only the oldest of each such kind (a bank's requests
  // for its open row share their next command and whether it may go), not a full queue a cycle.
  virtual bool picks_by_kind() const { return false; }
  // Whether the pick depends only on the ready entries (their order and flags), an entry that is
  // not ready changing nothing (fr-fcfs, fr-fcfs-ready; not fcfs or fr-fcfs-hold, where an older
  // request that cannot go yet keeps its bank's younger ones waiting): the command model may then
  // give pick() only the ready ones, and call it not at all when none is.
  virtual bool picks_ready_only() const { return false; }
  // Whether the policy ever holds a bank's row (below).
  virtual bool holds_rows() const { return false; }
  // The hold on `bank` at `now`, if the policy keeps its row for a coming request.
  virtual std::optional<DramHold> hold(uint32_t /*bank*/, Cycle /*now*/) const {
    return std::nullopt;
  }
  virtual std::vector<DramPolicyCounter> counters() { return {}; }
};

// What a policy may need from the DRAM config.
struct DramSchedulerParams {
  Cycle hold_cycles = 200;  // fr-fcfs-hold: how long a hinted row is held after its data
};

using DramSchedulerFactory =
    std::function<std::unique_ptr<IDramScheduler>(const DramSchedulerParams&)>;

// Registers a scheduler under `name` (the config value).
struct DramSchedulerRegistration {
  DramSchedulerRegistration(const char* name, DramSchedulerFactory f);
};
std::unique_ptr<IDramScheduler> make_dram_scheduler(const std::string& name,
                                                    const DramSchedulerParams& params = {});

}  // namespace gputlm::mem
