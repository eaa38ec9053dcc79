// CPU reference for narasiman/hotspot: `steps` Rodinia HotSpot time steps, computed in float with
// the same operation order as the PTX (nvcc contracts the update into four fma.rn.f32, which
// std::fma reproduces), so the result is normally bit-exact; launch.json still allows a small
// float tolerance.
#include <algorithm>
#include <cmath>

#include "../../common/hotspot_chip.h"
#include "io/workload/reference.h"

namespace {

// One time step, exactly as kernel.cu/kernel.ptx computes it.
std::vector<float> hotspot_step(const std::vector<float>& temp, const std::vector<float>& power,
                                unsigned rows, unsigned cols) {
  // The coefficients as kernel.cu computes them (the same header, so the same float folding and
  // operation order).
  const HotspotCoefficients k =
      hotspot_coefficients(static_cast<float>(rows), static_cast<float>(cols));
  const float step_div_cap = k.step_div_cap, rx_1 = k.rx_1, ry_1 = k.ry_1, rz_1 = k.rz_1;
  const float amb_temp = AMB_TEMP;

  std::vector<float> out(temp.size());
  for (unsigned r = 0; r < rows; ++r) {
    for (unsigned c = 0; c < cols; ++c) {
      const unsigned i = r * cols + c;
      const float t = temp[i];
      const float tn = temp[(r > 0 ? r - 1 : 0) * cols + c];
      const float ts = temp[std::min(r + 1, rows - 1) * cols + c];
      const float tw = temp[r * cols + (c > 0 ? c - 1 : 0)];
      const float te = temp[r * cols + std::min(c + 1, cols - 1)];
      const float two_t = t + t;
      float acc = std::fma((ts + tn) - two_t, ry_1, power[i]);
      acc = std::fma((te + tw) - two_t, rx_1, acc);
      acc = std::fma(amb_temp - t, rz_1, acc);
      out[i] = std::fma(step_div_cap, acc, t);
    }
  }
  return out;
}

}  // namespace

GPUTLM_REFERENCE("narasiman/hotspot") {
  const unsigned rows = static_cast<unsigned>(ctx.var("rows"));
  const unsigned cols = static_cast<unsigned>(ctx.var("cols"));
  const int steps = static_cast<int>(ctx.var("steps"));
  auto temp = ctx.input<float>("temp");
  const auto power = ctx.input<float>("power");
  // launch.json runs `steps` (even) launches, swapping temp and temp_out after each one, so the
  // last step ends up in "temp" and the one before it in "temp_out".
  std::vector<float> prev = ctx.input<float>("temp_out");
  for (int s = 0; s < steps; ++s) {
    std::vector<float> next = hotspot_step(temp, power, rows, cols);
    prev = std::move(temp);
    temp = std::move(next);
  }
  ctx.expect("temp", temp);
  ctx.expect("temp_out", prev);
}
