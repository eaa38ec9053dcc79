// HotSpot with the pyramid kernel of traces/rodinia-like/hotspot, written as Rodinia's host code
// is: the kernel launched steps / ph times, each launch running ph time steps in shared memory,
// the source and destination temperature buffers swapped between launches. The final temperatures
// (and the previous launch's, left in the other buffer) are checked against plain full-grid time
// steps on the host in double precision (neighbours clamped at the chip edge).
// Usage: hotspot [rows] [cols] [ph] [steps] (default 48 48 2 6: 4x4 CTAs, 3 launches; steps must
// be a multiple of ph).
#include <algorithm>
#include <cmath>
#include <vector>

#include "../../traces/rodinia-like/hotspot/kernel.cu"
#include "cuda_check.h"

namespace {

// One plain time step of Rodinia's update on the whole chip, in double.
std::vector<double> step(const std::vector<double>& t, const std::vector<float>& power, int rows,
                         int cols) {
  const HotspotCoefficients k =
      hotspot_coefficients(static_cast<float>(rows), static_cast<float>(cols));
  std::vector<double> out(t.size());
  for (int y = 0; y < rows; ++y)
    for (int x = 0; x < cols; ++x) {
      const double c = t[y * cols + x];
      const double n = t[std::max(y - 1, 0) * cols + x],
                   s = t[std::min(y + 1, rows - 1) * cols + x];
      const double w = t[y * cols + std::max(x - 1, 0)],
                   e = t[y * cols + std::min(x + 1, cols - 1)];
      out[y * cols + x] =
          c + double{k.step_div_cap} *
                  (power[y * cols + x] + (s + n - 2 * c) * double{k.ry_1} +
                   (e + w - 2 * c) * double{k.rx_1} + (AMB_TEMP - c) * double{k.rz_1});
    }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  const int rows = argc > 1 ? std::atoi(argv[1]) : 48, cols = argc > 2 ? std::atoi(argv[2]) : 48;
  const int ph = argc > 3 ? std::atoi(argv[3]) : 2, steps = argc > 4 ? std::atoi(argv[4]) : 6;
  if (ph < 1 || 2 * ph >= TILE || steps % ph != 0) {
    std::fprintf(stderr, "hotspot: ph must be 1..%d and steps a multiple of ph\n", (TILE - 1) / 2);
    return 2;
  }
  const size_t cells = static_cast<size_t>(rows) * cols;
  std::vector<float> power(cells), temp(cells);
  for (size_t i = 0; i < cells; ++i) {  // Rodinia's ranges: 320..345 K, power up to 0.01
    power[i] = 0.01f * static_cast<float>((i * 7919u) % 1000u) / 1000.0f;
    temp[i] = 320.0f + 25.0f * static_cast<float>((i * 104729u + 13u) % 997u) / 997.0f;
  }
  float *dpower, *dsrc, *ddst;
  CUDA_CHECK(cudaMalloc(&dpower, cells * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&dsrc, cells * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&ddst, cells * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(dpower, power.data(), cells * sizeof(float), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(dsrc, temp.data(), cells * sizeof(float), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemset(ddst, 0, cells * sizeof(float)));
  const int inner = TILE - 2 * ph;
  const dim3 grid((cols + inner - 1) / inner, (rows + inner - 1) / inner), block(TILE, TILE);
  const int launches = steps / ph;
  for (int l = 0; l < launches; ++l) {
    hotspot_kernel<<<grid, block>>>(dpower, dsrc, ddst, rows, cols, ph);
    CUDA_CHECK(cudaGetLastError());
    std::swap(dsrc, ddst);  // the result is the next launch's source
  }
  std::vector<float> result(cells), previous(cells);
  CUDA_CHECK(cudaMemcpy(result.data(), dsrc, cells * sizeof(float), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(previous.data(), ddst, cells * sizeof(float), cudaMemcpyDeviceToHost));

  std::vector<double> want(temp.begin(), temp.end()), want_previous = want;
  for (int s = 0; s < steps; ++s) {
    if (s == steps - ph) want_previous = want;
    want = step(want, power, rows, cols);
  }
  unsigned bad = 0;
  double worst = 0, total = 0;
  for (size_t i = 0; i < cells; ++i) {
    const double err = std::fabs(result[i] - want[i]);
    worst = std::max(worst, err);
    total += result[i];
    bad += !(err <= 1e-3);
    if (launches > 1) bad += !(std::fabs(previous[i] - want_previous[i]) <= 1e-3);
  }
  CUDA_CHECK(cudaFree(dpower));
  CUDA_CHECK(cudaFree(dsrc));
  CUDA_CHECK(cudaFree(ddst));
  std::printf(
      "hotspot: %s (%dx%d, ph %d, %d steps in %d launches, mean %.4f K, max error %.2g K)\n",
      bad ? "FAILED" : "PASSED", rows, cols, ph, steps, launches, total / cells, worst);
  return bad ? 1 : 0;
}
