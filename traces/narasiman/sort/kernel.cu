// Parallel bucket sort of u32 keys (Narasiman et al., MICRO 2011, "1M random integers"), four
// launches over the same buffers:
//   sort_count   : key -> bucket umulhi(key, nb) (order preserving); rank[i] = atomicAdd on the
//                  bucket's count (the rank inside the bucket depends on the atomics' order)
//   sort_scan    : one CTA of 256 threads: start[b] = exclusive prefix sum of count[]
//   sort_scatter : out[start[b] + rank[i]] = key
//   sort_buckets : one thread per bucket (grid-stride) insertion-sorts its bucket in place in out[]
// Bucket sizes vary per thread (Poisson) and the insertion sort's inner loop stops at a
// data-dependent point, so phase 4 has strong loop divergence. out[] ends fully sorted, so the
// result does not depend on the order of the atomics.
#define SCAN_BLOCK 256

__device__ __forceinline__ unsigned bucket_of(unsigned key, unsigned nb) { return __umulhi(key, nb); }

extern "C" __global__ void sort_count(const unsigned* keys, unsigned* count, unsigned* rank,
                                      unsigned n, unsigned nb) {
  unsigned stride = gridDim.x * blockDim.x;
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
    rank[i] = atomicAdd(&count[bucket_of(keys[i], nb)], 1u);
}

// Launched as one CTA of SCAN_BLOCK threads; each thread scans a chunk of consecutive buckets.
extern "C" __global__ void sort_scan(const unsigned* count, unsigned* start, unsigned nb) {
  __shared__ unsigned part[SCAN_BLOCK];
  unsigned tid = threadIdx.x;
  unsigned chunk = (nb + SCAN_BLOCK - 1) / SCAN_BLOCK;
  unsigned lo = min(tid * chunk, nb), hi = min(lo + chunk, nb);
  unsigned sum = 0;
  for (unsigned b = lo; b < hi; ++b) sum += count[b];
  part[tid] = sum;
  __syncthreads();
  for (unsigned off = 1; off < SCAN_BLOCK; off <<= 1) {  // Hillis-Steele inclusive scan
    unsigned v = tid >= off ? part[tid - off] : 0u;
    __syncthreads();
    part[tid] += v;
    __syncthreads();
  }
  unsigned run = part[tid] - sum;  // exclusive prefix of this chunk
  for (unsigned b = lo; b < hi; ++b) {
    start[b] = run;
    run += count[b];
  }
}

extern "C" __global__ void sort_scatter(const unsigned* keys, const unsigned* rank,
                                        const unsigned* start, unsigned* out, unsigned n,
                                        unsigned nb) {
  unsigned stride = gridDim.x * blockDim.x;
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    unsigned key = keys[i];
    out[start[bucket_of(key, nb)] + rank[i]] = key;
  }
}

extern "C" __global__ void sort_buckets(const unsigned* start, const unsigned* count,
                                        unsigned* out, unsigned nb) {
  unsigned stride = gridDim.x * blockDim.x;
  for (unsigned b = blockIdx.x * blockDim.x + threadIdx.x; b < nb; b += stride) {
    unsigned* a = out + start[b];
    unsigned m = count[b];
#pragma unroll 1
    for (unsigned j = 1; j < m; ++j) {
      unsigned key = a[j];
      unsigned k = j;
      while (k > 0 && a[k - 1] > key) {
        a[k] = a[k - 1];
        --k;
      }
      a[k] = key;
    }
  }
}
