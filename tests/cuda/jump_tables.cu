// Switch statements compiled to jump tables (nvcc -jump-table-density, "-jtd": PTX brx.idx with a
// .branchtargets list, PTX ISA 9.7.12.4): each thread runs a small stack-machine program of its
// own through an interpreter loop whose opcode switch is one jump table, so a warp's lanes take
// different targets at every step; a non-inlined device function holds a second table. The host
// runs the same programs and checks every thread's result.
#include <cstdio>
#include <vector>

#include "cuda_check.h"

enum Op : unsigned char { Push, Add, Sub, Mul, Xor, Dup, Swap, Shl, Neg, Mix, Halt };
constexpr int kProgram = 24, kStack = 8;

__host__ __device__ __noinline__ unsigned mix(unsigned v, unsigned k) {
  switch (k & 7) {  // a second table, in a device function
    case 0:
      return v * 7 + 1;
    case 1:
      return v ^ 0x5a5a;
    case 2:
      return v + (v >> 3);
    case 3:
      return v - 12345;
    case 4:
      return ~v;
    case 5:
      return v * v;
    case 6:
      return v << 1;
    default:
      return 17;
  }
}

__host__ __device__ unsigned run(const unsigned char* code,
                                 unsigned seed) {  // unsigned: wrapping, as on the GPU
  unsigned stack[kStack];
  for (int i = 0; i < kStack; ++i) stack[i] = seed + i;
  int sp = 1;
  for (int pc = 0; pc < kProgram; ++pc) {
    const unsigned char op = code[pc];
    const unsigned a = stack[(sp + kStack - 1) % kStack], b = stack[(sp + kStack - 2) % kStack];
    switch (op) {
      case Push:
        stack[sp++ % kStack] = code[++pc];
        break;
      case Add:
        stack[(sp + kStack - 2) % kStack] = a + b;
        --sp;
        break;
      case Sub:
        stack[(sp + kStack - 2) % kStack] = b - a;
        --sp;
        break;
      case Mul:
        stack[(sp + kStack - 2) % kStack] = a * b;
        --sp;
        break;
      case Xor:
        stack[(sp + kStack - 2) % kStack] = a ^ b;
        --sp;
        break;
      case Dup:
        stack[sp++ % kStack] = a;
        break;
      case Swap:
        stack[(sp + kStack - 1) % kStack] = b;
        stack[(sp + kStack - 2) % kStack] = a;
        break;
      case Shl:
        stack[(sp + kStack - 1) % kStack] = a << (b & 7);
        break;
      case Neg:
        stack[(sp + kStack - 1) % kStack] = -a;
        break;
      case Mix:
        stack[(sp + kStack - 1) % kStack] = mix(a, b);
        break;
      default:
        pc = kProgram;
        break;  // Halt
    }
    if (sp < 1) sp = 1;
    sp %= kStack * 4;
  }
  return stack[(sp + kStack - 1) % kStack];
}

__global__ void interpret(const unsigned char* programs, unsigned* out, int n) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) out[t] = run(programs + (t % 61) * kProgram, t);
}

int main() {
  const int programs = 61, n = 4 * 96;
  std::vector<unsigned char> code(programs * kProgram);
  unsigned state = 12345;
  for (auto& c : code) {
    state = state * 1103515245u + 12345u;
    c = static_cast<unsigned char>((state >> 16) % (Halt + 1));
  }
  for (int p = 0; p < programs; ++p) code[p * kProgram + kProgram - 1] = Halt;
  unsigned char* d_code;
  unsigned* d_out;
  CUDA_CHECK(cudaMalloc(&d_code, code.size()));
  CUDA_CHECK(cudaMalloc(&d_out, n * sizeof(unsigned)));
  CUDA_CHECK(cudaMemcpy(d_code, code.data(), code.size(), cudaMemcpyHostToDevice));
  interpret<<<4, 96>>>(d_code, d_out, n);
  CUDA_CHECK(cudaGetLastError());
  std::vector<unsigned> got(n);
  CUDA_CHECK(cudaMemcpy(got.data(), d_out, n * sizeof(unsigned), cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int t = 0; t < n; ++t) {
    const unsigned want = run(code.data() + (t % programs) * kProgram, t);
    if (got[t] != want && bad++ < 5)
      printf("jump_tables: thread %d: %u, want %u\n", t, got[t], want);
  }
  CUDA_CHECK(cudaFree(d_code));
  CUDA_CHECK(cudaFree(d_out));
  printf("jump_tables: %s\n", bad ? "FAILED" : "PASSED");
  return bad ? 1 : 0;
}
