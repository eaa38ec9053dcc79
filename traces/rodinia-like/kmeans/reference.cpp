// CPU reference for rodinia-like/kmeans: the point-major -> feature-major transpose.
#include "io/workload/reference.h"

GPUTLM_REFERENCE("rodinia-like/kmeans") {
  const auto in = ctx.input<float>("features");
  const size_t npoints = static_cast<size_t>(ctx.var("points"));
  const size_t nfeatures = static_cast<size_t>(ctx.var("features"));
  std::vector<float> out(npoints * nfeatures);
  for (size_t p = 0; p < npoints; ++p)
    for (size_t f = 0; f < nfeatures; ++f) out[f * npoints + p] = in[p * nfeatures + f];
  ctx.expect("features_t", out);
}
