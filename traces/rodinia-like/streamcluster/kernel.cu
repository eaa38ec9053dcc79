// Streamcluster (Rodinia-like), the cost evaluation of one candidate centre inside pgain. Points
// have `dim` float coordinates stored dimension-major (coordinate c of point p at c * num + p, so
// a warp's loads are contiguous), a weight, the cost of serving it from its current centre and
// that centre's point index (assign). center_table maps a centre's point index to its number
// 0..k-1. Each thread takes one point p: it computes the weighted squared distance x_cost from p
// to the candidate point x (a loop over the dimensions). If opening x would serve p more cheaply,
// it sets p's switch flag and adds the saving cost - x_cost to slot k of p's row of the work array
// (k + 1 floats per point); otherwise it adds cost - x_cost (not positive: what closing p's
// current centre would cost) to the slot of its current centre. Threads past num do nothing.
extern "C" __global__ void compute_cost(const float* coord, const float* weight, const float* cost,
                                        const int* assign, const int* center_table,
                                        unsigned char* switch_flag, float* work, unsigned num,
                                        unsigned dim, unsigned k, unsigned x) {
  const unsigned p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p < num) {
    float d = 0.0f;
    for (unsigned c = 0; c < dim; ++c) {
      const float diff = coord[c * num + p] - coord[c * num + x];
      d += diff * diff;
    }
    const float x_cost = d * weight[p];
    const float cur = cost[p];
    float* row = work + (size_t)p * (k + 1);
    if (x_cost < cur) {
      switch_flag[p] = 1;
      row[k] += cur - x_cost;
    } else {
      row[center_table[assign[p]]] += cur - x_cost;
    }
  }
}
