// Counters of a functional run: warp and thread instructions, the SIMD utilisation histogram
// (warp instructions with k lanes active in the SIMT mask, k = 0..32; the papers' divergent-branch
// intensity is the mean of this histogram), and instructions per class.
#pragma once

#include <array>
#include <cstdint>

#include "models/common/lane_mask.h"
#include "models/isa/opcode.h"

namespace gputlm::func {

struct FuncStats {
  static constexpr size_t kClasses = isa::kInstrClasses;
  uint64_t warp_instructions = 0;
  uint64_t thread_instructions = 0;  // sum of active lanes over warp instructions
  uint64_t ctas = 0;
  uint64_t warps = 0;
  uint64_t barriers = 0;  // warp arrivals at barriers
  std::array<uint64_t, kWarpSize + 1> active_histogram{};
  std::array<uint64_t, kClasses> by_class{};  // indexed by isa::InstrClass
  // Global (and local) memory warp instructions by the lines of `line_bytes` their active lanes
  // touch, counted only when ReferenceOptions::line_bytes is set: one line is the MWP/CWP model's
  // coalesced (Hong & Kim footnote 8), more is uncoalesced.
  uint64_t coalesced_memory_instructions = 0;
  uint64_t uncoalesced_memory_instructions = 0;
  uint64_t uncoalesced_line_requests = 0;

  void count(LaneMask active, isa::InstrClass cls) {
    const unsigned n = popcount(active);
    ++warp_instructions;
    thread_instructions += n;
    ++active_histogram[n];
    ++by_class[static_cast<size_t>(cls)];
  }
  double average_active_lanes() const {
    return warp_instructions ? static_cast<double>(thread_instructions) / warp_instructions : 0.0;
  }
  void add(const FuncStats& o) {
    warp_instructions += o.warp_instructions;
    thread_instructions += o.thread_instructions;
    ctas += o.ctas;
    warps += o.warps;
    barriers += o.barriers;
    coalesced_memory_instructions += o.coalesced_memory_instructions;
    uncoalesced_memory_instructions += o.uncoalesced_memory_instructions;
    uncoalesced_line_requests += o.uncoalesced_line_requests;
    for (size_t i = 0; i < active_histogram.size(); ++i)
      active_histogram[i] += o.active_histogram[i];
    for (size_t i = 0; i < by_class.size(); ++i) by_class[i] += o.by_class[i];
  }
};

}  // namespace gputlm::func
