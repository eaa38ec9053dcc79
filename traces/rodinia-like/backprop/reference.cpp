// CPU reference for rodinia-like/backprop: per CTA of 16 inputs and per hidden unit, the products
// weight * input added in the kernel's tree order ((r0 + r1) + (r2 + r3)) + ...; the hidden
// activations 1 / (1 + exp(-s)) with s the partial sums added CTA by CTA plus the bias weight
// (std::exp differs from nvcc's expf by an ulp or two: float tolerance); and the weight update
// with the operation order nvcc chose (dw = fma(eta * delta, x, momentum * oldw);
// bias: fma(delta, eta, momentum * oldw)).
#include <cmath>

#include "io/workload/reference.h"

GPUTLM_REFERENCE("rodinia-like/backprop") {
  constexpr unsigned H = 16;
  const unsigned n_in = static_cast<unsigned>(ctx.var("n_in"));
  const unsigned nblocks = n_in / 16;
  const auto x = ctx.input<float>("x");
  const auto delta = ctx.input<float>("delta");
  auto w = ctx.input<float>("w");
  auto oldw = ctx.input<float>("oldw");
  auto hidden = ctx.input<float>("hidden");
  const float eta = static_cast<float>(ctx.param(2, 4));
  const float momentum = static_cast<float>(ctx.param(2, 5));

  // layerforward
  std::vector<float> partial(static_cast<size_t>(nblocks) * H);
  for (unsigned b = 0; b < nblocks; ++b) {
    for (unsigned tx = 0; tx < H; ++tx) {
      float p[16];
      for (unsigned ty = 0; ty < 16; ++ty) {
        const unsigned i = 16 * b + ty + 1;
        p[ty] = w[i * (H + 1) + tx + 1] * x[i];
      }
      for (unsigned span = 2; span <= 16; span *= 2)
        for (unsigned ty = 0; ty < 16; ty += span) p[ty] = p[ty] + p[ty + span / 2];
      partial[b * H + tx] = p[0];
    }
  }
  // squash_hidden
  for (unsigned j = 1; j <= H; ++j) {
    float s = 0.0f;
    for (unsigned b = 0; b < nblocks; ++b) s += partial[b * H + j - 1];
    s += w[j];
    hidden[j] = 1.0f / (1.0f + std::exp(-s));
  }
  // adjust_weights (reads the weights layerforward read; the bias row after the others)
  for (unsigned i = 1; i <= n_in; ++i) {
    for (unsigned j = 1; j <= H; ++j) {
      const size_t idx = static_cast<size_t>(i) * (H + 1) + j;
      const float dw = std::fma(eta * delta[j], x[i], momentum * oldw[idx]);
      w[idx] += dw;
      oldw[idx] = dw;
    }
  }
  for (unsigned j = 1; j <= H; ++j) {
    const float db = std::fma(delta[j], eta, momentum * oldw[j]);
    w[j] += db;
    oldw[j] = db;
  }
  ctx.expect("partial", partial);
  ctx.expect("hidden", hidden);
  ctx.expect("w", w);
  ctx.expect("oldw", oldw);
}
