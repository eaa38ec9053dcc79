// hongkim/blackscholes: the kernel's formulas in float with the C library's expf / logf / sqrtf.
// The GPU's library functions and the compiler's fused multiply-adds differ in the last bits,
// hence the "float" checks.
#include "io/workload/reference.h"

#include <cmath>

namespace {

float normal_cdf(float d) {
  const float t = 1.0f / (1.0f + 0.2316419f * std::fabs(d));
  const float poly =
      t * (0.319381530f +
           t * (-0.356563782f + t * (1.781477937f + t * (-1.821255978f + t * 1.330274429f))));
  const float tail = 0.3989422804f * std::exp(-0.5f * d * d) * poly;
  return d < 0.0f ? tail : 1.0f - tail;
}

}  // namespace

GPUTLM_REFERENCE("hongkim/blackscholes") {
  const auto spot = ctx.input<float>("spot");
  const auto strike = ctx.input<float>("strike");
  const auto years = ctx.input<float>("years");
  const auto rate = ctx.input<float>("rate");
  const auto vol = ctx.input<float>("vol");
  std::vector<float> call(spot.size()), put(spot.size());
  for (size_t i = 0; i < spot.size(); ++i) {
    const float s = spot[i], x = strike[i], t = years[i], r = rate[i], v = vol[i];
    const float v_sqrt_t = v * std::sqrt(t);
    const float d1 = (std::log(s / x) + (r + 0.5f * v * v) * t) / v_sqrt_t;
    const float d2 = d1 - v_sqrt_t;
    const float discounted_x = x * std::exp(-r * t);
    const float n1 = normal_cdf(d1), n2 = normal_cdf(d2);
    call[i] = s * n1 - discounted_x * n2;
    put[i] = discounted_x * (1.0f - n2) - s * (1.0f - n1);
  }
  ctx.expect("call", call);
  ctx.expect("put", put);
}
