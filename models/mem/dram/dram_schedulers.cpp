// The DRAM scheduling policies.
//   fcfs         First-come first-serve (Narasiman Table 5.1): requests to one bank are served in
//                arrival order; among banks that can start an access, the oldest request goes
//                first.
//   fr-fcfs      First-ready FCFS (Rixner et al., ISCA 2000; dissertation Table 8.1): the oldest
//                ready request that hits its bank's open row goes first, else the oldest ready
//                request of any bank (in the latency model a bank's requests are ready together,
//                so that is fcfs's pick).
//   fr-fcfs-ready
//                First-ready FCFS as Ramulator 2 has it (its FRFCFS scheduler and generic
//                controller): a request whose row was opened for it goes first, then the oldest
//                request whose next command is ready, a row hit or not; in the latency model the
//                same as fr-fcfs without the preference for row hits.
//   fr-fcfs-hold fr-fcfs with the dissertation's row-buffer locality hint (section 7.2): after a
//                request whose hint bit is set, its bank keeps the row open and schedules no
//                conflicting request until hold_cycles after that request's data (Fig. 7.3: the
//                break-even threshold, row conflict minus row hit latency), unless a request to the
//                held row comes first (served as a row hit; that ends the hold). Other banks go on.
//                When the hold starts is not stated: here when the hinted request is picked, and it
//                lasts to its data transfer's end plus the threshold (the "serviced" request's data
//                must reach the core before the next request of the same query can exist).
#include "models/common/registry.h"
#include "models/mem/dram/dram_scheduler.h"

namespace gputlm::mem {
namespace {

// Oldest request that is the oldest of its bank, ready, and whose bank is not `blocked`.
// `seen` is the caller's scratch (a flag per bank), so that this, which runs whenever a bank may
// start, never allocates.
template <class Blocked>
int oldest_ready(const std::vector<DramQueueEntry>& q, std::vector<uint8_t>& seen,
                 Blocked blocked) {
  uint64_t seen_low = 0;  // banks 0..63 as bits (every preset), the others in `seen`
  seen.assign(seen.size(), 0);
  for (size_t i = 0; i < q.size(); ++i) {
    const uint32_t b = q[i].bank;
    if (b < 64) {
      const uint64_t bit = uint64_t{1} << b;
      if (seen_low & bit) continue;
      seen_low |= bit;
    } else {
      if (b >= seen.size()) seen.resize(b + 1, 0);
      if (seen[b]) continue;
      seen[b] = 1;
    }
    if (q[i].ready && !blocked(b)) return static_cast<int>(i);
  }
  return -1;
}
int oldest_ready(const std::vector<DramQueueEntry>& q, std::vector<uint8_t>& seen) {
  return oldest_ready(q, seen, [](uint32_t) { return false; });
}

// The oldest ready request (of any bank, whatever is older in its bank), or -1.
int oldest_ready_any(const std::vector<DramQueueEntry>& q) {
  for (size_t i = 0; i < q.size(); ++i)
    if (q[i].ready) return static_cast<int>(i);
  return -1;
}

// The oldest ready request that hits its bank's open row, or -1.
int oldest_row_hit(const std::vector<DramQueueEntry>& q) {
  for (size_t i = 0; i < q.size(); ++i)
    if (q[i].ready && q[i].hit) return static_cast<int>(i);
  return -1;
}

class Fcfs : public IDramScheduler {
 public:
  int pick(const std::vector<DramQueueEntry>& q, Cycle) override { return oldest_ready(q, m_seen); }
  bool bank_heads_only() const override { return true; }
  bool picks_by_kind() const override { return true; }

 private:
  std::vector<uint8_t> m_seen;
};

class FrFcfs : public IDramScheduler {
 public:
  bool picks_by_kind() const override { return true; }
  bool picks_ready_only() const override { return true; }
  int pick(const std::vector<DramQueueEntry>& q, Cycle) override {
    const int hit = oldest_row_hit(q);
    return hit >= 0 ? hit : oldest_ready_any(q);
  }
};

class FrFcfsReady : public IDramScheduler {
 public:
  bool picks_by_kind() const override { return true; }
  bool picks_ready_only() const override { return true; }
  int pick(const std::vector<DramQueueEntry>& q, Cycle) override {
    for (size_t i = 0; i < q.size(); ++i)
      if (q[i].ready && q[i].opened) return static_cast<int>(i);
    return oldest_ready_any(q);
  }
};

class FrFcfsHold : public IDramScheduler {
 public:
  explicit FrFcfsHold(const DramSchedulerParams& p) : m_threshold(p.hold_cycles) {}

  int pick(const std::vector<DramQueueEntry>& q, Cycle now) override {
    const int hit = oldest_row_hit(q);  // a hit to a held row is the anticipated request
    if (hit >= 0) return hit;
    return oldest_ready(q, m_seen, [&](uint32_t b) { return held(b, now); });
  }

  void on_issue(const DramQueueEntry& e, Cycle now, Cycle done) override {
    if (m_holds.size() <= e.bank) m_holds.resize(e.bank + 1);
    Slot& h = m_holds[e.bank];
    if (h.active) {
      if (h.row == e.row && now < h.until)
        ++m_arrived;  // the anticipated row hit came in time
      else
        ++m_expired;  // a conflict went ahead after the threshold
      h.active = false;
    }
    if (e.row_hint) {
      h = {true, e.row, done + m_threshold};
      ++m_started;
    }
  }

  bool holds_rows() const override { return true; }
  bool picks_by_kind() const override { return true; }  // a hold is per bank
  std::optional<DramHold> hold(uint32_t bank, Cycle now) const override {
    if (bank >= m_holds.size() || !held(bank, now)) return std::nullopt;
    return DramHold{m_holds[bank].row, m_holds[bank].until};
  }

  std::vector<DramPolicyCounter> counters() override {
    return {
        {"holds", &m_started, "rows held open after a request with the row-buffer hint bit"},
        {"hold_hits", &m_arrived, "holds ended by a request to the held row within the threshold"},
        {"hold_timeouts", &m_expired,
         "holds that reached the threshold, after which a conflicting request went"}};
  }

 private:
  struct Slot {
    bool active = false;
    uint64_t row = 0;
    Cycle until = 0;
  };
  bool held(uint32_t b, Cycle now) const {
    return b < m_holds.size() && m_holds[b].active && now < m_holds[b].until;
  }

  Cycle m_threshold;
  std::vector<Slot> m_holds;  // per bank
  std::vector<uint8_t> m_seen;
  uint64_t m_started = 0, m_arrived = 0, m_expired = 0;
};

const DramSchedulerRegistration kFcfs("fcfs", [](const DramSchedulerParams&) {
  return std::make_unique<Fcfs>();
});
const DramSchedulerRegistration kFrFcfs("fr-fcfs", [](const DramSchedulerParams&) {
  return std::make_unique<FrFcfs>();
});
const DramSchedulerRegistration kFrFcfsReady("fr-fcfs-ready", [](const DramSchedulerParams&) {
  return std::make_unique<FrFcfsReady>();
});
const DramSchedulerRegistration kFrFcfsHold("fr-fcfs-hold", [](const DramSchedulerParams& p) {
  return std::make_unique<FrFcfsHold>(p);
});

}  // namespace

DramSchedulerRegistration::DramSchedulerRegistration(const char* name, DramSchedulerFactory f) {
  Registry<DramSchedulerFactory>::instance().add(name, std::move(f));
}

std::unique_ptr<IDramScheduler> make_dram_scheduler(const std::string& name,
                                                    const DramSchedulerParams& params) {
  return Registry<DramSchedulerFactory>::instance().get(name, "DRAM scheduler")(params);
}

}  // namespace gputlm::mem
