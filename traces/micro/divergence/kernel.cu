// Divergence micro-benchmark: every element takes one of four paths of a two-level data-dependent
// if/else (different work on each path), then runs a loop whose trip count (0..63) comes from an
// input array, with a data-dependent branch inside the loop. out[i] depends on the path and on
// every loop iteration. Grid-stride over the elements, so the grid comes from launch.json.

__device__ __forceinline__ unsigned mix(unsigned h) {  // integer hash (lowbias32)
  h ^= h >> 16;
  h *= 0x7feb352du;
  h ^= h >> 15;
  h *= 0x846ca68bu;
  h ^= h >> 16;
  return h;
}

extern "C" __global__ void divergence(const unsigned* data, const unsigned* trips, unsigned* out,
                                      unsigned n) {
  unsigned stride = gridDim.x * blockDim.x;
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    unsigned v = data[i];
    unsigned acc;
    if (v & 1u) {
      if (v & 2u) {  // path A: hash twice
        acc = mix(mix(v) + 0x9e3779b9u);
      } else {  // path B: division and remainder by data-dependent divisors (div/rem.u32)
        unsigned d = ((v >> 8) & 15u) + 3u;
        unsigned q = v / d, r = v % d;
        acc = (q * 13u + r * 101u + q / (r + 1u)) ^ (v >> 5);
      }
    } else {
      if ((v & 12u) == 0u) {  // path C (a quarter of the even values): multiply-accumulate chain
        acc = v;
        acc = acc * 2654435761u + 17u;
        acc = acc * 2246822519u + (acc >> 13);
        acc = acc * 3266489917u + (acc >> 7);
      } else {  // path D: shifts and rotates
        acc = (v << 7) | (v >> 25);
        acc ^= (acc >> 11) + 0x5bd1e995u;
        acc = (acc << 3) - v;
      }
    }
    unsigned t = trips[i] & 63u;
#pragma unroll 1  // keep one plain loop: its trip count is what diverges
    for (unsigned k = 0; k < t; ++k) {
      if ((acc ^ k) & 4u) acc = acc * 1664525u + 1013904223u;  // LCG step
      else acc = mix(acc + k);                                  // heavier hash step
    }
    out[i] = acc;
  }
}
