// k-means (Rodinia-like), the feature transpose done once before clustering: the points arrive
// point-major (point p's features at in[p * nfeatures + f]) and the distance kernels want them
// feature-major (out[f * npoints + p]) so that neighbouring threads read neighbouring words.
//
// One thread per point; threads past the last point do nothing. Each thread walks its point's
// features: the loads stride by nfeatures words across a warp, the stores are coalesced.
// The loop is kept rolled (entry, loop, exit) as a straightforward GPU port writes it.
extern "C" __global__ void invert_mapping(const float* in, float* out, int npoints, int nfeatures) {
  const int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p < npoints) {
#pragma unroll 1
    for (int f = 0; f < nfeatures; ++f) out[f * npoints + p] = in[p * nfeatures + f];
  }
}
