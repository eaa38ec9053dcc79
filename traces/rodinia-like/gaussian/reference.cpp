// Input generator and CPU reference for rodinia-like/gaussian.
//
// Generator: a diagonally dominant n x n matrix (off-diagonal elements uniform in [-1, 1), the
// diagonal n plus a uniform [0, 1) part, so every pivot is well away from zero and no row exchange
// is needed) and a right-hand side uniform in [-n, n).
//
// Reference: the forward elimination on the CPU in float, pivot row by pivot row: multipliers of
// the rows below the pivot, then every element from the pivot column on and b updated. The
// multipliers end in m below the diagonal (zero elsewhere); a ends upper triangular up to the
// rounding residue left in the eliminated columns.
#include "io/workload/reference.h"

GPUTLM_GENERATOR("rodinia-like/gaussian") {
  auto& rng = ctx.rng();
  const size_t n = static_cast<size_t>(ctx.var("n"));
  std::vector<float> a(n * n), b(n);
  for (size_t i = 0; i < n; ++i) {
    for (size_t j = 0; j < n; ++j) a[i * n + j] = static_cast<float>(rng.uniform_real(-1.0, 1.0));
    a[i * n + i] = static_cast<float>(static_cast<double>(n) + rng.uniform01());
    b[i] = static_cast<float>(rng.uniform_real(-static_cast<double>(n), static_cast<double>(n)));
  }
  ctx.fill("a", a);
  ctx.fill("b", b);
}

GPUTLM_REFERENCE("rodinia-like/gaussian") {
  auto a = ctx.input<float>("a");
  auto b = ctx.input<float>("b");
  auto m = ctx.input<float>("m");
  const size_t n = static_cast<size_t>(ctx.var("n"));
  if (n < 2 || static_cast<int64_t>(n) - 1 > ctx.var("pivots"))
    throw gputlm::InputError(
        "rodinia-like/gaussian: launch.json lists pivots t = 0 .. pivots-1, which must "
        "cover 0 .. n-2");
  for (size_t t = 0; t + 1 < n; ++t) {
    for (size_t row = t + 1; row < n; ++row) m[row * n + t] = a[row * n + t] / a[t * n + t];
    for (size_t row = t + 1; row < n; ++row) {
      const float mult = m[row * n + t];
      for (size_t col = t; col < n; ++col) a[row * n + col] -= mult * a[t * n + col];
      b[row] -= mult * b[t];
    }
  }
  ctx.expect("a", a);
  ctx.expect("b", b);
  ctx.expect("m", m);
}
