// decrypt: the generator draws a random AES-128 key and random plaintext, encrypts it (ECB) with a
// byte-oriented FIPS-197 cipher, and fills the kernel's tables and decryption round keys. The
// reference decrypts the ciphertext with the byte-oriented inverse cipher, taking the key from the
// last four round-key words (round key 0 is the cipher key); the kernel must give it back exactly.
#include "io/workload/reference.h"

namespace {

struct Aes {
  uint8_t sbox[256], inv[256];
  Aes() {
    // S-box: multiplicative inverse in GF(2^8) followed by the affine map.
    for (int x = 0; x < 256; ++x) {
      uint8_t y = 0;
      for (int c = 1; c < 256 && x; ++c)
        if (mul(static_cast<uint8_t>(x), static_cast<uint8_t>(c)) == 1) y = static_cast<uint8_t>(c);
      uint8_t s = y;
      for (int r = 1; r <= 4; ++r) s ^= static_cast<uint8_t>((y << r) | (y >> (8 - r)));
      sbox[x] = static_cast<uint8_t>(s ^ 0x63);
    }
    for (int x = 0; x < 256; ++x) inv[sbox[x]] = static_cast<uint8_t>(x);
  }
  static uint8_t mul(uint8_t a, uint8_t b) {
    uint8_t p = 0;
    for (int i = 0; i < 8; ++i) {
      if (b & 1) p ^= a;
      const bool hi = a & 0x80;
      a = static_cast<uint8_t>(a << 1);
      if (hi) a ^= 0x1b;
      b >>= 1;
    }
    return p;
  }
  // The 176-byte expanded key (FIPS-197 5.2).
  void expand(const uint8_t key[16], uint8_t w[176]) const {
    for (int i = 0; i < 16; ++i) w[i] = key[i];
    uint8_t rcon = 1;
    for (int i = 4; i < 44; ++i) {
      uint8_t t[4] = {w[4 * i - 4], w[4 * i - 3], w[4 * i - 2], w[4 * i - 1]};
      if (i % 4 == 0) {
        const uint8_t t0 = t[0];
        t[0] = static_cast<uint8_t>(sbox[t[1]] ^ rcon);
        t[1] = sbox[t[2]];
        t[2] = sbox[t[3]];
        t[3] = sbox[t0];
        rcon = mul(rcon, 2);
      }
      for (int j = 0; j < 4; ++j) w[4 * i + j] = static_cast<uint8_t>(w[4 * i - 16 + j] ^ t[j]);
    }
  }
  // state[r + 4c] = row r of column c, as the bytes lie in memory.
  void encrypt(const uint8_t w[176], uint8_t s[16]) const {
    add_key(s, w);
    for (int round = 1; round <= 10; ++round) {
      for (int i = 0; i < 16; ++i) s[i] = sbox[s[i]];
      uint8_t t[16];
      for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 4; ++r) t[r + 4 * c] = s[r + 4 * ((c + r) % 4)];  // ShiftRows
      if (round < 10)
        for (int c = 0; c < 4; ++c) mix(t + 4 * c, 2, 3, 1, 1);
      for (int i = 0; i < 16; ++i) s[i] = t[i];
      add_key(s, w + 16 * round);
    }
  }
  void decrypt(const uint8_t w[176], uint8_t s[16]) const {
    add_key(s, w + 160);
    for (int round = 9; round >= 0; --round) {
      uint8_t t[16];
      for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 4; ++r) t[r + 4 * ((c + r) % 4)] = s[r + 4 * c];  // InvShiftRows
      for (int i = 0; i < 16; ++i) s[i] = inv[t[i]];
      add_key(s, w + 16 * round);
      if (round > 0)
        for (int c = 0; c < 4; ++c) mix(s + 4 * c, 14, 11, 13, 9);
    }
  }
  // MixColumns with the circulant row (m0 m1 m2 m3).
  static void mix(uint8_t* col, uint8_t m0, uint8_t m1, uint8_t m2, uint8_t m3) {
    const uint8_t a[4] = {col[0], col[1], col[2], col[3]};
    for (int r = 0; r < 4; ++r)
      col[r] = static_cast<uint8_t>(mul(m0, a[r]) ^ mul(m1, a[(r + 1) % 4]) ^
                                    mul(m2, a[(r + 2) % 4]) ^ mul(m3, a[(r + 3) % 4]));
  }
  static void add_key(uint8_t s[16], const uint8_t* k) {
    for (int i = 0; i < 16; ++i) s[i] ^= k[i];
  }
};

uint32_t le_word(const uint8_t* b) {
  return static_cast<uint32_t>(b[0]) | (static_cast<uint32_t>(b[1]) << 8) |
         (static_cast<uint32_t>(b[2]) << 16) | (static_cast<uint32_t>(b[3]) << 24);
}
void put_le_word(uint32_t v, uint8_t* b) {
  for (int i = 0; i < 4; ++i) b[i] = static_cast<uint8_t>(v >> (8 * i));
}

}  // namespace

GPUTLM_GENERATOR("narasiman/decrypt") {
  const Aes aes;
  uint8_t key[16], w[176];
  for (auto& k : key) k = static_cast<uint8_t>(ctx.rng().next_u32());
  aes.expand(key, w);

  std::vector<uint32_t> ct(ctx.count("ct"));
  for (size_t b = 0; b < ct.size() / 4; ++b) {
    uint8_t s[16];
    for (auto& x : s) x = static_cast<uint8_t>(ctx.rng().next_u32());
    aes.encrypt(w, s);
    for (int c = 0; c < 4; ++c) ct[4 * b + c] = le_word(s + 4 * c);
  }
  ctx.fill("ct", ct);

  std::vector<uint32_t> td(1024), isbox(256);
  for (int x = 0; x < 256; ++x) {
    const uint8_t s = aes.inv[x];
    const uint32_t t0 = static_cast<uint32_t>(Aes::mul(14, s)) |
                        (static_cast<uint32_t>(Aes::mul(9, s)) << 8) |
                        (static_cast<uint32_t>(Aes::mul(13, s)) << 16) |
                        (static_cast<uint32_t>(Aes::mul(11, s)) << 24);
    for (int i = 0; i < 4; ++i) td[256 * i + x] = i ? (t0 << (8 * i)) | (t0 >> (32 - 8 * i)) : t0;
    isbox[x] = 0x01010101u * s;
  }
  ctx.fill("td", td);
  ctx.fill("isbox", isbox);

  std::vector<uint32_t> rk(44);
  for (int c = 0; c < 4; ++c) {
    rk[c] = le_word(w + 160 + 4 * c);
    rk[40 + c] = le_word(w + 4 * c);
  }
  for (int r = 1; r <= 9; ++r)
    for (int c = 0; c < 4; ++c) {
      uint8_t col[4];
      for (int i = 0; i < 4; ++i) col[i] = w[16 * (10 - r) + 4 * c + i];
      Aes::mix(col, 14, 11, 13, 9);
      rk[4 * r + c] = le_word(col);
    }
  ctx.fill("rk", rk);
}

GPUTLM_REFERENCE("narasiman/decrypt") {
  const Aes aes;
  const auto ct = ctx.input<uint32_t>("ct");
  const auto rk = ctx.input<uint32_t>("rk");
  uint8_t key[16], w[176];
  for (int c = 0; c < 4; ++c) put_le_word(rk[40 + c], key + 4 * c);
  aes.expand(key, w);
  std::vector<uint32_t> pt(ct.size());
  for (size_t b = 0; b < ct.size() / 4; ++b) {
    uint8_t s[16];
    for (int c = 0; c < 4; ++c) put_le_word(ct[4 * b + c], s + 4 * c);
    aes.decrypt(w, s);
    for (int c = 0; c < 4; ++c) pt[4 * b + c] = le_word(s + 4 * c);
  }
  ctx.expect("pt", pt);
}
