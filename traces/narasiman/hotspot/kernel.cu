// HotSpot (Rodinia): one explicit time step of the processor temperature simulation on a
// rows x cols grid. Every cell moves towards its four neighbours, the ambient temperature and its
// own power dissipation:
//   out = t + step/Cap * (power + (tS + tN - 2t) / Ry + (tE + tW - 2t) / Rx + (amb - t) / Rz)
// Neighbours outside the grid are clamped to the border cell (as Rodinia does at the chip edge),
// with min/max, so there is no divergent branch. One launch is one time step; launch.json repeats
// it and swaps temp/temp_out (ping-pong). Threads walk the flattened grid with a grid-stride loop,
// so any grid/block size works; the data set (temp, power, out) streams from DRAM each step.
//
// The chip constants are Rodinia's (../../common/hotspot_chip.h, shared with the CPU reference);
// the coefficients are derived from rows/cols here (not passed in) so that both sizes of
// launch.json use Rodinia's physics.

#include "../../common/hotspot_chip.h"

extern "C" __global__ void hotspot(const float* temp, const float* power, float* temp_out,
                                   unsigned rows, unsigned cols) {
  const HotspotCoefficients k = hotspot_coefficients((float)rows, (float)cols);
  const float step_div_cap = k.step_div_cap, rx_1 = k.rx_1, ry_1 = k.ry_1, rz_1 = k.rz_1;

  const unsigned n = rows * cols;
  const unsigned stride = gridDim.x * blockDim.x;
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    const unsigned r = i / cols;
    const unsigned c = i - r * cols;
    const unsigned north = (r > 0 ? r - 1 : 0) * cols + c;
    const unsigned south = min(r + 1, rows - 1) * cols + c;
    const unsigned west = r * cols + (c > 0 ? c - 1 : 0);
    const unsigned east = r * cols + min(c + 1, cols - 1);
    const float t = temp[i];
    temp_out[i] = t + step_div_cap * (power[i] + (temp[south] + temp[north] - 2.0f * t) * ry_1 +
                                      (temp[east] + temp[west] - 2.0f * t) * rx_1 +
                                      (AMB_TEMP - t) * rz_1);
  }
}
