// Test harness: runs a PTX snippet on the functional engine, one CTA of N threads. Each thread
// gets three 64-bit inputs, visible to the snippet as
//   %a %b %c (.b64), %ra %rb %rc (.b32, low halves), %ha %hb %hc (.b16), %fa %fb %fc (.f32,
//   low halves), %da %db %dc (.f64)
// and leaves its results in %o (.b64, zero unless written) and %p (.pred, false unless written).
// Further registers: %r1..%r9 (.b32), %rd1..%rd9 (.b64), %f1..%f9 (.f32), %q1..%q3 (.pred).
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "models/func/bound_kernel.h"
#include "models/func/func_stats.h"
#include "models/func/kernel_fault.h"
#include "models/isa/kernel.h"

namespace gputlm::test {

struct LaneOut {
  uint64_t o = 0;
  bool p = false;
};
using Inputs = std::array<uint64_t, 3>;

// Parses "test.ptx"; a kernel that fails throws its error (as a whole module would).
std::unique_ptr<isa::Module> parse(const std::string& ptx);
// Parses a module of one kernel `k()` whose body is `regs` (its .reg declarations) then `body`.
std::unique_ptr<isa::Module> parse_kernel(const std::string& regs, const std::string& body);
// The index of `k`'s register named `name`, or -1.
int32_t reg_index(const isa::Kernel& k, const std::string& name);
// The kernel text the snippet is wrapped in (useful for parser tests).
std::string snippet_kernel(const std::string& snippet);
// A one-CTA launch of a snippet kernel with its input/output buffers allocated, for tests that
// drive the engine themselves (step by step, or with their own options).
struct SnippetLaunch {
  SnippetLaunch(const std::string& snippet, const std::vector<Inputs>& inputs);
  std::vector<LaneOut> outputs() const;

  std::unique_ptr<isa::Module> module;
  std::unique_ptr<func::BoundKernel> bound;
  func::GlobalMemory memory;
  func::Launch launch;
  uint64_t in = 0, out = 0;
};

// Runs the snippet for inputs.size() threads (at most 1024); throws what the engine throws.
std::vector<LaneOut> run_snippet(const std::string& snippet, const std::vector<Inputs>& inputs,
                                 func::FuncStats* stats = nullptr);
// Expected %o of one thread from its inputs.
using LaneRef = std::function<uint64_t(uint64_t a, uint64_t b, uint64_t c)>;
// Runs the snippet over `inputs` and adds a GoogleTest failure for every thread whose %o differs
// from `ref` (the first six in detail), labelled `what`.
void expect_lanes(const std::string& what, const std::string& snippet,
                  const std::vector<Inputs>& inputs, const LaneRef& ref);

// The message of the kernel fault `run` ends with ("" if it ends without one).
inline std::string kernel_fault(const std::function<void()>& run) {
  try {
    run();
  } catch (const func::KernelFault& e) {
    return e.what();
  }
  return "";
}

// An intra-warp spin lock (tests of core.reconvergence): lane 0 takes the lock (thread 0's input
// %b) first; the others spin on it. Each lane in the critical section reads the counter (thread 0's
// %c), writes it back plus one and leaves the value it read in %o, then releases the lock.
inline const char* const kIntraWarpSpinLock = R"(
  ld.param.u64 %rd9, [pin];
$L_spin:
  atom.global.cas.b32 %r1, [%rd9+8], 0, 1;
  setp.ne.u32 %q1, %r1, 0;
  @%q1 bra $L_spin;
  ld.global.u32 %r2, [%rd9+16];
  add.u32 %r3, %r2, 1;
  st.global.u32 [%rd9+16], %r3;
  cvt.u64.u32 %o, %r2;
  membar.gl;
  atom.global.exch.b32 %r4, [%rd9+8], 0;)";

// Convenience for one thread.
LaneOut run1(const std::string& snippet, uint64_t a, uint64_t b = 0, uint64_t c = 0);

inline uint64_t f32_bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
inline float bits_f32(uint64_t b) {
  uint32_t u = static_cast<uint32_t>(b);
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
inline uint64_t f64_bits(double d) {
  uint64_t u;
  std::memcpy(&u, &d, 8);
  return u;
}
inline double bits_f64(uint64_t b) {
  double d;
  std::memcpy(&d, &b, 8);
  return d;
}

}  // namespace gputlm::test
