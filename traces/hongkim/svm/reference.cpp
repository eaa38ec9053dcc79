// hongkim/svm: the RBF decision values with the kernel's fused multiply-adds in the kernel's order
// (std::fma); only expf differs (the C library's against the GPU's, each within a few ulp), hence
// a "float" check with small tolerances.
#include "io/workload/reference.h"

#include <cmath>

GPUTLM_REFERENCE("hongkim/svm") {
  const auto x = ctx.input<float>("x");
  const auto sv = ctx.input<float>("sv");
  const auto alpha = ctx.input<float>("alpha");
  const size_t m = static_cast<size_t>(ctx.var("m")), dim = static_cast<size_t>(ctx.var("dim")),
               nsv = static_cast<size_t>(ctx.var("nsv"));
  const float gamma = static_cast<float>(ctx.param(0, 7)),
              bias = static_cast<float>(ctx.param(0, 8));
  std::vector<float> score(m);
  for (size_t i = 0; i < m; ++i) {
    float f = bias;
    for (size_t j = 0; j < nsv; ++j) {
      float d2 = 0.0f;
      for (size_t k = 0; k < dim; ++k) {
        const float diff = x[k * m + i] - sv[j * dim + k];
        d2 = std::fma(diff, diff, d2);
      }
      f = std::fma(alpha[j], std::exp(-gamma * d2), f);
    }
    score[i] = f;
  }
  ctx.expect("score", score);
}
