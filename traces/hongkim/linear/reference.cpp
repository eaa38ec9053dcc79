// hongkim/linear: the 3 x 3 box average with clamped edges, summed in float in the kernel's order
// (rows, then columns) and rounded to the nearest integer (ties to even, like cvt.rni); sums of
// bytes are exact in float, so the output bytes are bit-identical and the check is exact.
#include "io/workload/reference.h"

#include <algorithm>
#include <cmath>

GPUTLM_REFERENCE("hongkim/linear") {
  const auto in = ctx.input<uint8_t>("in");
  const int64_t w = ctx.var("width"), h = ctx.var("height");
  std::vector<uint8_t> out(static_cast<size_t>(3 * w * h));
  for (int64_t y = 0; y < h; ++y) {
    for (int64_t x = 0; x < w; ++x) {
      float sum[3] = {0.0f, 0.0f, 0.0f};
      for (int64_t dy = -1; dy <= 1; ++dy) {
        const int64_t yy = std::clamp<int64_t>(y + dy, 0, h - 1);
        for (int64_t dx = -1; dx <= 1; ++dx) {
          const int64_t xx = std::clamp<int64_t>(x + dx, 0, w - 1);
          for (int c = 0; c < 3; ++c) sum[c] += in[static_cast<size_t>(3 * (yy * w + xx) + c)];
        }
      }
      for (int c = 0; c < 3; ++c)
        out[static_cast<size_t>(3 * (y * w + x) + c)] =
            static_cast<uint8_t>(std::nearbyint(sum[c] * (1.0f / 9.0f)));
    }
  }
  ctx.expect("out", out);
}
