// The shared-memory reduction of traces/micro/shared_reduction (the same kernel) as a whole
// program: every CTA sums its grid-stride slice per thread, combines the 256 partial sums with a
// __syncthreads() tree in shared memory, and writes its sum; the host adds the CTA sums and checks
// each one and the total against its own sums. The inputs are those `gputlm run --workload
// traces/micro/shared_reduction` generates (seed 1, "uniform" 0..65535: splitmix64 seeded with
// seed ^ FNV-1a("in"), next % 65536), so at the workload's sizes both simulate the same run.
// Usage: shared_reduction [n] [ctas] (default 50000 2, the workload's test size).
#include <cstdint>
#include <vector>

#include "../../traces/micro/shared_reduction/kernel.cu"
#include "cuda_check.h"
#include "workload_rng.h"

int main(int argc, char** argv) {
  const unsigned n = argc > 1 ? static_cast<unsigned>(std::atoi(argv[1])) : 50000;
  const unsigned ctas = argc > 2 ? static_cast<unsigned>(std::atoi(argv[2])) : 2;
  std::vector<unsigned> in(n), out(ctas);
  Splitmix64 rng(1, "in");
  for (unsigned i = 0; i < n; ++i) in[i] = static_cast<unsigned>(rng.next() % 65536u);
  unsigned *din, *dout;
  CUDA_CHECK(cudaMalloc(&din, n * sizeof(unsigned)));
  CUDA_CHECK(cudaMalloc(&dout, ctas * sizeof(unsigned)));
  CUDA_CHECK(cudaMemcpy(din, in.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice));
  shared_reduction<<<ctas, BLOCK>>>(din, dout, n);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaMemcpy(out.data(), dout, ctas * sizeof(unsigned), cudaMemcpyDeviceToHost));
  // The host's sums: CTA b owns the 256-element chunks c with c % ctas == b.
  std::vector<uint64_t> want(ctas, 0);
  uint64_t total = 0, got_total = 0;
  for (unsigned i = 0; i < n; ++i) want[(i / BLOCK) % ctas] += in[i], total += in[i];
  unsigned bad = 0;
  for (unsigned b = 0; b < ctas; ++b)
    bad += out[b] != static_cast<unsigned>(want[b]), got_total += out[b];
  bad += got_total != total &&
         total < (uint64_t{1} << 32);  // no wrap at these sizes: the total is exact
  CUDA_CHECK(cudaFree(din));
  CUDA_CHECK(cudaFree(dout));
  std::printf("shared_reduction: %s (n=%u, ctas=%u, sum %llu)\n", bad ? "FAILED" : "PASSED", n,
              ctas, static_cast<unsigned long long>(got_total));
  return bad ? 1 : 0;
}
