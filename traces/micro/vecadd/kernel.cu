// Vector add: c[i] = a[i] + b[i], one element per thread. The smallest verified workload and
// the default of the README's main command.
extern "C" __global__ void vecadd(const float* a, const float* b, float* c, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}
