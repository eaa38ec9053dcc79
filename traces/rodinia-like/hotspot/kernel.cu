// HotSpot (Rodinia-like), the tiled "pyramid" kernel: several time steps of the 5-point chip
// temperature update per launch, each CTA working in shared memory.
//
// A CTA of TILE x TILE threads loads a TILE x TILE window of temperature and power (the cells
// that lie on the chip) into shared memory. The window overlaps its neighbours by `ph` cells on
// each side (the halo), so that after ph time steps inside the CTA the inner
// (TILE - 2 ph) x (TILE - 2 ph) cells are still exact. Step `it` (0-based) updates the cells at
// least it + 1 away from the window border that are on the chip; a neighbour off the chip is
// replaced by the cell itself (the rows/columns are clamped to the chip's extent in the window).
// Between steps __syncthreads() separates reading the old values from copying the new ones back.
// Finally the inner cells write their result to temp_dst. The host launches the kernel
// total_steps / ph times, swapping temp_src and temp_dst in between.
//
// The physical constants are Rodinia's HotSpot constants (../../common/hotspot_chip.h, shared with
// the CPU reference), the coefficients derived from rows/cols in the kernel.
#define TILE 16
#include "../../common/hotspot_chip.h"

extern "C" __global__ void hotspot_kernel(const float* power, const float* temp_src,
                                          float* temp_dst, int rows, int cols, int ph) {
  __shared__ float t_old[TILE][TILE];
  __shared__ float t_new[TILE][TILE];
  __shared__ float pw[TILE][TILE];

  const HotspotCoefficients k = hotspot_coefficients((float)rows, (float)cols);
  const float dt_over_cap = k.step_div_cap, inv_rx = k.rx_1, inv_ry = k.ry_1, inv_rz = k.rz_1;

  const int tx = threadIdx.x, ty = threadIdx.y;
  const int inner = TILE - 2 * ph;
  const int top = inner * (int)blockIdx.y - ph;   // chip row of window row 0
  const int left = inner * (int)blockIdx.x - ph;  // chip column of window column 0
  const int gy = top + ty, gx = left + tx;
  const int g = gy * cols + gx;

  if (gy >= 0 && gy < rows && gx >= 0 && gx < cols) {
    t_old[ty][tx] = temp_src[g];
    pw[ty][tx] = power[g];
  }
  __syncthreads();

  // The window rows/columns that lie on the chip.
  const int ymin = top < 0 ? -top : 0;
  const int ymax = top + TILE > rows ? rows - 1 - top : TILE - 1;
  const int xmin = left < 0 ? -left : 0;
  const int xmax = left + TILE > cols ? cols - 1 - left : TILE - 1;
  // Neighbours, clamped to the chip.
  const int yn = ty - 1 < ymin ? ymin : ty - 1;
  const int ys = ty + 1 > ymax ? ymax : ty + 1;
  const int xw = tx - 1 < xmin ? xmin : tx - 1;
  const int xe = tx + 1 > xmax ? xmax : tx + 1;

  bool updated = false;
  for (int it = 0; it < ph; ++it) {
    updated = false;
    if (tx >= it + 1 && tx <= TILE - 2 - it && ty >= it + 1 && ty <= TILE - 2 - it &&
        tx >= xmin && tx <= xmax && ty >= ymin && ty <= ymax) {
      updated = true;
      const float t = t_old[ty][tx];
      t_new[ty][tx] = t + dt_over_cap * (pw[ty][tx] + (t_old[ys][tx] + t_old[yn][tx] - 2.0f * t) * inv_ry +
                                         (t_old[ty][xe] + t_old[ty][xw] - 2.0f * t) * inv_rx +
                                         (AMB_TEMP - t) * inv_rz);
    }
    __syncthreads();
    if (it == ph - 1) break;
    if (updated) t_old[ty][tx] = t_new[ty][tx];
    __syncthreads();
  }
  if (updated) temp_dst[g] = t_new[ty][tx];
}
