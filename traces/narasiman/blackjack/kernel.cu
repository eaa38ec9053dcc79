// Blackjack house edge by Monte-Carlo simulation (Narasiman et al., MICRO 2011, "52-card deck per
// thread"). Each thread owns one 52-card deck in a thread-local array (private memory), shuffles
// it with its own xorshift32 generator, and plays `hands` hands against the dealer:
//   - reshuffle when fewer than 17 cards are left (a biased branch: a few lanes at a time),
//   - naturals (blackjack pays 3:2) are settled at once,
//   - double down on a hard 10 or 11 against a dealer 2..9 (one card, double bet),
//   - otherwise the player hits until a threshold that depends on the dealer's up card (and
//     hits soft hands below 18), the dealer hits until 17; aces drop from 11 to 1 when needed.
// Every draw loop has a per-thread, data-dependent trip count (loop divergence). The thread's
// net result in half-bets (+3 natural, +2/-2 a won/lost hand, +4/-4 a doubled one) goes to net[i].
// Only the seed load and the result store touch global memory.

__device__ __forceinline__ unsigned next_rand(unsigned& s) {  // xorshift32 (Marsaglia 2003)
  s ^= s << 13;
  s ^= s >> 17;
  s ^= s << 5;
  return s;
}

// The deck is 52 bytes of private memory: 13 words of 4 cards, card k in byte k & 3 of word k >> 2
// (32-bit words and shifts, so the PTX needs no 16-bit registers). Card = rank * 4 + suit.
__device__ __forceinline__ void swap_cards(unsigned* deck, unsigned k, unsigned j) {
  unsigned sk = 8u * (k & 3u), sj = 8u * (j & 3u);
  unsigned wk = deck[k >> 2];
  unsigned wj = deck[j >> 2];
  unsigned d = ((wk >> sk) ^ (wj >> sj)) & 0xffu;  // card k xor card j
  deck[k >> 2] = wk ^ (d << sk);
  wj = deck[j >> 2];  // re-read: j may share k's word
  deck[j >> 2] = wj ^ (d << sj);
}

__device__ __forceinline__ void shuffle_deck(unsigned* deck, unsigned& s) {  // Fisher-Yates
#pragma unroll 1
  for (unsigned k = 51; k > 0; --k) swap_cards(deck, k, next_rand(s) % (k + 1));
}

// Rank (0 ace, 1..9 the cards 2..10, 10..12 faces) of the card at position pos.
__device__ __forceinline__ unsigned rank_at(const unsigned* deck, unsigned pos) {
  return (deck[pos >> 2] << (24u - 8u * (pos & 3u))) >> 26;
}

// Rank -> points: the ace counts 11 (may later count 1).
__device__ __forceinline__ int points(unsigned rank) {
  return rank == 0 ? 11 : (rank >= 10 ? 10 : (int)rank + 1);
}

// Points of the next card; the position wraps so a long hand can never leave the deck.
__device__ __forceinline__ int draw(const unsigned* deck, unsigned& pos) {
  int p = points(rank_at(deck, pos));
  pos = pos == 51 ? 0 : pos + 1;
  return p;
}

// Adds a card to a hand: total, and soft = aces still counted as 11.
__device__ __forceinline__ void add_card(int& total, int& soft, int p) {
  total += p;
  soft += p == 11;
  while (total > 21 && soft > 0) {
    total -= 10;
    --soft;
  }
}

extern "C" __global__ void blackjack(const unsigned* seeds, int* net, unsigned n, unsigned hands) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned s = seeds[i] | 1u;  // xorshift32 needs a nonzero state
  unsigned deck[13];
#pragma unroll 1
  for (unsigned k = 0; k < 13; ++k) deck[k] = 0x03020100u + 0x04040404u * k;  // cards 4k..4k+3
  shuffle_deck(deck, s);
  unsigned pos = 0;
  int win = 0;
#pragma unroll 1
  for (unsigned h = 0; h < hands; ++h) {
    if (pos > 52 - 17) {
      shuffle_deck(deck, s);
      pos = 0;
    }
    int pt = 0, ps = 0, dt = 0, ds = 0;
    add_card(pt, ps, draw(deck, pos));
    int up = draw(deck, pos);
    add_card(dt, ds, up);
    add_card(pt, ps, draw(deck, pos));
    add_card(dt, ds, draw(deck, pos));
    if (pt == 21 || dt == 21) {  // a natural: settled before anyone draws
      if (pt != dt) win += pt == 21 ? 3 : -2;
    } else {
      int bet = 2;
      if (ps == 0 && (pt == 10 || pt == 11) && up < 10) {  // double down: one card only
        bet = 4;
        add_card(pt, ps, draw(deck, pos));
      } else {
        int stand = up >= 7 ? 17 : (up <= 3 ? 13 : 12);
        while (pt < stand || (ps > 0 && pt < 18)) add_card(pt, ps, draw(deck, pos));
      }
      if (pt > 21) {
        win -= bet;  // player bust: the dealer does not draw
      } else {
        while (dt < 17) add_card(dt, ds, draw(deck, pos));
        if (dt > 21 || pt > dt) win += bet;
        else if (pt < dt) win -= bet;
      }
    }
  }
  net[i] = win;
}
