// Input generator and CPU reference for rodinia-like/lavamd.
//
// Generator: box (bx, by, bz) of the boxes1d^3 grid is number (bz * boxes1d + by) * boxes1d + bx;
// its 32 particles lie uniformly inside it ([bx, bx+1) x [by, by+1) x [bz, bz+1)) with charges
// uniform in [0.1, 1). Its neighbour list is the box itself, then the boxes at offsets
// (dx, dy, dz) in {-1, 0, 1}^3 \ {0} (dz outermost, dx innermost) that lie inside the grid.
//
// Reference: the kernel's loops in the kernel's order (neighbour by neighbour, other particle by
// other particle), with the multiply-adds nvcc contracts into fma.rn.f32 reproduced by std::fma;
// std::exp differs from nvcc's expf (ex2.approx based) by an ulp or so: float tolerance.
#include <cmath>

#include "io/workload/reference.h"

namespace {
constexpr int kNp = 32;
constexpr int kMaxNbr = 27;
}  // namespace

GPUTLM_GENERATOR("rodinia-like/lavamd") {
  auto& rng = ctx.rng();
  const int d = static_cast<int>(ctx.var("boxes1d"));
  if (d < 1) throw gputlm::InputError("rodinia-like/lavamd: boxes1d must be at least 1");
  const int boxes = d * d * d;
  std::vector<float> particles(static_cast<size_t>(boxes) * kNp * 4);
  std::vector<int32_t> count(boxes), list(static_cast<size_t>(boxes) * kMaxNbr, -1);
  for (int bz = 0; bz < d; ++bz)
    for (int by = 0; by < d; ++by)
      for (int bx = 0; bx < d; ++bx) {
        const int b = (bz * d + by) * d + bx;
        for (int p = 0; p < kNp; ++p) {
          float* q = &particles[(static_cast<size_t>(b) * kNp + p) * 4];
          q[0] = static_cast<float>(bx + rng.uniform01());
          q[1] = static_cast<float>(by + rng.uniform01());
          q[2] = static_cast<float>(bz + rng.uniform01());
          q[3] = static_cast<float>(rng.uniform_real(0.1, 1.0));
        }
        int k = 0;
        list[b * kMaxNbr + k++] = b;
        for (int oz = -1; oz <= 1; ++oz)
          for (int oy = -1; oy <= 1; ++oy)
            for (int ox = -1; ox <= 1; ++ox) {
              if (ox == 0 && oy == 0 && oz == 0) continue;
              const int nx = bx + ox, ny = by + oy, nz = bz + oz;
              if (nx < 0 || nx >= d || ny < 0 || ny >= d || nz < 0 || nz >= d) continue;
              list[b * kMaxNbr + k++] = (nz * d + ny) * d + nx;
            }
        count[b] = k;
      }
  ctx.fill("particles", particles);
  ctx.fill("nbr_count", count);
  ctx.fill("nbr_list", list);
}

GPUTLM_REFERENCE("rodinia-like/lavamd") {
  const auto particles = ctx.input<float>("particles");
  const auto count = ctx.input<int32_t>("nbr_count");
  const auto list = ctx.input<int32_t>("nbr_list");
  auto out = ctx.input<float>("out");
  const float a2 = static_cast<float>(ctx.param(0, 4));  // the kernel's a2
  const float two_a2 = a2 + a2;
  const int boxes = static_cast<int>(count.size());
  for (int b = 0; b < boxes; ++b)
    for (int p = 0; p < kNp; ++p) {
      const float* h = &particles[(static_cast<size_t>(b) * kNp + p) * 4];
      float pot = 0.0f, fx = 0.0f, fy = 0.0f, fz = 0.0f;
      for (int k = 0; k < count[b]; ++k) {
        const int other = list[b * kMaxNbr + k];
        for (int j = 0; j < kNp; ++j) {
          const float* o = &particles[(static_cast<size_t>(other) * kNp + j) * 4];
          const float dx = h[0] - o[0], dy = h[1] - o[1], dz = h[2] - o[2];
          const float r2 = std::fma(dz, dz, std::fma(dx, dx, dy * dy)) * a2;
          const float u = std::exp(-r2);
          const float v = o[3] * u;
          const float f = two_a2 * v;
          pot += v;
          fx = std::fma(dx, f, fx);
          fy = std::fma(dy, f, fy);
          fz = std::fma(dz, f, fz);
        }
      }
      float* w = &out[(static_cast<size_t>(b) * kNp + p) * 4];
      w[0] = pot;
      w[1] = fx;
      w[2] = fy;
      w[3] = fz;
    }
  ctx.expect("out", out);
}
