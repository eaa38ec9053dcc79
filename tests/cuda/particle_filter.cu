// The Rodinia-like particle filter step of traces/rodinia-like/pf (the same kernels) as a whole
// program: weights made on the host, sum_weights then normalize_weights_kernel in one CTA, and
// the weights, their sum, the CDF and the u values checked against a host computation.
// Usage: particle_filter [n] (default 1000, Rodinia's particle count).
#include <cmath>
#include <vector>

#include "../../traces/rodinia-like/pf/kernel.cu"
#include "cuda_check.h"

static bool close(float got, double want, double rel) {
  return std::fabs(got - want) <= rel * std::fabs(want) + 1e-6;
}

int main(int argc, char** argv) {
  const unsigned n = argc > 1 ? static_cast<unsigned>(std::atoi(argv[1])) : 1000, threads = 512;
  std::vector<float> w(n), cdf(n), u(n);
  for (unsigned i = 0; i < n; ++i) w[i] = static_cast<float>((i * 37u) % 101u) / 101.0f + 0.01f;
  const float rand_u = 0.375f;
  float *dw, *dsum, *dcdf, *drand, *du;
  CUDA_CHECK(cudaMalloc(&dw, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&dsum, sizeof(float)));
  CUDA_CHECK(cudaMalloc(&dcdf, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&drand, sizeof(float)));
  CUDA_CHECK(cudaMalloc(&du, n * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(dw, w.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(drand, &rand_u, sizeof(float), cudaMemcpyHostToDevice));
  sum_weights<<<1, threads>>>(dw, dsum, n);
  normalize_weights_kernel<<<1, threads>>>(dw, dsum, dcdf, drand, du, n);
  CUDA_CHECK(cudaGetLastError());
  float sum = 0;
  std::vector<float> wn(n);
  CUDA_CHECK(cudaMemcpy(&sum, dsum, sizeof(float), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(wn.data(), dw, n * sizeof(float), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(cdf.data(), dcdf, n * sizeof(float), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(u.data(), du, n * sizeof(float), cudaMemcpyDeviceToHost));
  double total = 0;
  for (float x : w) total += x;
  unsigned bad = !close(sum, total, 1e-5);
  double running = 0;
  for (unsigned i = 0; i < n; ++i) {
    const double normalised = w[i] / static_cast<double>(sum);
    running += wn[i];
    bad += !close(wn[i], normalised, 1e-5) + !close(cdf[i], running, 1e-4) +
           !close(u[i], rand_u / n + static_cast<double>(i) / n, 1e-5);
  }
  std::printf("particle_filter: %s (n=%u, sum %.4f, cdf[n-1] %.5f)\n", bad ? "FAILED" : "PASSED", n,
              sum, cdf[n - 1]);
  return bad ? 1 : 0;
}
