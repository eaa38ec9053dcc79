// CPU side of the Hong & Kim micro-benchmarks (mb_kernels.cuh is the GPU side: keep the two in
// step). The kernels' fmaf is a fused multiply-add (fma.rn.f32) and the final sum keeps its order,
// so std::fma gives the same bits and the checks are exact.
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

#include "io/workload/reference.h"

namespace gputlm::hongkim {

// Size variables: loops, blocks, block (threads per block), span, lines; kernel parameter 5 is h.
inline void mb_reference(workload::RefContext& ctx, int loads, int fp, bool uncoalesced) {
  const auto in = ctx.input<float>("in");
  const uint32_t loops = static_cast<uint32_t>(ctx.var("loops")),
                 span = static_cast<uint32_t>(ctx.var("span"));
  const uint32_t lmask = static_cast<uint32_t>(ctx.var("lines")) - 1;
  const uint32_t threads = static_cast<uint32_t>(ctx.var("blocks") * ctx.var("block"));
  const float h = static_cast<float>(ctx.param(0, 5));
  const uint32_t slot_lines = uncoalesced ? span : span >> 5;
  std::vector<float> out(static_cast<size_t>(threads) * (uncoalesced ? 32 : 1), 0.0f);
  for (uint32_t tid = 0; tid < threads; ++tid) {
    const uint32_t lane = tid & 31, line = uncoalesced ? tid : tid >> 5;
    auto load = [&](uint32_t slot) { return in[32 * ((line + slot * slot_lines) & lmask) + lane]; };
    const float x0 = load(0);
    float a[4] = {x0, 1.0f, 2.0f, 3.0f};
    for (uint32_t j = 0; j < loops; ++j)
      for (int n = 0; n < fp; ++n)
        a[n % 4] = std::fma(a[n % 4], h, n < loads ? load(1 + j * loads + n) : x0);
    out[uncoalesced ? 32 * tid : tid] = (a[0] + a[1]) + (a[2] + a[3]);
  }
  ctx.expect("out", out);
}

}  // namespace gputlm::hongkim
