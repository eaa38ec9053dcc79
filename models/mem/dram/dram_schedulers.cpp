// The DRAM scheduling policies.
//   fcfs    First-come first-serve (Narasiman Table 5.1): requests to one bank are served in
//           arrival order; among banks that can start an access, the oldest request goes first.
//   fr-fcfs First-ready FCFS (Rixner et al., ISCA 2000; dissertation Table 8.1): the oldest
//           request that hits its bank's open row goes first, else as fcfs.
#include "models/common/registry.h"
#include "models/mem/dram/dram_scheduler.h"

namespace gputlm::mem {
namespace {

// Oldest request that is the oldest of its bank and whose bank is ready.
int oldest_ready(const std::vector<DramQueueEntry>& q, const std::vector<DramBankView>& banks) {
  std::vector<bool> seen(banks.size(), false);
  for (size_t i = 0; i < q.size(); ++i) {
    const uint32_t b = q[i].bank;
    if (seen[b]) continue;
    seen[b] = true;
    if (banks[b].ready) return static_cast<int>(i);
  }
  return -1;
}

class Fcfs : public IDramScheduler {
 public:
  int pick(const std::vector<DramQueueEntry>& q, const std::vector<DramBankView>& banks, Cycle) override {
    return oldest_ready(q, banks);
  }
};

class FrFcfs : public IDramScheduler {
 public:
  int pick(const std::vector<DramQueueEntry>& q, const std::vector<DramBankView>& banks, Cycle) override {
    for (size_t i = 0; i < q.size(); ++i) {
      const DramBankView& b = banks[q[i].bank];
      if (b.ready && b.open_row && *b.open_row == q[i].row) return static_cast<int>(i);
    }
    return oldest_ready(q, banks);
  }
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
