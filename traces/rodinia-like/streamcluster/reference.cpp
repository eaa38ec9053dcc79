// Input generator and CPU reference for rodinia-like/streamcluster.
//
// Generator: uniform random coordinates in [0, 1) (dimension-major), weights in [1, 2), k distinct
// random points as the open centres (center_table maps each to its number, 0 elsewhere), every
// point assigned to its cheapest centre with that weighted squared distance as its cost (the state
// of the points after a first clustering pass).
// Reference: the kernel's x_cost with its operation order (fma(diff, diff, d) over the dimensions
// in order, then times the weight), so the comparisons come out the same; the switch flags
// (exact) and the work rows (float).
#include <cmath>

#include "io/workload/reference.h"

namespace {

float weighted_dist(const std::vector<float>& coord, size_t num, size_t dim, size_t p, size_t q,
                    float weight) {
  float d = 0.0f;
  for (size_t c = 0; c < dim; ++c) {
    const float diff = coord[c * num + p] - coord[c * num + q];
    d = std::fma(diff, diff, d);
  }
  return d * weight;
}

}  // namespace

GPUTLM_GENERATOR("rodinia-like/streamcluster") {
  const size_t num = static_cast<size_t>(ctx.var("num"));
  const size_t dim = static_cast<size_t>(ctx.var("dim"));
  const size_t k = static_cast<size_t>(ctx.var("k"));
  auto& rng = ctx.rng();
  std::vector<float> coord(num * dim), weight(num), cost(num);
  for (auto& v : coord) v = static_cast<float>(rng.uniform01());
  for (auto& v : weight) v = static_cast<float>(rng.uniform_real(1.0, 2.0));
  std::vector<int32_t> center_table(num, 0), assign(num, 0), centres;
  std::vector<bool> is_centre(num, false);
  while (centres.size() < k) {
    const size_t c = static_cast<size_t>(rng.uniform_int(0, static_cast<int64_t>(num) - 1));
    if (is_centre[c]) continue;
    is_centre[c] = true;
    center_table[c] = static_cast<int32_t>(centres.size());
    centres.push_back(static_cast<int32_t>(c));
  }
  for (size_t p = 0; p < num; ++p) {
    float best = INFINITY;
    for (int32_t c : centres) {
      const float d = weighted_dist(coord, num, dim, p, static_cast<size_t>(c), weight[p]);
      if (d < best) best = d, assign[p] = c;
    }
    cost[p] = best;
  }
  ctx.fill("coord", coord);
  ctx.fill("weight", weight);
  ctx.fill("cost", cost);
  ctx.fill("assign", assign);
  ctx.fill("center_table", center_table);
}

GPUTLM_REFERENCE("rodinia-like/streamcluster") {
  const size_t num = static_cast<size_t>(ctx.var("num"));
  const size_t dim = static_cast<size_t>(ctx.var("dim"));
  const size_t k = static_cast<size_t>(ctx.var("k"));
  const size_t x = static_cast<size_t>(ctx.param(0, 10));
  const auto coord = ctx.input<float>("coord");
  const auto weight = ctx.input<float>("weight");
  const auto cost = ctx.input<float>("cost");
  const auto assign = ctx.input<int32_t>("assign");
  const auto center_table = ctx.input<int32_t>("center_table");
  auto flags = ctx.input<uint8_t>("switch_flag");
  auto work = ctx.input<float>("work");
  for (size_t p = 0; p < num; ++p) {
    const float x_cost = weighted_dist(coord, num, dim, p, x, weight[p]);
    float* row = &work[p * (k + 1)];
    if (x_cost < cost[p]) {
      flags[p] = 1;
      row[k] += cost[p] - x_cost;
    } else {
      row[center_table[assign[p]]] += cost[p] - x_cost;
    }
  }
  ctx.expect("switch_flag", flags);
  ctx.expect("work", work);
}
