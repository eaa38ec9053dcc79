// Viterbi: the generator encodes random frames with the K=5 (23, 35) code and flips coded bits as
// a binary symmetric channel would; the reference runs the same hard-decision decoder as the
// kernel (same tie rules), so the decoded words match bit for bit, decoding errors included.
#include "io/workload/reference.h"

namespace {

constexpr int kSteps = 32;
constexpr int kStates = 16;
constexpr unsigned kG0 = 0x13;          // 23 octal
constexpr unsigned kG1 = 0x1d;          // 35 octal
constexpr unsigned kFlipPerMille = 50;  // channel bit error rate 5%

unsigned parity(unsigned x) { return __builtin_popcount(x) & 1u; }
unsigned out_pair(unsigned reg) { return parity(reg & kG0) | (parity(reg & kG1) << 1); }

}  // namespace

GPUTLM_GENERATOR("narasiman/viterbi") {
  const size_t frames = ctx.count("coded") / 2;
  std::vector<uint32_t> coded(2 * frames);
  for (size_t f = 0; f < frames; ++f) {
    unsigned state = 0;
    uint32_t word[2] = {0, 0};
    for (int i = 0; i < kSteps; ++i) {
      const unsigned bit = static_cast<unsigned>(ctx.rng().next_u32() & 1u);
      const unsigned reg = (state << 1) | bit;
      unsigned sym = out_pair(reg);
      for (int k = 0; k < 2; ++k)
        if (ctx.rng().uniform_int(0, 999) < kFlipPerMille) sym ^= 1u << k;
      word[i / 16] |= static_cast<uint32_t>(sym) << (2 * (i % 16));
      state = reg & 15u;
    }
    coded[f] = word[0];
    coded[frames + f] = word[1];
  }
  ctx.fill("coded", coded);
}

GPUTLM_REFERENCE("narasiman/viterbi") {
  const auto coded = ctx.input<uint32_t>("coded");
  const size_t frames = coded.size() / 2;
  std::vector<uint32_t> decoded(ctx.count("decoded"), 0);
  for (size_t f = 0; f < frames && f < decoded.size(); ++f) {
    unsigned pm[kStates];
    for (int s = 0; s < kStates; ++s) pm[s] = s ? 64u : 0u;
    uint16_t dec[kSteps];
    for (int i = 0; i < kSteps; ++i) {
      const unsigned r = (coded[(i / 16) * frames + f] >> (2 * (i % 16))) & 3u;
      unsigned npm[kStates];
      unsigned d = 0;
      for (unsigned ns = 0; ns < kStates; ++ns) {
        const unsigned bm = __builtin_popcount(r ^ out_pair(ns));
        const unsigned m0 = pm[ns >> 1] + bm;
        const unsigned m1 = pm[(ns >> 1) | 8] + (2u - bm);
        if (m1 < m0) {
          npm[ns] = m1;
          d |= 1u << ns;
        } else {
          npm[ns] = m0;
        }
      }
      for (int s = 0; s < kStates; ++s) pm[s] = npm[s];
      dec[i] = static_cast<uint16_t>(d);
    }
    unsigned best = 0;
    for (unsigned s = 1; s < kStates; ++s)
      if (pm[s] < pm[best]) best = s;
    unsigned state = best;
    uint32_t bits = 0;
    for (int i = kSteps - 1; i >= 0; --i) {
      bits |= (state & 1u) << i;
      state = (state >> 1) | (((dec[i] >> state) & 1u) << 3);
    }
    decoded[f] = bits;
  }
  ctx.expect("decoded", decoded);
}
