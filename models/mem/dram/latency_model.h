// The latency model (timing_model "latency"), the papers' DRAM abstraction: one queue of
// queue_depth entries, and each cycle the policy starts at most one whole access among the banks
// that can take one (LatencyBanks, latency_banks.h, says when a bank can and how long an access
// takes). A request's row outcome, its activate and precharge are counted when its access starts.
#pragma once

#include <deque>
#include <string>
#include <vector>

#include "models/mem/dram/dram_timing.h"
#include "models/mem/dram/latency_banks.h"

namespace gputlm::mem {

class LatencyModel : public DramTimingModel {
 public:
  explicit LatencyModel(const DramTimingContext& context);

  bool has_room(bool write) const override;
  void queued(size_t i) override;
  std::optional<DramStart> step(Cycle now) override;
  void started(const DramQueueEntry& e, const DramRequest& r) override;
  Cycle next_wake(Cycle now) const override;

 private:
  void update_bank_start(uint32_t bank);
  bool any_bank_may_start(Cycle now) const;  // some bank's m_bank_start has come
  // With a policy that picks a bank's oldest request only: those that may start now, marked,
  // into m_candidates (their queue positions into m_candidate_index), oldest first.
  void collect_bank_heads();
  void record_waves(uint32_t bank, const DramIssue& r, bool write, uint64_t row);

  bool m_heads_only;  // m_scheduler.bank_heads_only(), asked once
  bool m_holds;       // m_scheduler.holds_rows(), asked once
  LatencyBanks m_banks;
  std::vector<DramBankView> m_views;
  // Per bank with requests queued, the first cycle it may start one (its open row's once ready if
  // one is queued for it, else a row change's), kept by update_bank_start.
  std::vector<Cycle> m_bank_start;
  // m_heads_only: per bank, the serial numbers of its queued requests, oldest first (a bank's
  // head is found in the queue by a binary search).
  std::vector<std::deque<uint64_t>> m_bank_serials;
  std::vector<DramQueueEntry> m_candidates;  // scratch: the entries the policy sees
  std::vector<size_t> m_candidate_index;
};

}  // namespace gputlm::mem
