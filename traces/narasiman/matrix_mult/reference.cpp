// CPU reference for narasiman/matrix_mult: C = A x B for n x n row-major int32 matrices, with the
// kernel's wrap-around int32 arithmetic (computed in uint32 to avoid signed overflow in C++; the
// inputs are small, so nothing actually wraps).
#include "io/workload/reference.h"

GPUTLM_REFERENCE("narasiman/matrix_mult") {
  const size_t n = static_cast<size_t>(ctx.var("n"));
  const auto a = ctx.input<int32_t>("a");
  const auto b = ctx.input<int32_t>("b");
  std::vector<int32_t> c(n * n);
  for (size_t row = 0; row < n; ++row) {
    for (size_t col = 0; col < n; ++col) {
      uint32_t sum = 0;
      for (size_t k = 0; k < n; ++k)
        sum += static_cast<uint32_t>(a[row * n + k]) * static_cast<uint32_t>(b[k * n + col]);
      c[row * n + col] = static_cast<int32_t>(sum);
    }
  }
  ctx.expect("c", c);
}
