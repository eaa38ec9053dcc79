// Input generator and CPU reference for rodinia-like/nw.
//
// Generator: two sequences of length n over a 24-letter alphabet (uniform), a 24 x 24 symmetric
// substitution table uniform in [-4, 10], and the n x n similarity matrix
// similarity[i][j] = table[a[i]][b[j]]; the score matrix starts with its gap borders
// score[i][0] = score[0][i] = -i * penalty and zeros inside.
//
// Reference: the same recurrence filled row by row on the CPU. Integer max is exact whatever the
// order, so the block-diagonal GPU order gives the same matrix.
#include <algorithm>

#include "io/workload/reference.h"

namespace {
constexpr int kLetters = 24;
constexpr int kBlock = 16;
constexpr int kListedDiagonals = 32;  // launch.json lists diagonals up to 32 blocks

void check_n(const char* who, int64_t n) {
  if (n < kBlock || n % kBlock != 0 || n / kBlock > kListedDiagonals)
    throw gputlm::InputError(std::string(who) +
                             ": n must be a multiple of 16 between 16 and 512 "
                             "(launch.json lists block diagonals of up to 32 blocks)");
}
}  // namespace

GPUTLM_GENERATOR("rodinia-like/nw") {
  auto& rng = ctx.rng();
  const int64_t n = ctx.var("n");
  const int penalty = static_cast<int>(ctx.var("penalty"));
  check_n("rodinia-like/nw", n);
  int table[kLetters][kLetters];
  for (int x = 0; x < kLetters; ++x)
    for (int y = 0; y <= x; ++y)
      table[x][y] = table[y][x] = static_cast<int>(rng.uniform_int(-4, 10));
  std::vector<int> a(n), b(n);
  for (auto& c : a) c = static_cast<int>(rng.uniform_int(0, kLetters - 1));
  for (auto& c : b) c = static_cast<int>(rng.uniform_int(0, kLetters - 1));
  std::vector<int32_t> similarity(static_cast<size_t>(n * n));
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) similarity[i * n + j] = table[a[i]][b[j]];
  const int64_t w = n + 1;
  std::vector<int32_t> score(static_cast<size_t>(w * w), 0);
  for (int64_t i = 0; i <= n; ++i) {
    score[i * w] = static_cast<int32_t>(-i * penalty);
    score[i] = static_cast<int32_t>(-i * penalty);
  }
  ctx.fill("similarity", similarity);
  ctx.fill("score", score);
}

GPUTLM_REFERENCE("rodinia-like/nw") {
  const int64_t n = ctx.var("n");
  check_n("rodinia-like/nw", n);
  const int32_t penalty = static_cast<int32_t>(ctx.var("penalty"));
  const auto similarity = ctx.input<int32_t>("similarity");
  auto score = ctx.input<int32_t>("score");
  const int64_t w = n + 1;
  for (int64_t i = 1; i <= n; ++i)
    for (int64_t j = 1; j <= n; ++j)
      score[i * w + j] =
          std::max({score[(i - 1) * w + j - 1] + similarity[(i - 1) * n + j - 1],
                    score[(i - 1) * w + j] - penalty, score[i * w + j - 1] - penalty});
  ctx.expect("score", score);
}
