// kmeans: the generator draws 1-D 8-bit points around eight random centres; the reference replays
// the launches (one per iteration, as many as `deltas` has entries) with the kernel's integer
// arithmetic, walk order and tie rules.
#include "io/workload/reference.h"

#include <cstdlib>

namespace {
constexpr int kTrueClusters = 8;
}  // namespace

GPUTLM_GENERATOR("narasiman/kmeans") {
  int centre[kTrueClusters];
  for (int& c : centre) c = static_cast<int>(ctx.rng().uniform_int(16, 239));
  std::vector<uint8_t> points(ctx.count("points"));
  for (auto& p : points) {
    const int c = centre[ctx.rng().uniform_int(0, kTrueClusters - 1)];
    int v = c + static_cast<int>(ctx.rng().uniform_int(-16, 16) + ctx.rng().uniform_int(-16, 16));
    p = static_cast<uint8_t>(v < 0 ? 0 : v > 255 ? 255 : v);
  }
  ctx.fill("points", points);
}

GPUTLM_REFERENCE("narasiman/kmeans") {
  const auto points = ctx.input<uint8_t>("points");
  const auto init = ctx.input<uint32_t>("init_cents");
  auto member = ctx.input<uint8_t>("member");
  const size_t k = init.size();
  const size_t iters = ctx.count("deltas");
  std::vector<uint32_t> sums(iters * k, 0), counts(iters * k, 0), deltas(iters, 0),
      cents(iters * k, 0);
  std::vector<uint32_t> c(init.begin(), init.end());
  for (size_t it = 0; it < iters; ++it) {
    if (it > 0)
      for (size_t j = 0; j < k; ++j) {
        const uint32_t cnt = counts[(it - 1) * k + j];
        if (cnt != 0) c[j] = (sums[(it - 1) * k + j] * 256u + cnt / 2u) / cnt;
      }
    for (size_t j = 0; j < k; ++j) cents[it * k + j] = c[j];
    for (size_t i = 0; i < points.size(); ++i) {
      const int pf = static_cast<int>(points[i]) << 8;
      const uint32_t old = member[i];
      size_t idx = old < k ? old : 0;
      int best = std::abs(pf - static_cast<int>(c[idx]));
      while (idx + 1 < k) {
        const int d = std::abs(pf - static_cast<int>(c[idx + 1]));
        if (d >= best) break;
        best = d;
        ++idx;
      }
      while (idx > 0) {
        const int d = std::abs(pf - static_cast<int>(c[idx - 1]));
        if (d > best) break;
        best = d;
        --idx;
      }
      if (member[i] != idx) {
        ++deltas[it];
        member[i] = static_cast<uint8_t>(idx);
      }
      sums[it * k + idx] += points[i];
      counts[it * k + idx] += 1;
    }
  }
  ctx.expect("sums", sums);
  ctx.expect("counts", counts);
  ctx.expect("deltas", deltas);
  ctx.expect("cents", cents);
  ctx.expect("member", member);
}
