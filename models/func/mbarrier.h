// The 64-bit mbarrier object in shared memory (PTX ISA 9.7.13.15.1 "Contents of the mbarrier
// object"). The ISA calls the layout opaque and names its contents: the current phase, the
// pending arrival count, the expected arrival count and the tx-count. gputlm's layout:
//
//   bits  0..19  pending arrival count   (0 .. 2^20-1; the ISA's range for init's count)
//   bits 20..39  expected arrival count  (0 .. 2^20-1)
//   bits 40..60  tx-count, 21-bit two's complement (the ISA's range: -(2^20-1) .. 2^20-1)
//   bit  61      initialised: set by mbarrier.init, cleared by mbarrier.inval (any other
//                operation on an object without it is undefined in the ISA; gputlm faults)
//   bits 62..63  phase number modulo 4; bit 62 is the phase parity
//
// A `state` token (mbarrier.arrive's destination, 9.7.13.15.13) is the object's value before the
// arrive-on operation: it carries the phase the arrive belonged to, so test_wait/try_wait with an
// old state returns true once that phase has completed (up to three phases later), and
// mbarrier.pending_count reads the pending count it carries.
#pragma once

#include <cstdint>
#include <cstring>

namespace gputlm::func::mbarrier {

constexpr uint32_t kMaxCount = (1u << 20) - 1;  // largest arrival count and |tx-count|
constexpr int64_t kMaxTx = (1 << 20) - 1;

struct Fields {
  uint32_t pending = 0, expected = 0;
  int64_t tx = 0;
  bool valid = false;
  uint32_t phase = 0;  // modulo 4
};

inline Fields decode(uint64_t v) {
  Fields f;
  f.pending = static_cast<uint32_t>(v & kMaxCount);
  f.expected = static_cast<uint32_t>((v >> 20) & kMaxCount);
  const int64_t tx = static_cast<int64_t>((v >> 40) & ((1ull << 21) - 1));
  f.tx = tx >= (1 << 20) ? tx - (1 << 21) : tx;
  f.valid = (v >> 61) & 1;
  f.phase = static_cast<uint32_t>(v >> 62);
  return f;
}

inline uint64_t encode(const Fields& f) {
  return uint64_t{f.pending & kMaxCount} | uint64_t{f.expected & kMaxCount} << 20 |
         (static_cast<uint64_t>(f.tx) & ((1ull << 21) - 1)) << 40 | uint64_t{f.valid} << 61 |
         uint64_t{f.phase & 3} << 62;
}

// The phase a state token belongs to, and whether that phase has completed on an object now in
// phase `now` (9.7.13.15.16 test_wait: "tests for the completion of the phase indicated by state").
inline uint32_t phase_of_state(uint64_t state) { return static_cast<uint32_t>(state >> 62); }
inline bool state_phase_completed(const Fields& now, uint64_t state) {
  return ((now.phase - phase_of_state(state)) & 3) != 0;
}
// .parity form: phaseParity names the current or the immediately preceding phase; the one it
// names has completed when the current phase's parity differs from it.
inline bool parity_phase_completed(const Fields& now, uint64_t parity) {
  return (now.phase & 1) != (parity & 1);
}

// The current phase completes when its pending arrivals and its tx-count are both zero
// (9.7.13.15.3 "Phase Completion of the mbarrier object"): the phase advances, the pending count is
// reloaded with the expected count and the tx-count is reset. Returns whether it completed.
inline bool complete_phase_if_done(Fields& f) {
  if (f.pending != 0 || f.tx != 0) return false;
  f.phase = (f.phase + 1) & 3;
  f.pending = f.expected;
  f.tx = 0;
  return true;
}

// The arrive-on operation (9.7.13.15.4) of `count` arrivals, as the memory system performs it
// (at most the pending ones): the pending count drops and the phase may complete.
inline bool arrive(Fields& f, uint32_t count) {
  f.pending -= count < f.pending ? count : f.pending;
  return complete_phase_if_done(f);
}

// Decodes the object at p, applies `op` to its fields and stores it back (the memory system's
// read-modify-write of an object in shared memory).
template <class Op>
void update_at(uint8_t* p, Op&& op) {
  uint64_t word;
  std::memcpy(&word, p, 8);
  Fields f = decode(word);
  op(f);
  word = encode(f);
  std::memcpy(p, &word, 8);
}

// complete-tx (9.7.13.15.12): the tx-count drops by `bytes` and the phase may complete.
inline bool complete_tx(Fields& f, int64_t bytes) {
  f.tx -= bytes;
  return complete_phase_if_done(f);
}

}  // namespace gputlm::func::mbarrier
