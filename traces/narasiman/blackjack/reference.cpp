#include <cstdint>

#include "io/workload/reference.h"

// The kernel, thread by thread: same xorshift32 stream, same Fisher-Yates shuffle, same strategy.
namespace {

struct Deck {
  uint8_t card[52];
};

uint32_t next_rand(uint32_t& s) {
  s ^= s << 13;
  s ^= s >> 17;
  s ^= s << 5;
  return s;
}

void shuffle_deck(Deck& d, uint32_t& s) {
  for (uint32_t k = 51; k > 0; --k) {
    const uint32_t j = next_rand(s) % (k + 1);
    const uint8_t t = d.card[k];
    d.card[k] = d.card[j];
    d.card[j] = t;
  }
}

int points(uint32_t card) {  // card = rank * 4 + suit; rank 0 is the ace
  const uint32_t rank = card >> 2;
  return rank == 0 ? 11 : (rank >= 10 ? 10 : static_cast<int>(rank) + 1);
}

int draw(const Deck& d, uint32_t& pos) {
  const int p = points(d.card[pos]);
  pos = pos == 51 ? 0 : pos + 1;
  return p;
}

void add_card(int& total, int& soft, int p) {
  total += p;
  soft += p == 11;
  while (total > 21 && soft > 0) {
    total -= 10;
    --soft;
  }
}

int32_t play(uint32_t seed, uint32_t hands) {
  uint32_t s = seed | 1u;
  Deck deck;
  for (uint32_t k = 0; k < 52; ++k) deck.card[k] = static_cast<uint8_t>(k);
  shuffle_deck(deck, s);
  uint32_t pos = 0;
  int win = 0;
  for (uint32_t h = 0; h < hands; ++h) {
    if (pos > 52 - 17) {
      shuffle_deck(deck, s);
      pos = 0;
    }
    int pt = 0, ps = 0, dt = 0, ds = 0;
    add_card(pt, ps, draw(deck, pos));
    const int up = draw(deck, pos);
    add_card(dt, ds, up);
    add_card(pt, ps, draw(deck, pos));
    add_card(dt, ds, draw(deck, pos));
    if (pt == 21 || dt == 21) {
      if (pt != dt) win += pt == 21 ? 3 : -2;
      continue;
    }
    int bet = 2;
    if (ps == 0 && (pt == 10 || pt == 11) && up < 10) {
      bet = 4;
      add_card(pt, ps, draw(deck, pos));
    } else {
      const int stand = up >= 7 ? 17 : (up <= 3 ? 13 : 12);
      while (pt < stand || (ps > 0 && pt < 18)) add_card(pt, ps, draw(deck, pos));
    }
    if (pt > 21) {
      win -= bet;
      continue;
    }
    while (dt < 17) add_card(dt, ds, draw(deck, pos));
    if (dt > 21 || pt > dt)
      win += bet;
    else if (pt < dt)
      win -= bet;
  }
  return win;
}

}  // namespace

GPUTLM_REFERENCE("narasiman/blackjack") {
  auto seeds = ctx.input<uint32_t>("seeds");
  const uint32_t hands = static_cast<uint32_t>(ctx.var("hands"));
  std::vector<int32_t> net(ctx.count("net"));
  for (size_t i = 0; i < net.size(); ++i) net[i] = play(seeds[i], hands);
  ctx.expect("net", net);
}
