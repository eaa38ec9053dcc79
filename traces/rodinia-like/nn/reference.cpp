// CPU reference for rodinia-like/nn: the distance of every record to the query point, in float
// with the kernel's operation order (nvcc turns dlat * dlat + dlng * dlng into
// fma(dlat, dlat, dlng * dlng); sqrt is correctly rounded on both sides), so normally bit-exact.
#include <cmath>

#include "io/workload/reference.h"

GPUTLM_REFERENCE("rodinia-like/nn") {
  const size_t n = static_cast<size_t>(ctx.var("n"));
  const auto records = ctx.input<float>("records");
  const float qlat = static_cast<float>(ctx.param(0, 3));
  const float qlng = static_cast<float>(ctx.param(0, 4));
  std::vector<float> dist(n);
  for (size_t r = 0; r < n; ++r) {
    const float dlat = records[2 * r] - qlat;
    const float dlng = records[2 * r + 1] - qlng;
    dist[r] = std::sqrt(std::fma(dlat, dlat, dlng * dlng));
  }
  ctx.expect("dist", dist);
}
