// HotSpot (Rodinia): one explicit time step of the processor temperature simulation on a
// rows x cols grid. Every cell moves towards its four neighbours, the ambient temperature and its
// own power dissipation:
//   out = t + step/Cap * (power + (tS + tN - 2t) / Ry + (tE + tW - 2t) / Rx + (amb - t) / Rz)
// Neighbours outside the grid are clamped to the border cell (as Rodinia does at the chip edge),
// with min/max, so there is no divergent branch. One launch is one time step; launch.json repeats
// it and swaps temp/temp_out (ping-pong). Threads walk the flattened grid with a grid-stride loop,
// so any grid/block size works; the data set (temp, power, out) streams from DRAM each step.
//
// The chip constants are Rodinia's; they are derived from rows/cols here (not passed in) so that
// both sizes of launch.json use Rodinia's physics. The CPU reference repeats this computation.

#define MAX_PD 3.0e6f
#define PRECISION 0.001f
#define SPEC_HEAT_SI 1.75e6f
#define K_SI 100.0f
#define FACTOR_CHIP 0.5f
#define T_CHIP 0.0005f
#define CHIP_HEIGHT 0.016f
#define CHIP_WIDTH 0.016f
#define AMB_TEMP 80.0f

extern "C" __global__ void hotspot(const float* temp, const float* power, float* temp_out,
                                   unsigned rows, unsigned cols) {
  const float grid_height = CHIP_HEIGHT / (float)rows;
  const float grid_width = CHIP_WIDTH / (float)cols;
  const float cap = FACTOR_CHIP * SPEC_HEAT_SI * T_CHIP * grid_width * grid_height;
  const float rx = grid_width / (2.0f * K_SI * T_CHIP * grid_height);
  const float ry = grid_height / (2.0f * K_SI * T_CHIP * grid_width);
  const float rz = T_CHIP / (K_SI * grid_height * grid_width);
  const float max_slope = MAX_PD / (FACTOR_CHIP * T_CHIP * SPEC_HEAT_SI);
  const float step = PRECISION / max_slope;
  const float step_div_cap = step / cap;
  const float rx_1 = 1.0f / rx, ry_1 = 1.0f / ry, rz_1 = 1.0f / rz;

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
