// Input generator and CPU reference for narasiman/histogram.
//
// The generator writes English-like ASCII text: words of 1..10 letters drawn with English letter
// frequencies, separated by spaces, with some commas, full stops (the next word is capitalised) and
// newlines; so a few bins (space, e, t, a, ...) are hot, as in the paper's "large text file".
// The reference counts every byte value into 256 bins.
#include "io/workload/reference.h"

namespace {

// English letter frequencies, per mille, for 'a'..'z'.
constexpr int kLetterWeight[26] = {82, 15, 28, 43, 127, 22, 20, 61, 70, 2,  8, 40, 24,
                                   67, 75, 19, 1,  60,  63, 91, 28, 10, 24, 2, 20, 1};

char random_letter(gputlm::workload::Rng& rng) {
  int total = 0;
  for (int w : kLetterWeight) total += w;
  int pick = static_cast<int>(rng.uniform_int(0, total - 1));
  for (int i = 0; i < 26; ++i) {
    if (pick < kLetterWeight[i]) return static_cast<char>('a' + i);
    pick -= kLetterWeight[i];
  }
  return 'e';
}

}  // namespace

GPUTLM_GENERATOR("narasiman/histogram") {
  auto& rng = ctx.rng();
  std::vector<uint8_t> text(ctx.count("text"));
  size_t pos = 0;
  bool capital = true;
  while (pos < text.size()) {
    const int len = static_cast<int>(rng.uniform_int(1, 10));
    for (int i = 0; i < len && pos < text.size(); ++i) {
      char ch = random_letter(rng);
      if (i == 0 && capital) ch = static_cast<char>(ch - 'a' + 'A');
      text[pos++] = static_cast<uint8_t>(ch);
    }
    capital = false;
    const int punct = static_cast<int>(rng.uniform_int(0, 99));
    if (punct < 6 && pos < text.size()) {
      text[pos++] = ',';
    } else if (punct < 12 && pos < text.size()) {
      text[pos++] = '.';
      capital = true;
    }
    if (pos < text.size()) text[pos++] = rng.uniform_int(0, 79) == 0 ? '\n' : ' ';
  }
  ctx.fill("text", text);
}

GPUTLM_REFERENCE("narasiman/histogram") {
  const auto text = ctx.input<uint8_t>("text");
  std::vector<uint32_t> hist(256, 0);
  for (uint8_t ch : text) ++hist[ch];
  ctx.expect("hist", hist);
}
