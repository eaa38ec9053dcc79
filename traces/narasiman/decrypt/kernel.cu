// AES-128 decryption (ECB) with the inverse T-tables (equivalent inverse cipher, FIPS-197 5.3.5).
// Each thread decrypts whole 16-byte blocks (grid-stride over blocks).
//
// Optimised for the GPU (the papers' benchmarks were, with Ryoo et al.'s principles): the round
// lookups index the tables with data bytes, so a warp's 32 lookups would fall on random banks of
// the 32-bank scratchpad and serialise. Each CTA therefore keeps one copy of the first inverse
// T-table per lane, entry x of lane l's copy at tdr[32 * x + l], always in bank l: every round
// lookup is conflict free. The other three tables are rotations of the first (td[256*i + x] is
// td[x] rotated left by 8i bits), so one 32 KB replicated table serves all four; two CTAs of 512
// threads (1024 threads, the papers' core) use 66 KB of the 128 KB scratchpad. The inverse S-box
// of the last round (isbox, 256 words, every byte of word x is InvSbox[x]) and the 44 decryption
// round-key words (rk) are copied once a CTA; the key words are read by all lanes at once.
//
// Word convention: a state column is one little-endian 32-bit word (row 0 in the low byte), as
// the 16 bytes of a block lie in memory, so a block is 4 words in[4b..4b+3]. td[256*i + x] is
// InvMixColumn of the column (InvSbox[x], 0, 0, 0) rotated up by i rows; rk[0..3] is round key 10,
// rk[4r..4r+3] (r = 1..9) InvMixColumns of round key 10-r, rk[40..43] round key 0. Only td[0..255]
// is read.
#define LANES 32
#define NWORDS_RK 44

// Entry x of a lane's copy is 128 bytes after entry x - 1: ROW masks a state byte, shifted to bits
// 7..14, into that byte offset.
#define ROW 0x7f80u

__device__ __forceinline__ unsigned rotl(unsigned x, unsigned n) { return __funnelshift_l(x, x, n); }

__device__ __forceinline__ unsigned look(const unsigned* t, unsigned byte_offset) {
  return *reinterpret_cast<const unsigned*>(reinterpret_cast<const char*>(t) + byte_offset);
}

extern "C" __global__ void decrypt(const unsigned* in, unsigned* out, const unsigned* td,
                                   const unsigned* isbox, const unsigned* rk,
                                   unsigned nblocks) {
  __shared__ unsigned tdr[256 * LANES];
  __shared__ unsigned srk[NWORDS_RK];
  __shared__ unsigned td4[256];
  for (unsigned i = threadIdx.x; i < 256 * LANES; i += blockDim.x) tdr[i] = td[i / LANES];
  for (unsigned i = threadIdx.x; i < 256; i += blockDim.x) td4[i] = isbox[i];
  for (unsigned i = threadIdx.x; i < NWORDS_RK; i += blockDim.x) srk[i] = rk[i];
  __syncthreads();

  const unsigned* t = tdr + (threadIdx.x % LANES);  // this lane's copy: entry x at t[LANES * x]
  const unsigned stride = gridDim.x * blockDim.x;
  for (unsigned b = blockIdx.x * blockDim.x + threadIdx.x; b < nblocks; b += stride) {
    unsigned s0 = in[4 * b + 0] ^ srk[0];
    unsigned s1 = in[4 * b + 1] ^ srk[1];
    unsigned s2 = in[4 * b + 2] ^ srk[2];
    unsigned s3 = in[4 * b + 3] ^ srk[3];
    for (int r = 1; r < 10; ++r) {
      // InvShiftRows moves row i of column c to column c + i, so column c takes row i from
      // column c - i.
      const unsigned t0 = look(t, (s0 << 7) & ROW) ^ rotl(look(t, (s3 >> 1) & ROW), 8) ^
                          rotl(look(t, (s2 >> 9) & ROW), 16) ^ rotl(look(t, (s1 >> 17) & ROW), 24) ^
                          srk[4 * r + 0];
      const unsigned t1 = look(t, (s1 << 7) & ROW) ^ rotl(look(t, (s0 >> 1) & ROW), 8) ^
                          rotl(look(t, (s3 >> 9) & ROW), 16) ^ rotl(look(t, (s2 >> 17) & ROW), 24) ^
                          srk[4 * r + 1];
      const unsigned t2 = look(t, (s2 << 7) & ROW) ^ rotl(look(t, (s1 >> 1) & ROW), 8) ^
                          rotl(look(t, (s0 >> 9) & ROW), 16) ^ rotl(look(t, (s3 >> 17) & ROW), 24) ^
                          srk[4 * r + 2];
      const unsigned t3 = look(t, (s3 << 7) & ROW) ^ rotl(look(t, (s2 >> 1) & ROW), 8) ^
                          rotl(look(t, (s1 >> 9) & ROW), 16) ^ rotl(look(t, (s0 >> 17) & ROW), 24) ^
                          srk[4 * r + 3];
      s0 = t0;
      s1 = t1;
      s2 = t2;
      s3 = t3;
    }
    // Last round: InvShiftRows, InvSubBytes, AddRoundKey 0. td4[x] holds InvSbox[x] in all four
    // bytes, so masking picks the row.
    out[4 * b + 0] = ((td4[s0 & 0xff] & 0x000000ffu) ^ (td4[(s3 >> 8) & 0xff] & 0x0000ff00u) ^
                      (td4[(s2 >> 16) & 0xff] & 0x00ff0000u) ^ (td4[s1 >> 24] & 0xff000000u)) ^
                     srk[40];
    out[4 * b + 1] = ((td4[s1 & 0xff] & 0x000000ffu) ^ (td4[(s0 >> 8) & 0xff] & 0x0000ff00u) ^
                      (td4[(s3 >> 16) & 0xff] & 0x00ff0000u) ^ (td4[s2 >> 24] & 0xff000000u)) ^
                     srk[41];
    out[4 * b + 2] = ((td4[s2 & 0xff] & 0x000000ffu) ^ (td4[(s1 >> 8) & 0xff] & 0x0000ff00u) ^
                      (td4[(s0 >> 16) & 0xff] & 0x00ff0000u) ^ (td4[s3 >> 24] & 0xff000000u)) ^
                     srk[42];
    out[4 * b + 3] = ((td4[s3 & 0xff] & 0x000000ffu) ^ (td4[(s2 >> 8) & 0xff] & 0x0000ff00u) ^
                      (td4[(s1 >> 16) & 0xff] & 0x00ff0000u) ^ (td4[s0 >> 24] & 0xff000000u)) ^
                     srk[43];
  }
}
