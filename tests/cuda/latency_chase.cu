// Load-to-use latencies by pointer chasing, as the microbenchmark studies measure them (Jia et al.,
// "Dissecting the NVIDIA Volta GPU Architecture via Microbenchmarking", 2018, Sec. 3): one thread
// follows a chain of addresses, each load's address the previous load's value (inline PTX, so no
// arithmetic comes between), and clock64() brackets the chain: a step costs one load's latency.
// Four chains: shared memory; global memory that hits in the L1 (a 4 KB chain read once before);
// global memory read with ld.global.cg that hits in the L2 (a 256 KB chain, read once before,
// bypassing the L1); global memory that misses in the L2 (a chain over 64 MB at a 4 KB stride,
// read for the first time). Prints the cycles a step of each and checks their order. Each chain
// runs in a function of its own (not inlined), and the whole sequence runs twice, the second
// round's cycles kept, so that no timed step waits on an instruction-cache miss: not the chain's
// first pass (a miss goes to the L2 through the crossbar: hopper-h200's L1 figure moved 41.3 ->
// 39.4 cycles when the crossbar's queues changed) nor the code around the timed call (cold on
// the first round: it added 1.3-2.8 cycles to each L1 step, and more with a slower DRAM). The
// second round's L2-miss chain goes on from where the first stopped, over lines not read yet.
#include <cstdint>
#include <cstdio>
#include <vector>

#include "cuda_check.h"

static const char* kProgram = "latency_chase";
constexpr int kSteps = 256;

// One step: the next address is the value loaded (no arithmetic between the loads).
__device__ uint64_t step_global(uint64_t p, bool cg) {
  if (cg)
    asm volatile("ld.global.cg.u64 %0, [%0];" : "+l"(p));
  else
    asm volatile("ld.global.u64 %0, [%0];" : "+l"(p));
  return p;
}

__device__ __noinline__ uint64_t chase_global(uint64_t p, int steps, bool cg) {
#pragma unroll 16
  for (int s = 0; s < steps; ++s) p = step_global(p, cg);
  return p;
}

__device__ __noinline__ unsigned chase_shared(unsigned a, int steps) {
#pragma unroll 16
  for (int s = 0; s < steps; ++s) asm volatile("ld.shared.u32 %0, [%0];" : "+r"(a));
  return a;
}

// out[0..3]: cycles of kSteps steps for shared, L1, L2, DRAM; out[4]: the addresses reached (so
// that no chain is optimised away).
__global__ void chase(uint64_t small, uint64_t medium, uint64_t large, long long* out) {
  __shared__ unsigned ring[1024];  // each word the shared address of the word 33 words on
  for (int i = 0; i < 1024; ++i)
    ring[i] = static_cast<unsigned>(__cvta_generic_to_shared(&ring[(i + 33) % 1024]));
  unsigned a = static_cast<unsigned>(__cvta_generic_to_shared(&ring[0]));
  uint64_t sink = 0, p = 0, far = large;
#pragma unroll 1
  for (int round = 0; round < 2; ++round) {
    a = chase_shared(a, kSteps);
    long long t = clock64();
    a = chase_shared(a, kSteps);
    out[0] = clock64() - t;
    p = chase_global(small, 32, false);  // warm the L1 (and the L2): the whole chain
    t = clock64();
    p = chase_global(p, kSteps, false);
    out[1] = clock64() - t;
    sink += p;
    p = chase_global(medium, 2048, true);  // warm the L2 only
    t = clock64();
    p = chase_global(p, kSteps, true);
    out[2] = clock64() - t;
    sink += p;
    t = clock64();
    far = chase_global(far, kSteps, true);
    out[3] = clock64() - t;
  }
  sink += a;
  p = far;
  out[4] = static_cast<long long>(sink + p);
}

// A ring of `count` 8-byte slots `stride` bytes apart in a device buffer of `count * stride`
// bytes: each slot holds the device address of the next. Returns the first slot's address.
uint64_t device_ring(size_t count, size_t stride) {
  char* d = nullptr;
  CUDA_CHECK(cudaMalloc(&d, count * stride));
  std::vector<uint64_t> host(count * stride / sizeof(uint64_t), 0);
  const uint64_t base = reinterpret_cast<uint64_t>(d);
  for (size_t i = 0; i < count; ++i)
    host[i * stride / sizeof(uint64_t)] = base + ((i + 1) % count) * stride;
  CUDA_CHECK(cudaMemcpy(d, host.data(), count * stride, cudaMemcpyHostToDevice));
  return base;
}

int main() {
  // 32 lines of 128 B (4 KB, within any L1); 2048 lines (256 KB: beyond the L1, within the L2);
  // 16384 slots 4 KB apart (64 MB: beyond the L2; the head, copied first, left it as the rest
  // was copied), of which the first kSteps are read.
  const uint64_t small = device_ring(32, 128), medium = device_ring(2048, 128),
                 large = device_ring(16384, 4096);
  long long* out = nullptr;
  CUDA_CHECK(cudaMalloc(&out, 5 * sizeof(long long)));
  chase<<<1, 1>>>(small, medium, large, out);
  CUDA_CHECK(cudaGetLastError());
  long long cycles[5];
  CUDA_CHECK(cudaMemcpy(cycles, out, sizeof cycles, cudaMemcpyDeviceToHost));
  const char* names[4] = {"shared", "l1", "l2", "dram"};
  double step[4];
  for (int i = 0; i < 4; ++i) {
    step[i] = static_cast<double>(cycles[i]) / kSteps;
    std::printf("%s: %s %.1f cycles a load\n", kProgram, names[i], step[i]);
  }
  const bool ordered =
      step[0] > 0 && step[1] > 0 && step[0] < step[2] && step[1] < step[2] && step[2] < step[3];
  std::printf("%s: %s\n", kProgram, ordered ? "PASSED" : "FAILED (latencies out of order)");
  return ordered ? 0 : 1;
}
