// lavaMD (Rodinia-like): pairwise particle interactions in a 3D grid of boxes.
//
// The space is boxes1d^3 unit boxes; box b holds NP particles, each four floats (x, y, z, q) in
// particles[(b * NP + p) * 4 ..]. nbr_count[b] boxes interact with box b: nbr_list[b * 27 + k],
// k < nbr_count[b], lists the box itself first and then its face, edge and corner neighbours that
// lie inside the grid (at most 26).
//
// One CTA of NP threads per home box, thread p owning home particle p. For each box of the list
// the CTA stages that box's NP particles in shared memory (__syncthreads before, so the previous
// box is no longer read, and after), then every thread runs over them:
//   d = home - other, r2 = a2 * |d|^2, u = exp(-r2), v = q_other * u, f = 2 a2 v,
//   potential += v, force += f * d.
// Finally thread p writes (potential, fx, fy, fz) of its particle to out.
#define NP 32
#define MAX_NBR 27

extern "C" __global__ void lavamd_kernel(const float* particles, const int* nbr_count,
                                         const int* nbr_list, float* out, float a2) {
  __shared__ float ox[NP], oy[NP], oz[NP], oq[NP];

  const int box = blockIdx.x;
  const int p = threadIdx.x;
  const int home = (box * NP + p) * 4;
  const float hx = particles[home + 0], hy = particles[home + 1], hz = particles[home + 2];
  const float two_a2 = 2.0f * a2;

  float pot = 0.0f, fx = 0.0f, fy = 0.0f, fz = 0.0f;
  const int count = nbr_count[box];
  for (int k = 0; k < count; ++k) {
    const int other = nbr_list[box * MAX_NBR + k];
    __syncthreads();
    const int src = (other * NP + p) * 4;
    ox[p] = particles[src + 0];
    oy[p] = particles[src + 1];
    oz[p] = particles[src + 2];
    oq[p] = particles[src + 3];
    __syncthreads();
    for (int j = 0; j < NP; ++j) {
      const float dx = hx - ox[j], dy = hy - oy[j], dz = hz - oz[j];
      const float r2 = a2 * (dx * dx + dy * dy + dz * dz);
      const float u = expf(-r2);
      const float v = oq[j] * u;
      const float f = two_a2 * v;
      pot += v;
      fx += f * dx;
      fy += f * dy;
      fz += f * dz;
    }
  }
  out[home + 0] = pot;
  out[home + 1] = fx;
  out[home + 2] = fy;
  out[home + 3] = fz;
}
