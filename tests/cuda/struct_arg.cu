// A kernel taking a struct by value (mixed 4- and 8-byte members, a pointer among them): the
// runtime lays each argument out as the PTX .param list says.
#include <vector>

#include "cuda_check.h"

struct Affine {
  float scale;
  int offset;
  double bias;
  float* out;
  unsigned n;
};

__global__ void affine(Affine p, short extra) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < p.n)
    p.out[i] = p.scale * static_cast<float>(i) + static_cast<float>(p.offset + extra) +
               static_cast<float>(p.bias);
}

int main() {
  const unsigned n = 1000;
  float* dout;
  CUDA_CHECK(cudaMalloc(&dout, n * sizeof(float)));
  const Affine p{0.25f, -7, 0.5, dout, n};
  affine<<<(n + 127) / 128, 128>>>(p, 3);
  CUDA_CHECK(cudaGetLastError());
  std::vector<float> out(n);
  CUDA_CHECK(cudaMemcpy(out.data(), dout, n * sizeof(float), cudaMemcpyDeviceToHost));
  unsigned bad = 0;
  for (unsigned i = 0; i < n; ++i)
    bad += out[i] != 0.25f * static_cast<float>(i) + static_cast<float>(-7 + 3) + 0.5f;
  std::printf("struct_arg: %s (n=%u, struct of %zu bytes)\n", bad ? "FAILED" : "PASSED", n,
              sizeof(Affine));
  return bad ? 1 : 0;
}
