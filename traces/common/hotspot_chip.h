// Rodinia HotSpot's chip constants and the coefficients of its 5-point temperature update, shared
// by the HotSpot workloads' kernels (CUDA) and CPU references (host C++):
//   out = t + step/Cap * (power + (tS + tN - 2t) / Ry + (tE + tW - 2t) / Rx + (amb - t) / Rz)
// on a rows x cols grid of a 16 x 16 mm chip.
#pragma once

#ifdef __CUDACC__
#define HOTSPOT_FN __host__ __device__ __forceinline__
#else
#define HOTSPOT_FN inline
#endif

#define MAX_PD 3.0e6f
#define PRECISION 0.001f
#define SPEC_HEAT_SI 1.75e6f
#define K_SI 100.0f
#define FACTOR_CHIP 0.5f
#define T_CHIP 0.0005f
#define CHIP_HEIGHT 0.016f
#define CHIP_WIDTH 0.016f
#define AMB_TEMP 80.0f

struct HotspotCoefficients {
  float step_div_cap;      // step / Cap
  float rx_1, ry_1, rz_1;  // 1 / Rx, 1 / Ry, 1 / Rz
};

// `rows` and `cols` as floats (the caller converts from its integer type).
HOTSPOT_FN HotspotCoefficients hotspot_coefficients(float rows, float cols) {
  const float grid_height = CHIP_HEIGHT / rows;
  const float grid_width = CHIP_WIDTH / cols;
  const float cap = FACTOR_CHIP * SPEC_HEAT_SI * T_CHIP * grid_width * grid_height;
  const float rx = grid_width / (2.0f * K_SI * T_CHIP * grid_height);
  const float ry = grid_height / (2.0f * K_SI * T_CHIP * grid_width);
  const float rz = T_CHIP / (K_SI * grid_height * grid_width);
  const float max_slope = MAX_PD / (FACTOR_CHIP * T_CHIP * SPEC_HEAT_SI);
  const float step = PRECISION / max_slope;
  return {step / cap, 1.0f / rx, 1.0f / ry, 1.0f / rz};
}
