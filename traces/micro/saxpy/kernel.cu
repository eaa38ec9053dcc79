// SAXPY: y[i] = a * x[i] + y[i] with a float scalar parameter. Grid-stride loop, so any grid
// covers any n; the last pass of the loop is partly idle when n is not a multiple of the grid.
extern "C" __global__ void saxpy(const float* x, float* y, float a, unsigned n) {
  unsigned stride = gridDim.x * blockDim.x;
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) y[i] = a * x[i] + y[i];
}
