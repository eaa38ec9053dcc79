// nvcc-flags: -jtd 0
// A trace fixture (tests/system/test_trace_replay.cpp): per element, six rounds of a switch that
// nvcc -jtd 0 compiles to a jump table (brx.idx) and a call through a table of function pointers,
// so a warp's lanes take different targets at both; the trace records each lane's target.
typedef unsigned (*Step)(unsigned);
__device__ __noinline__ unsigned inc(unsigned v) { return v + 0x9e3779b9u; }
__device__ __noinline__ unsigned dbl(unsigned v) { return v * 2654435761u; }
__device__ __noinline__ unsigned flip(unsigned v) { return ~v ^ (v >> 7); }
__device__ Step steps[3] = {inc, dbl, flip};

extern "C" __global__ void jump_table(const unsigned* data, unsigned* out, unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned v = data[i];
#pragma unroll 1
  for (int k = 0; k < 6; ++k) {
    switch ((v >> 3) & 7) {
      case 0: v += 11; break;
      case 1: v ^= 0x5a5a5a5au; break;
      case 2: v = (v << 5) | (v >> 27); break;
      case 3: v *= 3; break;
      case 4: v -= 0x1234u; break;
      case 5: v = v * v + 1; break;
      case 6: v >>= 1; break;
      default: v = ~v; break;
    }
    v = steps[v % 3](v);
  }
  out[i] = v;
}
