// A per-SM constant cache (core key "l1c"; off when its size is 0, as every preset is today, and
// then constant and parameter loads pass the memory stage in memory_cycles as other instructions
// do). ld.const and ld.param read it (kernel parameters live in a constant bank on NVIDIA GPUs:
// the PTX ISA's "Kernel Function Parameters" are in the .param state space, which the compiler
// maps to constant bank 0). The CUDA C++ Programming Guide, "Device Memory Accesses", Constant
// Memory: a warp's request is split into as many separate requests as there are different
// memory addresses in it, decreasing throughput by that factor; one address (a broadcast) costs
// one request. Here each distinct address is one request, one a cycle in lane order; a request
// whose line is present answers hit_latency cycles after it starts, one whose line is absent
// miss_latency after (it fills the line; a later request of the same access to that line answers
// no earlier than the fill, as if merged into its miss). With CoreSpec::l1c_misses "icache" a
// constant line's miss is instead a read through the I-cache (MemoryStage). What is abstracted
// away otherwise: the levels behind it (an L1.5 constant cache, the L2) are one latency, with no
// traffic on the interconnect. The values come from the functional engine. Plain C++, no
// SystemC: the memory stage asks it at once.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "models/common/lane_mask.h"
#include "models/mem/cache/cache_spec.h"
#include "models/mem/cache/tag_array.h"

namespace gputlm::sm {

class ConstantCache {
 public:
  ConstantCache(const mem::CacheSpec& spec, uint32_t miss_latency);

  // Cycles from the first request of a warp's access by `lanes` to `addresses` until its last
  // answer: with n distinct addresses, max over requests i = 0..n-1 of i + its latency. `param`
  // addresses are offsets in the kernel's parameters (kept apart from constant addresses).
  // With `missed` (CoreSpec::l1c_misses "icache"), a constant (not parameter) address whose line
  // is absent is not filled: its line's address is appended to `missed` once, the requests to
  // that line count as misses and not in the cycles returned (the caller reads the line below and
  // calls fill when it is back; until then the line stays absent, so a later access misses it
  // too and waits for the same read).
  uint32_t access(const std::array<uint64_t, kWarpSize>& addresses, LaneMask lanes, bool param,
                  std::vector<uint64_t>* missed = nullptr);
  // The line at `address` (one `missed` named) is back: it is present from now on.
  void fill(uint64_t address);

  // The distinct addresses (requests, one a cycle) of the last access.
  uint32_t last_requests() const { return m_last_requests; }
  uint64_t requests() const { return m_requests; }
  uint64_t hits() const { return m_hits; }
  uint64_t misses() const { return m_misses; }
  void flush() { m_tags.clear(); }  // every line invalid (mem::Cache::flush)

 private:
  mem::CacheSpec m_spec;
  uint32_t m_miss_latency;
  mem::TagArray m_tags;
  uint64_t m_requests = 0, m_hits = 0, m_misses = 0;
  uint32_t m_last_requests = 0;
};

}  // namespace gputlm::sm
