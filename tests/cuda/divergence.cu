// The divergence micro-benchmark of traces/micro/divergence (the same kernel) as a whole program:
// data-dependent branches (four paths) and a data-dependent loop of 0..63 trips per element,
// grid-stride over n elements in `ctas` CTAs of 256 threads, every output checked against a host
// computation written out again here. The inputs are those `gputlm run --workload
// traces/micro/divergence` generates (its launch.json: seed 1, "uniform" data and trips, made by
// splitmix64 seeded with seed ^ FNV-1a(buffer name), an integer drawn as next % span), so at the
// workload's sizes the program and the workload simulate the same kernel on the same data.
// Usage: divergence [n] [ctas] (default 1000 2, the workload's test size).
#include <cstdint>
#include <vector>

#include "../../traces/micro/divergence/kernel.cu"
#include "cuda_check.h"
#include "workload_rng.h"

namespace {

uint32_t hash32(uint32_t h) {  // lowbias32
  h ^= h >> 16;
  h *= 0x7feb352du;
  h ^= h >> 15;
  h *= 0x846ca68bu;
  h ^= h >> 16;
  return h;
}

// One element on the host: the four paths, then the loop.
uint32_t expected(uint32_t v, uint32_t trips) {
  uint32_t acc;
  const bool odd = v & 1u, bit1 = v & 2u, low_even = (v & 12u) == 0u;
  if (odd && bit1) {
    acc = hash32(hash32(v) + 0x9e3779b9u);
  } else if (odd) {
    const uint32_t d = ((v >> 8) & 15u) + 3u, q = v / d, r = v % d;
    acc = (q * 13u + r * 101u + q / (r + 1u)) ^ (v >> 5);
  } else if (low_even) {
    acc = v * 2654435761u + 17u;
    acc = acc * 2246822519u + (acc >> 13);
    acc = acc * 3266489917u + (acc >> 7);
  } else {
    const uint32_t rot = (v << 7) | (v >> 25);
    acc = ((rot ^ ((rot >> 11) + 0x5bd1e995u)) << 3) - v;
  }
  for (uint32_t k = 0, t = trips & 63u; k < t; ++k)
    acc = ((acc ^ k) & 4u) ? acc * 1664525u + 1013904223u : hash32(acc + k);
  return acc;
}

}  // namespace

int main(int argc, char** argv) {
  const unsigned n = argc > 1 ? static_cast<unsigned>(std::atoi(argv[1])) : 1000;
  const unsigned ctas = argc > 2 ? static_cast<unsigned>(std::atoi(argv[2])) : 2;
  std::vector<unsigned> data(n), trips(n), out(n);
  Splitmix64 data_rng(1, "data"), trips_rng(1, "trips");
  for (unsigned i = 0; i < n; ++i)
    data[i] = static_cast<unsigned>(data_rng.next() % (uint64_t{1} << 32));
  for (unsigned i = 0; i < n; ++i) trips[i] = static_cast<unsigned>(trips_rng.next() % 64u);
  unsigned *ddata, *dtrips, *dout;
  CUDA_CHECK(cudaMalloc(&ddata, n * sizeof(unsigned)));
  CUDA_CHECK(cudaMalloc(&dtrips, n * sizeof(unsigned)));
  CUDA_CHECK(cudaMalloc(&dout, n * sizeof(unsigned)));
  CUDA_CHECK(cudaMemcpy(ddata, data.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(dtrips, trips.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice));
  divergence<<<ctas, 256>>>(ddata, dtrips, dout, n);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaMemcpy(out.data(), dout, n * sizeof(unsigned), cudaMemcpyDeviceToHost));
  unsigned bad = 0, paths[4] = {0, 0, 0, 0}, total_trips = 0;
  for (unsigned i = 0; i < n; ++i) {
    bad += out[i] != expected(data[i], trips[i]);
    paths[(data[i] & 1u) ? ((data[i] & 2u) ? 0 : 1) : ((data[i] & 12u) == 0u ? 2 : 3)]++;
    total_trips += trips[i] & 63u;
  }
  CUDA_CHECK(cudaFree(ddata));
  CUDA_CHECK(cudaFree(dtrips));
  CUDA_CHECK(cudaFree(dout));
  std::printf("divergence: %s (n=%u, ctas=%u, paths %u/%u/%u/%u, %u loop trips)\n",
              bad ? "FAILED" : "PASSED", n, ctas, paths[0], paths[1], paths[2], paths[3],
              total_trips);
  return bad ? 1 : 0;
}
