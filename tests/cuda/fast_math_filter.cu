// A particle filter step in the style of Rodinia's particlefilter (float version), built with
// -use_fast_math: each particle moves by a Box-Muller normal draw from its own linear congruential
// generator (__logf, __cosf, sqrtf), is weighted by the likelihood of the pixels around it
// (__expf), and the weights are normalised by a block reduction; the host prints the estimate bit
// for bit. Rodinia seeds its generators with time(0), so two of its runs differ on any GPU; this
// program takes the seed as its argument, and the suite runs it timed and functional and expects
// the same bits from both, and from two functional runs. Usage: fast_math_filter [seed] (default
// 7).
#include <cstdlib>
#include <vector>

#include "cuda_check.h"

constexpr int kSide = 64, kParticles = 512, kFrames = 4;

__device__ float uniform(int* seed) {  // Numerical Recipes' LCG, as Rodinia's randu
  *seed = (1103515245 * *seed + 12345) & 0x7fffffff;
  return *seed / 2147483648.0f;
}

__global__ void move_and_weigh(float* x, float* y, float* w, int* seeds,
                               const unsigned char* frame) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= kParticles) return;
  const float r = sqrtf(-2.0f * __logf(uniform(&seeds[i]) + 1e-7f)),
              a = 6.2831853f * uniform(&seeds[i]);
  x[i] += 1.0f + 2.0f * r * __cosf(a);
  y[i] += -2.0f + 2.0f * r * __sinf(a);
  float likelihood = 0;
  for (int dy = -2; dy <= 2; ++dy)
    for (int dx = -2; dx <= 2; ++dx) {
      const int px = min(max(int(x[i]) + dx, 0), kSide - 1),
                py = min(max(int(y[i]) + dy, 0), kSide - 1);
      const float v = frame[py * kSide + px];
      likelihood += ((v - 100) * (v - 100) - (v - 228) * (v - 228)) / 50.0f;
    }
  w[i] *= __expf(likelihood / 1250.0f);
}

__global__ void normalise(float* w) {
  __shared__ float part[kParticles];
  part[threadIdx.x] = w[threadIdx.x];
  __syncthreads();
  for (int s = kParticles / 2; s > 0; s /= 2) {
    if (threadIdx.x < s) part[threadIdx.x] += part[threadIdx.x + s];
    __syncthreads();
  }
  w[threadIdx.x] = __fdividef(w[threadIdx.x], part[0]);
}

int main(int argc, char** argv) {
  const int seed = argc > 1 ? std::atoi(argv[1]) : 7;
  std::vector<float> x(kParticles, 32), y(kParticles, 32), w(kParticles, 1.0f / kParticles);
  std::vector<int> seeds(kParticles);
  for (int i = 0; i < kParticles; ++i) seeds[i] = seed * (i + 1);
  float *dx, *dy, *dw;
  int* dseeds;
  unsigned char* dframe;
  CUDA_CHECK(cudaMalloc(&dx, kParticles * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&dy, kParticles * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&dw, kParticles * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&dseeds, kParticles * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&dframe, kSide * kSide));
  CUDA_CHECK(cudaMemcpy(dx, x.data(), kParticles * sizeof(float), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(dy, y.data(), kParticles * sizeof(float), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(dw, w.data(), kParticles * sizeof(float), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(dseeds, seeds.data(), kParticles * sizeof(int), cudaMemcpyHostToDevice));
  std::vector<unsigned char> frame(kSide * kSide);
  float ox = 32, oy = 32;  // the object: a bright disc moving (+1, -2) a frame
  for (int f = 0; f < kFrames; ++f) {
    ox += 1, oy -= 2;
    for (int py = 0; py < kSide; ++py)
      for (int px = 0; px < kSide; ++px)
        frame[py * kSide + px] = (px - ox) * (px - ox) + (py - oy) * (py - oy) <= 25 ? 228 : 100;
    CUDA_CHECK(cudaMemcpy(dframe, frame.data(), frame.size(), cudaMemcpyHostToDevice));
    move_and_weigh<<<kParticles / 128, 128>>>(dx, dy, dw, dseeds, dframe);
    normalise<<<1, kParticles>>>(dw);
  }
  CUDA_CHECK(cudaMemcpy(x.data(), dx, kParticles * sizeof(float), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(y.data(), dy, kParticles * sizeof(float), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(w.data(), dw, kParticles * sizeof(float), cudaMemcpyDeviceToHost));
  float xe = 0, ye = 0, total = 0;
  for (int i = 0; i < kParticles; ++i) xe += x[i] * w[i], ye += y[i] * w[i], total += w[i];
  const bool ok =
      total > 0.99f && total < 1.01f && (xe - ox) * (xe - ox) + (ye - oy) * (ye - oy) < 9;
  std::printf("fast_math_filter: estimate (%a, %a), object (%.0f, %.0f)\nfast_math_filter: %s\n",
              xe, ye, ox, oy, ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
