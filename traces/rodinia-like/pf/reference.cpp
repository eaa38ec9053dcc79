// CPU reference for rodinia-like/pf: the sum of the weights in the kernel's order (per-thread
// strided sums, then the halving tree over the threads of the one CTA), the normalised weights,
// their running sum (CDF) and u[i] = rand_u[0] / n + i / n. Plain float with the same operation
// order (nvcc does not contract any of these), so normally bit-exact.
#include "io/workload/reference.h"

GPUTLM_REFERENCE("rodinia-like/pf") {
  const unsigned n = static_cast<unsigned>(ctx.var("n"));
  const unsigned threads = static_cast<unsigned>(ctx.var("threads"));
  auto w = ctx.input<float>("w");
  const auto rand_u = ctx.input<float>("rand_u");

  std::vector<float> part(threads, 0.0f);
  for (unsigned t = 0; t < threads; ++t)
    for (unsigned i = t; i < n; i += threads) part[t] += w[i];
  for (unsigned half = threads / 2; half > 0; half /= 2)
    for (unsigned t = 0; t < half; ++t) part[t] += part[t + half];
  const float total = part[0];

  for (unsigned i = 0; i < n; ++i) w[i] = w[i] / total;
  std::vector<float> cdf(n);
  float running = 0.0f;
  for (unsigned j = 0; j < n; ++j) cdf[j] = running += w[j];
  const float u1 = rand_u[0] / static_cast<float>(n);
  std::vector<float> u(n);
  for (unsigned i = 0; i < n; ++i) u[i] = u1 + static_cast<float>(i) / static_cast<float>(n);

  ctx.expect("sum", std::vector<float>{total});
  ctx.expect("w", w);
  ctx.expect("cdf", cdf);
  ctx.expect("u", u);
}
