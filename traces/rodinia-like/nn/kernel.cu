// Nearest neighbour (Rodinia-like "nn"), the distance step. The records are (latitude, longitude)
// pairs of floats stored one after the other; every thread takes one record and writes its
// Euclidean distance to the query point (qlat, qlng), which comes in as two scalar parameters.
// Threads past the last record do nothing (the grid is rounded up to whole CTAs). Picking the k
// smallest distances happens on the host afterwards and is not part of this workload.
extern "C" __global__ void euclid(const float* records, float* dist, unsigned nrecords, float qlat,
                                  float qlng) {
  const unsigned r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < nrecords) {
    const float dlat = records[2 * r] - qlat;
    const float dlng = records[2 * r + 1] - qlng;
    dist[r] = sqrtf(dlat * dlat + dlng * dlng);
  }
}
