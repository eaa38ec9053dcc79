// hongkim/sepia: the kernel's colour matrix with the same multiply and fused multiply-adds
// (std::fma), so every output byte is bit-identical and the check is exact.
#include "io/workload/reference.h"

#include <cmath>

GPUTLM_REFERENCE("hongkim/sepia") {
  const auto in = ctx.input<uint8_t>("in");
  const size_t pixels = static_cast<size_t>(ctx.var("width") * ctx.var("height"));
  std::vector<uint8_t> out(3 * pixels);
  auto channel = [](float r, float g, float b, float wr, float wg, float wb) {
    const float v = std::fma(b, wb, std::fma(g, wg, r * wr));
    return static_cast<uint8_t>(std::fmin(v, 255.0f));
  };
  for (size_t p = 0; p < pixels; ++p) {
    const float r = in[3 * p], g = in[3 * p + 1], b = in[3 * p + 2];
    out[3 * p + 0] = channel(r, g, b, 0.393f, 0.769f, 0.189f);
    out[3 * p + 1] = channel(r, g, b, 0.349f, 0.686f, 0.168f);
    out[3 * p + 2] = channel(r, g, b, 0.272f, 0.534f, 0.131f);
  }
  ctx.expect("out", out);
}
