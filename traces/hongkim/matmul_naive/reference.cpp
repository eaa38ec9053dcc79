// hongkim/matmul_naive and hongkim/matmul_tiled (its launch.json names this reference): C = A x B
// accumulated with one fused multiply-add per k in increasing k, as each GPU thread does (the tiles
// only change where the operands come from, not the order of the sum), so the results are
// bit-identical and the check is exact.
#include "io/workload/reference.h"

#include <cmath>

GPUTLM_REFERENCE("hongkim/matmul_naive") {
  const size_t n = static_cast<size_t>(ctx.var("n"));
  const auto a = ctx.input<float>("a");
  const auto b = ctx.input<float>("b");
  std::vector<float> c(n * n);
  for (size_t row = 0; row < n; ++row)
    for (size_t col = 0; col < n; ++col) {
      float sum = 0.0f;
      for (size_t k = 0; k < n; ++k) sum = std::fma(a[row * n + k], b[k * n + col], sum);
      c[row * n + col] = sum;
    }
  ctx.expect("c", c);
}
