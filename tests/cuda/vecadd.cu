// Vector add as a whole program: the kernel of traces/micro/vecadd (the same source, so a run of
// this program and `gputlm run --workload traces/micro/vecadd` simulate the same PTX), host
// buffers, copies, a <<<>>> launch and a check of every element. Usage: vecadd [n] (default 4096).
#include <vector>

#include "../../traces/micro/vecadd/kernel.cu"
#include "cuda_check.h"

int main(int argc, char** argv) {
  const unsigned n = argc > 1 ? static_cast<unsigned>(std::atoi(argv[1])) : 4096;
  std::vector<float> a(n), b(n), c(n);
  for (unsigned i = 0; i < n; ++i) {
    a[i] = 0.5f * static_cast<float>(i);
    b[i] = 1000.0f - static_cast<float>(i % 97);
  }
  float *da, *db, *dc;
  CUDA_CHECK(cudaMalloc(&da, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&db, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&dc, n * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(da, a.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(db, b.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  vecadd<<<(n + 255) / 256, 256>>>(da, db, dc, n);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());
  CUDA_CHECK(cudaMemcpy(c.data(), dc, n * sizeof(float), cudaMemcpyDeviceToHost));
  unsigned bad = 0;
  for (unsigned i = 0; i < n; ++i) bad += c[i] != a[i] + b[i];
  CUDA_CHECK(cudaFree(da));
  CUDA_CHECK(cudaFree(db));
  CUDA_CHECK(cudaFree(dc));
  std::printf("vecadd: %s (n=%u)\n", bad ? "FAILED" : "PASSED", n);
  return bad ? 1 : 0;
}
