// Input generator and CPU reference for rodinia-like/lud.
//
// Generator: a diagonally dominant n x n matrix (off-diagonal elements uniform in [-1, 1), the
// diagonal n plus a uniform [0, 1) part), so Doolittle LU needs no row exchanges and every pivot
// stays near n.
//
// Reference: the same blocked algorithm as the kernels, block step by block step, with each
// element's float operations in the kernels' order: in the diagonal block and the perimeter
// strips every update is a separate multiply and subtract (the PTX has mul.f32 then sub.f32) and
// the division by the pivot comes where the kernels do it; in the trailing blocks the B products
// are accumulated from k = 0 up with fused multiply-adds (the PTX's fma.rn.f32 chain, std::fma
// here) and the sum subtracted once. The result is normally bit-exact; launch.json allows a small
// tolerance in case the host compiler contracts a multiply and subtract.
#include <cmath>

#include "io/workload/reference.h"

namespace {
constexpr size_t kB = 16;  // block size B of kernel.cu
}

GPUTLM_GENERATOR("rodinia-like/lud") {
  auto& rng = ctx.rng();
  const size_t n = static_cast<size_t>(ctx.var("n"));
  std::vector<float> a(n * n);
  for (size_t r = 0; r < n; ++r) {
    for (size_t c = 0; c < n; ++c) a[r * n + c] = static_cast<float>(rng.uniform_real(-1.0, 1.0));
    a[r * n + r] = static_cast<float>(static_cast<double>(n) + rng.uniform01());
  }
  ctx.fill("a", a);
}

GPUTLM_REFERENCE("rodinia-like/lud") {
  auto a = ctx.input<float>("a");
  const size_t n = static_cast<size_t>(ctx.var("n"));
  if (n == 0 || n % kB != 0 || static_cast<int64_t>(n / kB) > ctx.var("steps"))
    throw gputlm::InputError(
        "rodinia-like/lud: n must be a positive multiple of 16 and launch.json lists "
        "'steps' diagonal steps, which must cover n / 16");
  auto at = [&](size_t r, size_t c) -> float& { return a[r * n + c]; };
  for (size_t i = 0; i < n; i += kB) {
    // lud_diagonal: right-looking elimination inside the diagonal block.
    for (size_t k = 0; k + 1 < kB; ++k) {
      for (size_t t = k + 1; t < kB; ++t) at(i + t, i + k) = at(i + t, i + k) / at(i + k, i + k);
      for (size_t t = k + 1; t < kB; ++t) {
        const float l = at(i + t, i + k);
        for (size_t c = k + 1; c < kB; ++c) {
          const float p = l * at(i + k, i + c);
          at(i + t, i + c) = at(i + t, i + c) - p;
        }
      }
    }
    // lud_perimeter: the row strip (forward substitution, unit lower triangle) and the column
    // strip (substitution against the upper triangle, then the division by the pivot).
    for (size_t j = i + kB; j < n; j += kB) {
      for (size_t u = 0; u < kB; ++u) {
        for (size_t r = 1; r < kB; ++r) {
          float x = at(i + r, j + u);
          for (size_t k = 0; k < r; ++k) {
            const float p = at(i + r, i + k) * at(i + k, j + u);
            x = x - p;
          }
          at(i + r, j + u) = x;
        }
      }
      for (size_t u = 0; u < kB; ++u) {
        for (size_t c = 0; c < kB; ++c) {
          float x = at(j + u, i + c);
          for (size_t k = 0; k < c; ++k) {
            const float p = at(j + u, i + k) * at(i + k, i + c);
            x = x - p;
          }
          at(j + u, i + c) = x / at(i + c, i + c);
        }
      }
    }
    // lud_internal: every trailing element minus its B-term dot product.
    for (size_t r = i + kB; r < n; ++r) {
      for (size_t c = i + kB; c < n; ++c) {
        float sum = 0.0f;
        for (size_t k = 0; k < kB; ++k) sum = std::fma(at(r, i + k), at(i + k, c), sum);
        at(r, c) = at(r, c) - sum;
      }
    }
  }
  ctx.expect("a", a);
}
