#include <cmath>

#include "io/workload/reference.h"

// The PTX computes a * x[i] + y[i] as one fused multiply-add (fma.rn.f32), so std::fma gives the
// same bits; the check still allows a small tolerance.
GPUTLM_REFERENCE("micro/saxpy") {
  const float a = static_cast<float>(ctx.param(0, 2));  // the f32 parameter of the launch
  auto x = ctx.input<float>("x");
  auto y = ctx.input<float>("y");
  for (size_t i = 0; i < y.size(); ++i) y[i] = std::fma(a, x[i], y[i]);
  ctx.expect("y", y);
}
