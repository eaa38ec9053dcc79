// CFD (Rodinia-like): a finite-volume solver of the 3D Euler equations on an unstructured mesh
// whose cells have 4 faces each. Float only. Structure of arrays: variable v of cell i is at
// [v * ncells + i], v = 0 density, 1..3 momentum x/y/z, 4 energy density; face j of cell i has
// its neighbour's index at neighbours[j * ncells + i] (or -1 for a wall, -2 for the far field)
// and its normal (scaled by the face area) at normals[(3 * j + d) * ncells + i], d = x, y, z.
// The far-field state (5 floats) and its flux terms (12 floats: momentum x, y, z and energy
// rows, each an x/y/z triple) are small global buffers.
//
// The host runs initialize_variables on the state arrays, then per time step compute_step_factor
// and three Runge-Kutta stages of compute_flux + time_step. One thread per cell everywhere;
// initialize_variables and time_step assume ncells is a multiple of the block (the host pads the
// mesh), compute_step_factor and compute_flux check the bound.
#define GAMMA 1.4f
#define SMOOTHING 0.2f
#define RK_STAGES 3

struct Vec3 {
  float x, y, z;
};

__device__ __forceinline__ float dot3(Vec3 a, Vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }

__device__ __forceinline__ float pressure_of(float density, float energy, float speed_sqd) {
  return (GAMMA - 1.0f) * (energy - 0.5f * density * speed_sqd);
}

__device__ __forceinline__ float sound_speed(float density, float pressure) {
  return sqrtf(GAMMA * pressure / density);
}

// The convective flux of a state through unit x, y and z faces: rows for momentum x, y, z and
// for energy, each with its x, y, z components.
// A cell's state from the structure-of-arrays variables: the conserved quantities, the velocity
// and its squared speed (what every kernel derives first).
struct CellState {
  float density;
  Vec3 mom;
  float energy;
  Vec3 vel;
  float speed_sqd;
};
__device__ __forceinline__ CellState load_cell(const float* vars, int ncells, int cell) {
  CellState s;
  s.density = vars[cell];
  s.mom = {vars[ncells + cell], vars[2 * ncells + cell], vars[3 * ncells + cell]};
  s.energy = vars[4 * ncells + cell];
  s.vel = {s.mom.x / s.density, s.mom.y / s.density, s.mom.z / s.density};
  s.speed_sqd = dot3(s.vel, s.vel);
  return s;
}

struct FluxTerms {
  Vec3 mx, my, mz, en;
};

__device__ __forceinline__ FluxTerms flux_terms(Vec3 mom, float energy, Vec3 vel, float pressure) {
  FluxTerms f;
  f.mx = {mom.x * vel.x + pressure, mom.x * vel.y, mom.x * vel.z};
  f.my = {f.mx.y, mom.y * vel.y + pressure, mom.y * vel.z};
  f.mz = {f.mx.z, f.my.z, mom.z * vel.z + pressure};
  const float ep = energy + pressure;
  f.en = {vel.x * ep, vel.y * ep, vel.z * ep};
  return f;
}

// Accumulators of one cell's 5 fluxes.
struct Acc {
  float density, energy;
  Vec3 mom;
};

// Central part of a face flux: the average of both sides' flux terms dotted with the normal,
// taken one normal component at a time.
__device__ __forceinline__ void add_central(Acc& a, float half_n, float mom_o, float mom_i, float mx_o, float mx_i,
                                            float my_o, float my_i, float mz_o, float mz_i, float en_o, float en_i) {
  a.density += half_n * (mom_o + mom_i);
  a.energy += half_n * (en_o + en_i);
  a.mom.x += half_n * (mx_o + mx_i);
  a.mom.y += half_n * (my_o + my_i);
  a.mom.z += half_n * (mz_o + mz_i);
}

__device__ __forceinline__ void add_face(Acc& a, Vec3 n, Vec3 mom_o, const FluxTerms& o, Vec3 mom_i, const FluxTerms& s) {
  add_central(a, 0.5f * n.x, mom_o.x, mom_i.x, o.mx.x, s.mx.x, o.my.x, s.my.x, o.mz.x, s.mz.x, o.en.x, s.en.x);
  add_central(a, 0.5f * n.y, mom_o.y, mom_i.y, o.mx.y, s.mx.y, o.my.y, s.my.y, o.mz.y, s.mz.y, o.en.y, s.en.y);
  add_central(a, 0.5f * n.z, mom_o.z, mom_i.z, o.mx.z, s.mx.z, o.my.z, s.my.z, o.mz.z, s.mz.z, o.en.z, s.en.z);
}

extern "C" __global__ void initialize_variables(int ncells, float* vars, const float* ff_vars) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int v = 0; v < 5; ++v) vars[v * ncells + i] = ff_vars[v];
}

extern "C" __global__ void compute_step_factor(int ncells, const float* vars, const float* areas, float* step_factors) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= ncells) return;
  const CellState s = load_cell(vars, ncells, i);
  const float c = sound_speed(s.density, pressure_of(s.density, s.energy, s.speed_sqd));
  step_factors[i] = 0.5f / (sqrtf(areas[i]) * (sqrtf(s.speed_sqd) + c));
}

extern "C" __global__ void compute_flux(int ncells, const int* neighbours, const float* normals, const float* vars,
                                        const float* ff_vars, const float* ff_flux, float* fluxes) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= ncells) return;
  const CellState self = load_cell(vars, ncells, i);
  const float rho_i = self.density, e_i = self.energy;
  const Vec3 mom_i = self.mom, vel_i = self.vel;
  const float speed_i = sqrtf(self.speed_sqd);
  const float p_i = pressure_of(rho_i, e_i, self.speed_sqd);
  const float c_i = sound_speed(rho_i, p_i);
  const FluxTerms f_i = flux_terms(mom_i, e_i, vel_i, p_i);

  Acc acc = {0.0f, 0.0f, {0.0f, 0.0f, 0.0f}};
#pragma unroll 1
  for (int j = 0; j < 4; ++j) {
    const int nb = neighbours[j * ncells + i];
    const Vec3 n = {normals[(3 * j) * ncells + i], normals[(3 * j + 1) * ncells + i], normals[(3 * j + 2) * ncells + i]};
    if (nb >= 0) {  // an interior face: smoothing term plus the central flux of both states
      const CellState other = load_cell(vars, ncells, nb);
      const float rho_o = other.density, e_o = other.energy, speed_sqd_o = other.speed_sqd;
      const Vec3 mom_o = other.mom, vel_o = other.vel;
      const float p_o = pressure_of(rho_o, e_o, speed_sqd_o);
      const float c_o = sound_speed(rho_o, p_o);
      const FluxTerms f_o = flux_terms(mom_o, e_o, vel_o, p_o);
      const float n_len = sqrtf(dot3(n, n));
      const float smooth = -n_len * SMOOTHING * 0.5f * (speed_i + sqrtf(speed_sqd_o) + c_i + c_o);
      acc.density += smooth * (rho_i - rho_o);
      acc.energy += smooth * (e_i - e_o);
      acc.mom.x += smooth * (mom_i.x - mom_o.x);
      acc.mom.y += smooth * (mom_i.y - mom_o.y);
      acc.mom.z += smooth * (mom_i.z - mom_o.z);
      add_face(acc, n, mom_o, f_o, mom_i, f_i);
    } else if (nb == -1) {  // a wall: only the pressure pushes on the momentum
      acc.mom.x += n.x * p_i;
      acc.mom.y += n.y * p_i;
      acc.mom.z += n.z * p_i;
    } else if (nb == -2) {  // the far field: central flux against the free-stream state
      const Vec3 mom_o = {ff_vars[1], ff_vars[2], ff_vars[3]};
      FluxTerms f_o;
      f_o.mx = {ff_flux[0], ff_flux[1], ff_flux[2]};
      f_o.my = {ff_flux[3], ff_flux[4], ff_flux[5]};
      f_o.mz = {ff_flux[6], ff_flux[7], ff_flux[8]};
      f_o.en = {ff_flux[9], ff_flux[10], ff_flux[11]};
      add_face(acc, n, mom_o, f_o, mom_i, f_i);
    }
  }
  fluxes[i] = acc.density;
  fluxes[ncells + i] = acc.mom.x;
  fluxes[2 * ncells + i] = acc.mom.y;
  fluxes[3 * ncells + i] = acc.mom.z;
  fluxes[4 * ncells + i] = acc.energy;
}

extern "C" __global__ void time_step(int stage, int ncells, const float* old_vars, float* vars, const float* step_factors,
                                     const float* fluxes) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const float factor = step_factors[i] / static_cast<float>(RK_STAGES + 1 - stage);
  for (int v = 0; v < 5; ++v) vars[v * ncells + i] = old_vars[v * ncells + i] + factor * fluxes[v * ncells + i];
}
