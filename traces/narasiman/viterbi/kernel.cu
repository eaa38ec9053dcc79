// Viterbi decoding of a rate-1/2, constraint-length-5 convolutional code (generators 23, 35
// octal), hard decisions. Each thread decodes whole frames of 32 information bits (grid-stride
// over frames): 32 add-compare-select (ACS) steps over the 16-state trellis with the path metrics
// in registers and one 16-bit decision word per step in shared memory, then a search for the
// best final state and a traceback through the decision words. Every frame starts in state 0 and
// is not terminated, so the traceback starts from the state with the smallest metric.
//
// Layout: coded[h * frames + f] holds coded bits 32h..32h+31 of frame f (2 bits per step, step i
// in bits 2(i%16)..2(i%16)+1 of word h = i/16; bit 0 = generator 23, bit 1 = generator 35);
// decoded[f] receives the 32 decoded bits of frame f (bit i = information bit of step i).
//
// The ACS selections and the traceback branch on data: KEEP_BRANCH() (an empty volatile asm,
// which emits no instruction) stops the compiler from turning them into selects, so the PTX has
// the divergent branches a scalar (x86) build of the decoder has.
#define KEEP_BRANCH() asm volatile("")

#define NSTATES 16
#define STEPS 32
#define MAX_BLOCK 256

// Expected 2-bit output of the transition into state ns from the predecessor whose dropped bit
// is 0: the 5-bit encoder register is ns (the newest bit in bit 0).
#define OUT0(ns) ((__popc((ns) & 0x13) & 1) | ((__popc((ns) & 0x1d) & 1) << 1))

// One ACS for new state NS: predecessors NS>>1 (decision 0) and (NS>>1)|8 (decision 1). The two
// branch metrics are complementary (both generators tap the oldest and newest bit).
#define ACS(NS)                                                    \
  {                                                                \
    const unsigned bm = b[OUT0(NS)];                               \
    const unsigned m0 = pm[(NS) >> 1] + bm;                        \
    const unsigned m1 = pm[((NS) >> 1) | 8] + (2u - bm);           \
    if (m1 < m0) {                                                 \
      KEEP_BRANCH();                                               \
      npm[NS] = m1;                                                \
      dec |= 1u << (NS);                                           \
    } else {                                                       \
      KEEP_BRANCH();                                               \
      npm[NS] = m0;                                                \
    }                                                              \
  }

extern "C" __global__ void viterbi(const unsigned* coded, unsigned* decoded, unsigned frames) {
  __shared__ unsigned short sdec[STEPS][MAX_BLOCK];  // decision words, one column per thread
  const unsigned tid = threadIdx.x;
  const unsigned stride = gridDim.x * blockDim.x;
  for (unsigned f = blockIdx.x * blockDim.x + tid; f < frames; f += stride) {
    unsigned pm[NSTATES];
#pragma unroll
    for (int s = 0; s < NSTATES; ++s) pm[s] = s ? 64u : 0u;  // the encoder starts in state 0

    unsigned w = 0;
    for (int i = 0; i < STEPS; ++i) {
      if ((i & 15) == 0) w = coded[(i >> 4) * frames + f];
      const unsigned r = w & 3u;
      w >>= 2;
      unsigned b[4];  // Hamming distance of the received pair to each possible output pair
      b[0] = __popc(r);
      b[1] = __popc(r ^ 1u);
      b[2] = __popc(r ^ 2u);
      b[3] = __popc(r ^ 3u);
      unsigned npm[NSTATES];
      unsigned dec = 0;
      ACS(0) ACS(1) ACS(2) ACS(3) ACS(4) ACS(5) ACS(6) ACS(7)
      ACS(8) ACS(9) ACS(10) ACS(11) ACS(12) ACS(13) ACS(14) ACS(15)
#pragma unroll
      for (int s = 0; s < NSTATES; ++s) pm[s] = npm[s];
      sdec[i][tid] = (unsigned short)dec;
    }

    // Best final state: the smallest metric, the lowest state on ties.
    unsigned best = 0, bestm = pm[0];
#pragma unroll
    for (int s = 1; s < NSTATES; ++s) {
      if (pm[s] < bestm) {
        KEEP_BRANCH();
        bestm = pm[s];
        best = s;
      }
    }

    // Traceback: the state after step i holds the information bit of step i in bit 0.
    unsigned state = best, bits = 0;
    for (int i = STEPS - 1; i >= 0; --i) {
      bits |= (state & 1u) << i;
      const unsigned d = sdec[i][tid];
      if ((d >> state) & 1u) {
        KEEP_BRANCH();
        state = (state >> 1) | 8u;
      } else {
        KEEP_BRANCH();
        state >>= 1;
      }
    }
    decoded[f] = bits;
  }
}
