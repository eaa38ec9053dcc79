// Back-propagation (Rodinia-like "backprop"): the input -> hidden layer of a two-layer network with
// HID = 16 hidden units, trained on one input vector. Weights w are (n_in + 1) rows of HID + 1
// floats: row i belongs to input unit i (row 0 is the bias), column j to hidden unit j (column 0
// is unused). x holds n_in + 1 inputs (x[0] is the bias slot), delta HID + 1 hidden-unit errors.
//
// layerforward: a CTA of 16 x 16 threads per 16 input units (blockIdx.y). Threads with tx == 0
// load the CTA's 16 inputs into shared memory; every thread multiplies the weight from input
// (16 * by + ty + 1) to hidden unit (tx + 1) by that input; the 16 rows are added by a tree in
// shared memory (step k adds row ty + 2^(k-1) into row ty when ty is a multiple of 2^k), one
// __syncthreads per step; row 0 then holds the CTA's partial sum for each hidden unit.
//
// squash_hidden (the host's step in the original, a tiny kernel here): one thread per hidden unit
// adds the partial sums of all CTAs and the bias weight and applies the sigmoid.
//
// adjust_weights: the same grid; each thread updates one weight with learning rate eta and
// momentum, dw = eta * delta[j] * x[i] + momentum * oldw, w += dw, oldw = dw; after a barrier the
// threads of row 0 of the first CTA update the bias row the same way (bias input 1).
#define HID 16

extern "C" __global__ void layerforward(const float* x, const float* w, float* partial) {
  __shared__ float xs[16];
  __shared__ float prod[16][16];
  const unsigned tx = threadIdx.x, ty = threadIdx.y, by = blockIdx.y;
  const unsigned i = 16 * by + ty + 1;
  const unsigned j = tx + 1;
  if (tx == 0) xs[ty] = x[i];
  __syncthreads();
  prod[ty][tx] = w[i * (HID + 1) + j];
  __syncthreads();
  prod[ty][tx] = prod[ty][tx] * xs[ty];
  __syncthreads();
  for (unsigned k = 1; k <= 4; ++k) {
    const unsigned span = 1u << k;
    if (ty % span == 0) prod[ty][tx] = prod[ty][tx] + prod[ty + span / 2][tx];
    __syncthreads();
  }
  if (ty == 0) partial[by * HID + tx] = prod[0][tx];
}

extern "C" __global__ void squash_hidden(const float* w, const float* partial, float* hidden,
                                         unsigned nblocks) {
  const unsigned j = threadIdx.x + 1;
  float s = 0.0f;
  for (unsigned b = 0; b < nblocks; ++b) s += partial[b * HID + j - 1];
  s += w[j];
  hidden[j] = 1.0f / (1.0f + expf(-s));
}

extern "C" __global__ void adjust_weights(const float* delta, const float* x, float* w, float* oldw,
                                          float eta, float momentum) {
  const unsigned tx = threadIdx.x, ty = threadIdx.y, by = blockIdx.y;
  const unsigned i = 16 * by + ty + 1;
  const unsigned j = tx + 1;
  const unsigned idx = i * (HID + 1) + j;
  const float dw = eta * delta[j] * x[i] + momentum * oldw[idx];
  w[idx] += dw;
  oldw[idx] = dw;
  __syncthreads();
  if (ty == 0 && by == 0) {
    const float db = eta * delta[j] + momentum * oldw[j];
    w[j] += db;
    oldw[j] = db;
  }
}
