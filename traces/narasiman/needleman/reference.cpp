// needleman: the full Needleman-Wunsch score matrix of every pair, stored in the kernel's skewed
// layout (skewed slots no cell maps to stay zero).
#include "io/workload/reference.h"

#include <algorithm>

GPUTLM_REFERENCE("narasiman/needleman") {
  const auto a = ctx.input<uint8_t>("seq_a");
  const auto b = ctx.input<uint8_t>("seq_b");
  const int64_t rows = ctx.var("rows"), cols = ctx.var("cols"), pairs = ctx.var("pairs");
  const int match = 1, mismatch = -1, gap = -2;  // the launch's score parameters
  std::vector<int32_t> score(ctx.count("score"), 0);
  std::vector<int32_t> prev(cols + 1), cur(cols + 1);
  for (int64_t p = 0; p < pairs; ++p) {
    const uint8_t* pa = a.data() + p * rows;
    const uint8_t* pb = b.data() + p * cols;
    int32_t* out = score.data() + p * (rows + 31) * cols;
    for (int64_t c = 0; c <= cols; ++c) prev[c] = static_cast<int32_t>(c * gap);
    for (int64_t r = 1; r <= rows; ++r) {
      cur[0] = static_cast<int32_t>(r * gap);
      for (int64_t c = 1; c <= cols; ++c) {
        const int32_t diag = prev[c - 1] + (pa[r - 1] == pb[c - 1] ? match : mismatch);
        cur[c] = std::max(diag, std::max(prev[c], cur[c - 1]) + gap);
        const int64_t skewed = r - 1 + ((c - 1) % 64) / 2;
        out[skewed * cols + (c - 1)] = cur[c];
      }
      std::swap(prev, cur);
    }
  }
  ctx.expect("score", score);
}
