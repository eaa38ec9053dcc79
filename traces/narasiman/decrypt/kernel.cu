// AES-128 decryption (ECB) with the inverse T-tables (equivalent inverse cipher, FIPS-197 5.3.5).
// Each thread decrypts whole 16-byte blocks (grid-stride over blocks). The CTA first copies the
// four inverse T-tables (td, 4 x 256 words), the inverse S-box (isbox, 256 words, every byte of
// word x is InvSbox[x]) and the 44 decryption round-key words (rk) from global memory into shared
// memory.
//
// Word convention: a state column is one little-endian 32-bit word (row 0 in the low byte), as
// the 16 bytes of a block lie in memory, so a block is 4 words in[4b..4b+3]. td[256*i + x] is
// InvMixColumn of the column (InvSbox[x], 0, 0, 0) rotated up by i rows; rk[0..3] is round key 10,
// rk[4r..4r+3] (r = 1..9) InvMixColumns of round key 10-r, rk[40..43] round key 0.
#define NWORDS_TD 1024
#define NWORDS_RK 44

extern "C" __global__ void decrypt(const unsigned* in, unsigned* out, const unsigned* td,
                                   const unsigned* isbox, const unsigned* rk,
                                   unsigned nblocks) {
  __shared__ unsigned std_[NWORDS_TD];
  __shared__ unsigned srk[NWORDS_RK];
  __shared__ unsigned td4[256];
  for (unsigned i = threadIdx.x; i < NWORDS_TD; i += blockDim.x) std_[i] = td[i];
  for (unsigned i = threadIdx.x; i < 256; i += blockDim.x) td4[i] = isbox[i];
  for (unsigned i = threadIdx.x; i < NWORDS_RK; i += blockDim.x) srk[i] = rk[i];
  __syncthreads();

  const unsigned* td0 = std_;
  const unsigned* td1 = std_ + 256;
  const unsigned* td2 = std_ + 512;
  const unsigned* td3 = std_ + 768;
  const unsigned stride = gridDim.x * blockDim.x;
  for (unsigned b = blockIdx.x * blockDim.x + threadIdx.x; b < nblocks; b += stride) {
    unsigned s0 = in[4 * b + 0] ^ srk[0];
    unsigned s1 = in[4 * b + 1] ^ srk[1];
    unsigned s2 = in[4 * b + 2] ^ srk[2];
    unsigned s3 = in[4 * b + 3] ^ srk[3];
    for (int r = 1; r < 10; ++r) {
      // InvShiftRows moves row i of column c to column c + i, so column c takes row i from
      // column c - i.
      const unsigned t0 = td0[s0 & 0xff] ^ td1[(s3 >> 8) & 0xff] ^ td2[(s2 >> 16) & 0xff] ^
                          td3[s1 >> 24] ^ srk[4 * r + 0];
      const unsigned t1 = td0[s1 & 0xff] ^ td1[(s0 >> 8) & 0xff] ^ td2[(s3 >> 16) & 0xff] ^
                          td3[s2 >> 24] ^ srk[4 * r + 1];
      const unsigned t2 = td0[s2 & 0xff] ^ td1[(s1 >> 8) & 0xff] ^ td2[(s0 >> 16) & 0xff] ^
                          td3[s3 >> 24] ^ srk[4 * r + 2];
      const unsigned t3 = td0[s3 & 0xff] ^ td1[(s2 >> 8) & 0xff] ^ td2[(s1 >> 16) & 0xff] ^
                          td3[s0 >> 24] ^ srk[4 * r + 3];
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
