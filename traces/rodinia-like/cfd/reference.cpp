// Input generator and CPU reference for rodinia-like/cfd.
//
// Generator: a synthetic mesh of `cells` cells with 4 faces each. A face is a wall (-1) with
// probability 1/32, the far field (-2) with 1/32, else an interior face to a uniformly random
// other cell. Face normal components are uniform in [-0.25, 0.25), cell areas (volumes) in
// [0.5, 1.5). The far-field state is the usual free stream (density 1.4, pressure 1, Mach 1.2 at
// a 3 degree angle of attack) and its flux terms are computed here in float.
//
// Reference: the launches in order on the CPU, in float, with plain loops: the state arrays set
// to the far field, the step factors, then 3 Runge-Kutta stages of face fluxes and updates.
#include <cmath>

#include "io/workload/reference.h"

namespace {

constexpr float kGamma = 1.4f;
constexpr float kSmoothing = 0.2f;

struct State {
  float rho, mx, my, mz, e;
};

// Derived quantities of one state: velocity, squared speed, pressure, speed of sound and the flux
// terms (rows momentum x, y, z, energy; columns x, y, z).
struct Derived {
  float vx, vy, vz, speed_sqd, p, c;
  float f[4][3];
};

Derived derive(const State& s) {
  Derived d;
  d.vx = s.mx / s.rho;
  d.vy = s.my / s.rho;
  d.vz = s.mz / s.rho;
  d.speed_sqd = d.vx * d.vx + d.vy * d.vy + d.vz * d.vz;
  d.p = (kGamma - 1.0f) * (s.e - 0.5f * s.rho * d.speed_sqd);
  d.c = std::sqrt(kGamma * d.p / s.rho);
  const float mom[3] = {s.mx, s.my, s.mz}, vel[3] = {d.vx, d.vy, d.vz};
  for (int r = 0; r < 3; ++r)
    for (int k = 0; k < 3; ++k) d.f[r][k] = mom[r] * vel[k] + (r == k ? d.p : 0.0f);
  for (int k = 0; k < 3; ++k) d.f[3][k] = vel[k] * (s.e + d.p);
  return d;
}

}  // namespace

GPUTLM_GENERATOR("rodinia-like/cfd") {
  auto& rng = ctx.rng();
  const size_t n = static_cast<size_t>(ctx.var("cells"));
  std::vector<int32_t> neighbours(4 * n);
  std::vector<float> normals(12 * n), areas(n);
  for (size_t j = 0; j < 4; ++j)
    for (size_t i = 0; i < n; ++i) {
      const int64_t r = rng.uniform_int(0, 31);
      int32_t nb;
      if (r == 0)
        nb = -1;
      else if (r == 1)
        nb = -2;
      else {
        do nb = static_cast<int32_t>(rng.uniform_int(0, static_cast<int64_t>(n) - 1));
        while (static_cast<size_t>(nb) == i);
      }
      neighbours[j * n + i] = nb;
    }
  for (auto& x : normals) x = static_cast<float>(rng.uniform_real(-0.25, 0.25));
  for (auto& x : areas) x = static_cast<float>(rng.uniform_real(0.5, 1.5));

  const float rho = 1.4f, pressure = 1.0f, mach = 1.2f;
  const float angle = static_cast<float>(3.0 * 3.14159265358979323846 / 180.0);
  const float speed = mach * std::sqrt(kGamma * pressure / rho);
  const State ff = {rho, rho * speed * std::cos(angle), rho * speed * std::sin(angle), 0.0f,
                    rho * (0.5f * speed * speed) + pressure / (kGamma - 1.0f)};
  const Derived d = derive(ff);
  std::vector<float> ff_vars = {ff.rho, ff.mx, ff.my, ff.mz, ff.e}, ff_flux;
  for (int r = 0; r < 4; ++r)
    for (int k = 0; k < 3; ++k) ff_flux.push_back(d.f[r][k]);
  ctx.fill("neighbours", neighbours);
  ctx.fill("normals", normals);
  ctx.fill("areas", areas);
  ctx.fill("ff_vars", ff_vars);
  ctx.fill("ff_flux", ff_flux);
}

GPUTLM_REFERENCE("rodinia-like/cfd") {
  const auto neighbours = ctx.input<int32_t>("neighbours");
  const auto normals = ctx.input<float>("normals");
  const auto areas = ctx.input<float>("areas");
  const auto ff_vars = ctx.input<float>("ff_vars");
  const auto ff_flux = ctx.input<float>("ff_flux");
  const size_t n = static_cast<size_t>(ctx.var("cells"));
  auto state = [n](const std::vector<float>& v, size_t i) {
    return State{v[i], v[n + i], v[2 * n + i], v[3 * n + i], v[4 * n + i]};
  };

  // initialize_variables on variables, old_variables and fluxes.
  std::vector<float> vars(5 * n), old_vars(5 * n), fluxes(5 * n), steps(n);
  for (size_t v = 0; v < 5; ++v)
    for (size_t i = 0; i < n; ++i)
      vars[v * n + i] = old_vars[v * n + i] = fluxes[v * n + i] = ff_vars[v];

  for (size_t i = 0; i < n; ++i) {
    const Derived d = derive(state(vars, i));
    steps[i] = 0.5f / (std::sqrt(areas[i]) * (std::sqrt(d.speed_sqd) + d.c));
  }

  Derived ffd;
  ffd.vx = ffd.vy = ffd.vz = ffd.speed_sqd = ffd.p = ffd.c = 0.0f;
  for (int r = 0; r < 4; ++r)
    for (int k = 0; k < 3; ++k) ffd.f[r][k] = ff_flux[static_cast<size_t>(r * 3 + k)];
  const float ff_mom[3] = {ff_vars[1], ff_vars[2], ff_vars[3]};

  for (int stage = 0; stage < 3; ++stage) {
    for (size_t i = 0; i < n; ++i) {
      const State s = state(vars, i);
      const Derived d = derive(s);
      const float speed_i = std::sqrt(d.speed_sqd);
      const float mom_i[3] = {s.mx, s.my, s.mz};
      float acc[5] = {0, 0, 0, 0, 0};  // density, momentum x/y/z, energy
      for (size_t j = 0; j < 4; ++j) {
        const int32_t nb = neighbours[j * n + i];
        const float nrm[3] = {normals[(3 * j) * n + i], normals[(3 * j + 1) * n + i],
                              normals[(3 * j + 2) * n + i]};
        // Central flux against another state (o), one normal component at a time.
        auto central = [&](const float mom_o[3], const Derived& o) {
          for (int k = 0; k < 3; ++k) {
            const float h = 0.5f * nrm[k];
            acc[0] += h * (mom_o[k] + mom_i[k]);
            acc[4] += h * (o.f[3][k] + d.f[3][k]);
            for (int r = 0; r < 3; ++r) acc[1 + r] += h * (o.f[r][k] + d.f[r][k]);
          }
        };
        if (nb >= 0) {
          const State so = state(vars, static_cast<size_t>(nb));
          const Derived o = derive(so);
          const float mom_o[3] = {so.mx, so.my, so.mz};
          const float len = std::sqrt(nrm[0] * nrm[0] + nrm[1] * nrm[1] + nrm[2] * nrm[2]);
          const float smooth =
              -len * kSmoothing * 0.5f * (speed_i + std::sqrt(o.speed_sqd) + d.c + o.c);
          acc[0] += smooth * (s.rho - so.rho);
          acc[4] += smooth * (s.e - so.e);
          for (int r = 0; r < 3; ++r) acc[1 + r] += smooth * (mom_i[r] - mom_o[r]);
          central(mom_o, o);
        } else if (nb == -1) {
          for (int r = 0; r < 3; ++r) acc[1 + r] += nrm[r] * d.p;
        } else if (nb == -2) {
          central(ff_mom, ffd);
        }
      }
      for (size_t v = 0; v < 5; ++v) fluxes[v * n + i] = acc[v];
    }
    for (size_t i = 0; i < n; ++i) {
      const float factor = steps[i] / static_cast<float>(3 + 1 - stage);
      for (size_t v = 0; v < 5; ++v)
        vars[v * n + i] = old_vars[v * n + i] + factor * fluxes[v * n + i];
    }
  }
  for (float x : vars)
    if (!std::isfinite(x))
      throw gputlm::InputError("rodinia-like/cfd: the generated mesh gives a non-finite state");
  ctx.expect("variables", vars);
  ctx.expect("step_factors", steps);
  ctx.expect("fluxes", fluxes);
}
