// The DRAM scheduling policies.
//   fcfs    First-come first-serve (Narasiman Table 5.1): requests to one bank are served in
//           arrival order; among banks that can start an access, the oldest request goes first.
//   fr-fcfs First-ready FCFS (Rixner et al., ISCA 2000; dissertation Table 8.1): the oldest
//           request that hits its bank's open row goes first, else as fcfs.
#include "models/common/registry.h"
#include "models/mem/dram/dram_scheduler.h"

namespace gputlm::mem {
namespace {

// Oldest request that is the oldest of its bank and whose bank is ready. `seen` is the caller's
// scratch (a flag per bank), so that this, which runs whenever a bank may start, never allocates.
int oldest_ready(const std::vector<DramQueueEntry>& q, const std::vector<DramBankView>& banks, std::vector<uint8_t>& seen) {
  bool any_ready = false;
  for (const DramBankView& b : banks) any_ready |= b.ready;
  if (!any_ready) return -1;
  seen.assign(banks.size(), 0);
  for (size_t i = 0; i < q.size(); ++i) {
    const uint32_t b = q[i].bank;
    if (seen[b]) continue;
    seen[b] = 1;
    if (banks[b].ready) return static_cast<int>(i);
  }
  return -1;
}

class Fcfs : public IDramScheduler {
 public:
  int pick(const std::vector<DramQueueEntry>& q, const std::vector<DramBankView>& banks, Cycle) override {
    return oldest_ready(q, banks, m_seen);
  }

 private:
  std::vector<uint8_t> m_seen;
};

class FrFcfs : public IDramScheduler {
 public:
  int pick(const std::vector<DramQueueEntry>& q, const std::vector<DramBankView>& banks, Cycle) override {
    for (size_t i = 0; i < q.size(); ++i) {
      const DramBankView& b = banks[q[i].bank];
      if (b.ready && b.open_row && *b.open_row == q[i].row) return static_cast<int>(i);
    }
    return oldest_ready(q, banks, m_seen);
  }

 private:
  std::vector<uint8_t> m_seen;
};

const DramSchedulerRegistration kFcfs("fcfs", [] { return std::make_unique<Fcfs>(); });
const DramSchedulerRegistration kFrFcfs("fr-fcfs", [] { return std::make_unique<FrFcfs>(); });

}  // namespace

DramSchedulerRegistration::DramSchedulerRegistration(const char* name, DramSchedulerFactory f) {
  Registry<DramSchedulerFactory>::instance().add(name, std::move(f));
}

std::unique_ptr<IDramScheduler> make_dram_scheduler(const std::string& name) {
  return Registry<DramSchedulerFactory>::instance().get(name, "DRAM scheduler")();
}

}  // namespace gputlm::mem
