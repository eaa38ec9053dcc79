// Full table scan SELECT row FROM t WHERE value < max_value (Narasiman dissertation section 6.2,
// Appendix A.1), in two versions that differ only in the conditional write (step 3):
//   scan_baseline: ballot, popc, a branch and a popc of the lanes before me (section 6.2.2.3)
//   scan_condacc:  the COND_ACC instruction (section 7.1) through inline PTX
// One CTA of 1024 threads (the dissertation's one core of 32 warps) strides over the column;
// each warp collects the matching row indices in its 1KB of scratchpad (256 entries, Table 8.1)
// and, past 224 of them, reserves 224 output slots with one atomicAdd and copies them out with
// whole-line writes (7 rounds of 32); the leftovers move to the front. At the end a warp writes
// its last multiple of 32, then (after a barrier, as the appendix) the rest.
#pragma once

#define SCAN_WARPS 32
#define SCAN_BUFFER 256
#define SCAN_FLUSH 224

// Row `k` passes (the predicate of step 2).
__device__ __forceinline__ bool scan_pass(const unsigned* __restrict__ column, unsigned k, unsigned max_value) {
  return column[k] < max_value;
}

// Steps 2 and 3 with COND_ACC: the lanes whose value is below max_value write k contiguously
// from `slot` (a shared address); returns how many did. The comparison is inside the asm so that
// it sets the predicate COND_ACC reads, as the WHERE predicate of the baseline feeds its ballot.
__device__ __forceinline__ unsigned scan_cond_acc(unsigned* slot, unsigned value, unsigned max_value, unsigned k) {
  unsigned total;
  const unsigned base = static_cast<unsigned>(__cvta_generic_to_shared(slot));
  asm volatile("{\n\t.reg .pred p;\n\tsetp.lt.u32 p, %2, %3;\n\tcond.acc.shared.u32 %0, [%1], p, %4;\n\t}"
               : "=r"(total)
               : "r"(base), "r"(value), "r"(max_value), "r"(k)
               : "memory");
  return total;
}

template <bool kCondAcc>
__device__ __forceinline__ void full_table_scan(const unsigned* __restrict__ column, unsigned* __restrict__ out,
                                                unsigned* __restrict__ out_count, unsigned rows, unsigned max_value) {
  __shared__ unsigned smem[SCAN_WARPS * SCAN_BUFFER];
  const unsigned tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  const unsigned lanes_before = (1u << lane) - 1;
  unsigned* buffer = &smem[warp * SCAN_BUFFER];
  unsigned found = 0;  // entries in the warp's buffer (the same in every lane)
  for (unsigned k = tid; k < rows; k += blockDim.x) {
    if (kCondAcc) {
      found += scan_cond_acc(&buffer[found], column[k], max_value, k);
    } else {
      const bool pass = scan_pass(column, k, max_value);
      unsigned bits = __ballot_sync(0xffffffffu, pass);
      const unsigned total = __popc(bits);
      if (pass) {
        bits &= lanes_before;
        buffer[found + __popc(bits)] = k;
      }
      found += total;
    }
    __syncwarp();
    if (found > SCAN_FLUSH) {
      unsigned at = 0;
      if (lane == 0) at = atomicAdd(out_count, SCAN_FLUSH);
      at = __shfl_sync(0xffffffffu, at, 0);
      for (unsigned j = lane; j < SCAN_FLUSH; j += 32) out[at + j] = buffer[j];
      __syncwarp();
      const unsigned leftover = found - SCAN_FLUSH;
      if (lane < leftover) buffer[lane] = buffer[SCAN_FLUSH + lane];
      __syncwarp();
      found = leftover;
    }
  }
  const unsigned full = found & ~31u;
  unsigned at = 0;
  if (lane == 0) at = atomicAdd(out_count, full);
  at = __shfl_sync(0xffffffffu, at, 0);
  unsigned j = lane;
  for (; j < full; j += 32) out[at + j] = buffer[j];
  __syncthreads();
  if (lane == 0) at = atomicAdd(out_count, found - full);
  at = __shfl_sync(0xffffffffu, at, 0);
  if (j < found) out[at + lane] = buffer[j];
}
