// A pool of generic payloads with a MemExtension attached, recycled through TLM's memory
// management (acquire/release): the hot path never allocates once the pool is warm.
#pragma once

#include <memory>
#include <tlm>
#include <vector>

#include "models/common/sim_time.h"
#include "models/mem/mem_extension.h"

namespace gputlm::mem {

class PayloadPool : public tlm::tlm_mm_interface {
 public:
  PayloadPool() = default;
  PayloadPool(const PayloadPool&) = delete;
  PayloadPool& operator=(const PayloadPool&) = delete;
  ~PayloadPool() override;

  // A fresh payload (reference count 1) for a `bytes`-byte access at `address`, issued at
  // `issued` (the requester's time: a core running a cycle ahead gives its own).
  tlm::tlm_generic_payload& make(uint64_t address, uint32_t bytes, AccessKind kind,
                                 const sc_core::sc_time& issued);
  void free(tlm::tlm_generic_payload* p) override;
  size_t allocated() const { return m_all.size(); }
  // Payloads made and not yet released by everything that holds them: requests still out.
  size_t in_use() const { return m_all.size() - m_free.size(); }

 private:
  std::vector<std::unique_ptr<tlm::tlm_generic_payload>> m_all;
  std::vector<tlm::tlm_generic_payload*> m_free;
  uint64_t m_next_id = 1;
};

// A module that makes requests from a PayloadPool. A request holds its payload until its last
// holder (queues, MSHRs, DRAM banks, the maker awaiting the response) releases it, so while none
// of a GPU's modules has a request out, no memory traffic is under way: the GPU ends a launch
// there (gpu::Gpu::run).
class RequestMaker {
 public:
  virtual ~RequestMaker() = default;
  virtual size_t requests_out() const = 0;
};

}  // namespace gputlm::mem
