// CPU reference for rodinia-like/hotspot: the pyramid kernel computes exactly what `steps` plain
// full-grid time steps compute (the halo makes every written cell exact), so the reference runs
// plain steps with neighbours clamped at the chip edge. Same float operation order as the PTX
// (constants folded as nvcc folds them; the update contracted into four fma.rn.f32, reproduced by
// std::fma), so normally bit-exact; launch.json allows a small tolerance.
#include <algorithm>
#include <cmath>

#include "../../common/hotspot_chip.h"
#include "io/workload/reference.h"

namespace {

std::vector<float> step(const std::vector<float>& temp, const std::vector<float>& power, int rows,
                        int cols) {
  const HotspotCoefficients k =
      hotspot_coefficients(static_cast<float>(rows), static_cast<float>(cols));
  const float dt_over_cap = k.step_div_cap, inv_rx = k.rx_1, inv_ry = k.ry_1, inv_rz = k.rz_1;
  std::vector<float> out(temp.size());
  for (int y = 0; y < rows; ++y) {
    for (int x = 0; x < cols; ++x) {
      const float t = temp[y * cols + x];
      const float tn = temp[std::max(y - 1, 0) * cols + x];
      const float ts = temp[std::min(y + 1, rows - 1) * cols + x];
      const float tw = temp[y * cols + std::max(x - 1, 0)];
      const float te = temp[y * cols + std::min(x + 1, cols - 1)];
      const float two_t = t + t;
      float acc = std::fma((ts + tn) - two_t, inv_ry, power[y * cols + x]);
      acc = std::fma((te + tw) - two_t, inv_rx, acc);
      acc = std::fma(AMB_TEMP - t, inv_rz, acc);
      out[y * cols + x] = std::fma(dt_over_cap, acc, t);
    }
  }
  return out;
}

}  // namespace

GPUTLM_REFERENCE("rodinia-like/hotspot") {
  const int rows = static_cast<int>(ctx.var("rows"));
  const int cols = static_cast<int>(ctx.var("cols"));
  const int ph = static_cast<int>(ctx.var("ph"));
  const int launches = static_cast<int>(ctx.var("steps")) / ph;
  const auto power = ctx.input<float>("power");
  // Launch l reads `temp` and writes `temp_out`, then the two names swap: at the end `temp` holds
  // the result of the last launch and `temp_out` that of the one before.
  std::vector<float> cur = ctx.input<float>("temp"), prev = ctx.input<float>("temp_out");
  for (int l = 0; l < launches; ++l) {
    std::vector<float> next = cur;
    for (int s = 0; s < ph; ++s) next = step(next, power, rows, cols);
    prev = std::move(cur);
    cur = std::move(next);
  }
  ctx.expect("temp", cur);
  ctx.expect("temp_out", prev);
}
