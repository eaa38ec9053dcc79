// SVM classification with a radial-basis-function kernel, one test vector per thread:
//   score[i] = bias + sum over support vectors j of alpha[j] * exp(-gamma * |x_i - sv_j|^2).
// The test vectors are stored feature-major (x[k * m + i] is feature k of vector i), so at every
// step the 32 lanes of a warp read 32 consecutive floats; the support vectors (sv[j * dim + k])
// and their weights are the same address for the whole warp (a broadcast). Every load of the
// long dot-product loops is therefore one line per warp: the kernel is coalesced throughout.
// expf is the accurate library version.
extern "C" __global__ void svm(const float* x, const float* sv, const float* alpha, float* score, unsigned m,
                               unsigned dim, unsigned nsv, float gamma, float bias) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= m) return;
  float f = bias;
  for (unsigned j = 0; j < nsv; ++j) {
    const float* s = sv + j * dim;
    float d2 = 0.0f;
    for (unsigned k = 0; k < dim; ++k) {
      const float diff = x[k * m + i] - s[k];
      d2 = __fmaf_rn(diff, diff, d2);
    }
    f = __fmaf_rn(alpha[j], expf(-gamma * d2), f);
  }
  score[i] = f;
}
