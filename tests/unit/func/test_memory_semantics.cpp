// Memory semantics (PTX ISA 9.7.9): vector ld/st on global memory, shared memory by symbol and
// by register, generic addressing through cvta, per-thread local memory, atomics (old value
// returned; several threads on one address give an order-independent final value), red, and
// the kernel faults for misaligned and out-of-allocation accesses.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <set>
#include <string>
#include <vector>

#include "models/func/kernel_fault.h"
#include "support/ptx_harness.h"

namespace gputlm::test {
namespace {

const char* kShared = ".shared .align 16 .b8 buf[256];\n";
const char* kLocal = ".local .align 8 .b8 loc[64];\n";
// %rd9 = thread 0's input slot (the same address for every thread): %in - tid * 24.
const char* kBase = "sub.s64 %rd9, %in, %off;\n";

TEST(MemorySemantics, VectorLoadsAndStoresOnGlobal) {
  const uint64_t a = 0x1111111122222222ull, b = 0x3333333344444444ull;
  EXPECT_EQ(run1("ld.global.v4.u32 {%r1, %r2, %r3, %r4}, [%in];\n mov.b64 %o, {%r4, %r1};", a, b).o,
            0x2222222233333333ull);
  EXPECT_EQ(run1("ld.global.v2.u64 {%rd1, %rd2}, [%in];\n mov.b64 %o, %rd2;", a, b).o, b);
  EXPECT_EQ(run1("ld.global.v2.u64 {%rd1, %rd2}, [%in];\n mov.b64 %o, %rd1;", a, b).o, a);
  EXPECT_EQ(run1("ld.global.v4.u32 {%r1, _, %r3, _}, [%in];\n mov.b64 %o, {%r1, %r3};", a, b).o,
            0x4444444422222222ull);
  // v4 store reverses the words: memory +8 then holds {a.hi, a.lo} as a little-endian u64.
  EXPECT_EQ(run1("ld.global.v4.u32 {%r1, %r2, %r3, %r4}, [%in];\n st.global.v4.u32 [%in], {%r4, "
                 "%r3, %r2, %r1};\n"
                 " ld.global.u64 %o, [%in+8];",
                 a, b)
                .o,
            0x2222222211111111ull);
  EXPECT_EQ(run1("st.global.v2.u64 [%in], {%b, %a};\n ld.global.u64 %o, [%in];", a, b).o, b);
  EXPECT_EQ(run1("ld.global.v2.f32 {%f1, %f2}, [%in+8];\n add.rn.f32 %f3, %f1, %f2;\n mov.b32 %r1, "
                 "%f3;\n cvt.u64.u32 %o, %r1;",
                 0, f32_bits(1.5f) | (f32_bits(2.25f) << 32))
                .o,
            f32_bits(3.75f));
  // Every thread of two warps, v2 at an 8-byte aligned per-thread address.
  std::vector<Inputs> in;
  for (unsigned i = 0; i < 40; ++i)
    in.push_back({i, 0x0000000100000000ull * i + 0xABCD0000u + i, 0});
  const auto out =
      run_snippet("ld.global.v2.u32 {%r1, %r2}, [%in+8];\n mov.b64 %o, {%r2, %r1};", in);
  for (unsigned i = 0; i < 40; ++i) EXPECT_EQ(out[i].o, (in[i][1] << 32) | (in[i][1] >> 32)) << i;
}

TEST(MemorySemantics, SharedMemoryBySymbolAndByRegisterIsSharedByTheCta) {
  // Each of 64 threads stores a.lo to buf[tid] through a register address, then reads its
  // neighbour's word through a 32-bit register address and buf[0], buf[63] by symbol.
  const std::string snip =
      std::string(kShared) +
      "mov.u64 %rd1, buf;\n mul.wide.u32 %rd2, %tid, 4;\n add.s64 %rd3, %rd1, %rd2;\n"
      "st.shared.u32 [%rd3], %ra;\n bar.sync 0;\n"
      "add.u32 %r1, %tid, 1;\n rem.u32 %r1, %r1, 64;\n shl.b32 %r1, %r1, 2;\n"
      "mov.u32 %r2, buf;\n add.u32 %r3, %r2, %r1;\n ld.shared.u32 %r4, [%r3];\n"
      "ld.shared.u32 %r5, [buf];\n ld.shared.u32 %r6, [buf+252];\n add.u32 %r7, %r5, %r6;\n"
      "mov.b64 %o, {%r4, %r7};";
  std::vector<Inputs> in;
  for (unsigned i = 0; i < 64; ++i) in.push_back({0x1000u + i * 7, 0, 0});
  const auto out = run_snippet(snip, in);
  const uint64_t ends = in[0][0] + in[63][0];
  for (unsigned i = 0; i < 64; ++i) EXPECT_EQ(out[i].o, in[(i + 1) % 64][0] | (ends << 32)) << i;
}

TEST(MemorySemantics, GenericAddressingThroughCvta) {
  const std::string pre =
      std::string(kShared) +
      "mov.u64 %rd1, buf;\n cvta.shared.u64 %rd2, %rd1;\n add.s64 %rd3, %rd2, 16;\n"
      "st.u64 [%rd3], %a;\n cvta.to.shared.u64 %rd4, %rd3;\n";
  const uint64_t a = 0xFEEDFACECAFEF00Dull;
  EXPECT_EQ(run1(pre + "ld.shared.u64 %o, [buf+16];", a).o, a);  // generic store landed in shared
  EXPECT_EQ(run1(pre + "ld.shared.u64 %o, [%rd4];", a).o, a);    // cvta.to.shared inverts cvta
  EXPECT_EQ(run1(pre + "sub.s64 %o, %rd4, %rd1;", a).o, 16u);
  EXPECT_EQ(run1(pre + "ld.u64 %o, [%rd3];", a).o, a);           // generic load of shared
  EXPECT_FALSE(run1(pre + "setp.eq.u64 %p, %rd2, %rd1;", a).p);  // generic != shared offset
  // A global address is a generic address.
  EXPECT_EQ(run1("ld.u64 %o, [%in+8];", 1, 0x5555).o, 0x5555u);
  EXPECT_EQ(
      run1("st.u32 [%in+16], %ra;\n ld.global.u64 %o, [%in+16];", 0x77, 0, 0xAAAAAAAA00000000ull).o,
      0xAAAAAAAA00000077ull);
  EXPECT_EQ(run1("cvta.global.u64 %rd1, %in;\n cvta.to.global.u64 %rd2, %rd1;\n ld.global.u64 %o, "
                 "[%rd2+8];",
                 0, 42)
                .o,
            42u);
}

TEST(MemorySemantics, LocalMemoryIsPrivateToEachThread) {
  const std::string snip =
      std::string(kLocal) +
      "st.local.u64 [loc+8], %a;\n mov.u64 %rd1, loc;\n cvta.local.u64 %rd2, %rd1;\n"
      "st.u64 [%rd2+16], %b;\n ld.local.u64 %o, [loc+8];\n ld.local.u64 %rd3, [loc+16];\n"
      "ld.u64 %rd4, [%rd2+8];\n setp.eq.u64 %q1, %rd3, %b;\n setp.eq.u64 %q2, %rd4, %a;\n"
      "and.pred %p, %q1, %q2;";
  std::vector<Inputs> in;
  for (unsigned i = 0; i < 48; ++i) in.push_back({0xA000000000ull + i, 0xB000000000ull + 3 * i, 0});
  const auto out = run_snippet(snip, in);
  for (unsigned i = 0; i < 48; ++i) {
    EXPECT_EQ(out[i].o, in[i][0]) << i;
    EXPECT_TRUE(out[i].p) << i;
  }
}

// One thread: "atom <op> %r1, [%in+16], ..." on c; returns {old, new}.
std::pair<uint32_t, uint32_t> atom32(const std::string& atom, uint32_t c, uint32_t b,
                                     uint32_t a = 0) {
  const uint64_t o =
      run1(atom + "\n ld.global.u32 %r2, [%in+16];\n mov.b64 %o, {%r1, %r2};", a, b, c).o;
  return {static_cast<uint32_t>(o), static_cast<uint32_t>(o >> 32)};
}
using P = std::pair<uint32_t, uint32_t>;

TEST(MemorySemantics, AtomicsReturnTheOldValueAndStoreTheNew) {
  const std::string rb = " %r1, [%in+16], %rb;";
  EXPECT_EQ(atom32("atom.global.add.u32" + rb, 10, 5), P(10, 15));
  EXPECT_EQ(atom32("atom.global.add.s32" + rb, 0x7FFFFFFF, 1), P(0x7FFFFFFF, 0x80000000));
  EXPECT_EQ(atom32("atom.global.min.s32" + rb, 0xFFFFFFFD, 2), P(0xFFFFFFFD, 0xFFFFFFFD));
  EXPECT_EQ(atom32("atom.global.min.s32" + rb, 5, 0xFFFFFFF9), P(5, 0xFFFFFFF9));
  EXPECT_EQ(atom32("atom.global.min.u32" + rb, 0xFFFFFFFD, 2), P(0xFFFFFFFD, 2));
  EXPECT_EQ(atom32("atom.global.max.s32" + rb, 0xFFFFFFFD, 2), P(0xFFFFFFFD, 2));
  EXPECT_EQ(atom32("atom.global.max.u32" + rb, 0xFFFFFFFD, 2), P(0xFFFFFFFD, 0xFFFFFFFD));
  EXPECT_EQ(atom32("atom.global.exch.b32" + rb, 7, 9), P(7, 9));
  EXPECT_EQ(atom32("atom.global.cas.b32 %r1, [%in+16], %rb, %ra;", 7, 7, 100),
            P(7, 100));  // match: swap
  EXPECT_EQ(atom32("atom.global.cas.b32 %r1, [%in+16], %rb, %ra;", 7, 8, 100),
            P(7, 7));  // no match
  EXPECT_EQ(atom32("atom.global.inc.u32" + rb, 3, 5), P(3, 4));
  EXPECT_EQ(atom32("atom.global.inc.u32" + rb, 5, 5), P(5, 0));  // old >= b wraps to 0
  EXPECT_EQ(atom32("atom.global.inc.u32" + rb, 9, 5), P(9, 0));
  EXPECT_EQ(atom32("atom.global.dec.u32" + rb, 3, 5), P(3, 2));
  EXPECT_EQ(atom32("atom.global.dec.u32" + rb, 0, 5), P(0, 5));  // 0 wraps to b
  EXPECT_EQ(atom32("atom.global.dec.u32" + rb, 9, 5), P(9, 5));  // old > b gives b
  EXPECT_EQ(atom32("atom.global.and.b32" + rb, 0xF0F0, 0xFF00), P(0xF0F0, 0xF000));
  EXPECT_EQ(atom32("atom.global.or.b32" + rb, 0xF0F0, 0xFF00), P(0xF0F0, 0xFFF0));
  EXPECT_EQ(atom32("atom.global.xor.b32" + rb, 0xF0F0, 0xFF00), P(0xF0F0, 0x0FF0));
  EXPECT_EQ(atom32("atom.add.u32" + rb, 1, 2), P(1, 3));  // generic space
  const auto f = run1(
                     "atom.global.add.f32 %f1, [%in+16], %fb;\n mov.b32 %r1, %f1;\n ld.global.u32 "
                     "%r2, [%in+16];\n"
                     " mov.b64 %o, {%r1, %r2};",
                     0, f32_bits(2.25f), f32_bits(1.5f))
                     .o;
  EXPECT_EQ(f, f32_bits(1.5f) | (f32_bits(3.75f) << 32));
  const auto w = run1(
      "atom.global.add.u64 %o, [%in+16], %b;\n ld.global.u64 %rd1, [%in+16];\n setp.eq.u64 %p, "
      "%rd1, %a;",
      0x100000000ull + 0xFFFFFFFFull + 7, 7, 0xFFFFFFFFull + 0x100000000ull);
  EXPECT_EQ(w.o, 0x1FFFFFFFFull);
  EXPECT_TRUE(w.p);
  EXPECT_EQ(run1("atom.global.cas.b64 %o, [%in+16], %a, %b;\n ld.global.u64 %rd1, [%in+16];\n "
                 "setp.eq.u64 %p, %rd1, %b;",
                 0x123456789ull, 0xABCDEF012ull, 0x123456789ull)
                .p,
            true);
}

TEST(MemorySemantics, AtomicAddFromManyThreadsIsOrderIndependent) {
  // 64 threads add 1 << tid to one 64-bit cell (initially 0): the final value has every bit,
  // and the old values, sorted, form a chain of subsets each one bit larger.
  std::vector<Inputs> in;
  for (unsigned i = 0; i < 64; ++i) in.push_back({0, 1ull << i, 0});
  const auto out = run_snippet(std::string(kBase) +
                                   "atom.global.add.u64 %o, [%rd9+16], %b;\n bar.sync 0;\n"
                                   "ld.global.u64 %rd1, [%rd9+16];\n setp.eq.u64 %p, %rd1, -1;",
                               in);
  std::vector<uint64_t> olds;
  for (unsigned i = 0; i < 64; ++i) {
    EXPECT_TRUE(out[i].p) << "final value seen by thread " << i;
    EXPECT_EQ(out[i].o & (1ull << i), 0u) << "thread " << i << " saw its own bit";
    olds.push_back(out[i].o);
  }
  std::sort(olds.begin(), olds.end(), [](uint64_t x, uint64_t y) {
    return __builtin_popcountll(x) < __builtin_popcountll(y);
  });
  for (unsigned i = 0; i < 64; ++i) {
    EXPECT_EQ(__builtin_popcountll(olds[i]), static_cast<int>(i));
    if (i + 1 < 64) {
      EXPECT_EQ(olds[i] & ~olds[i + 1], 0u);
    }
  }
}

TEST(MemorySemantics, AtomicMinMaxOrXorExchCasFromManyThreads) {
  std::vector<Inputs> in;
  const uint32_t init = 0x40000000;
  for (unsigned i = 0; i < 50; ++i)
    in.push_back({0x1000u + i, (i * 2654435761u) ^ 0x5A5A5A5Au, i == 0 ? init : 0});
  auto run = [&](const std::string& atom) {
    return run_snippet(
        std::string(kBase) + atom +
            "\n bar.sync 0;\n ld.global.u32 %r2, [%rd9+16];\n mov.b64 %o, {%r1, %r2};",
        in);
  };
  int32_t mn = int32_t(init), mx = int32_t(init);
  uint32_t orv = init, xorv = init;
  std::multiset<uint32_t> values = {init};
  for (const Inputs& t : in) {
    mn = std::min(mn, int32_t(uint32_t(t[1]))), mx = std::max(mx, int32_t(uint32_t(t[1])));
    orv |= uint32_t(t[1]), xorv ^= uint32_t(t[1]);
    values.insert(uint32_t(t[1]));
  }
  auto finals = [](const std::vector<LaneOut>& out, uint32_t want, const char* what) {
    for (size_t i = 0; i < out.size(); ++i)
      EXPECT_EQ(uint32_t(out[i].o >> 32), want) << what << " thread " << i;
  };
  finals(run("atom.global.min.s32 %r1, [%rd9+16], %rb;"), uint32_t(mn), "min");
  finals(run("atom.global.max.s32 %r1, [%rd9+16], %rb;"), uint32_t(mx), "max");
  finals(run("atom.global.or.b32 %r1, [%rd9+16], %rb;"), orv, "or");
  finals(run("atom.global.xor.b32 %r1, [%rd9+16], %rb;"), xorv, "xor");
  // exch: the old values plus the final value are the initial value plus every thread's value.
  const auto ex = run("atom.global.exch.b32 %r1, [%rd9+16], %rb;");
  std::multiset<uint32_t> seen = {uint32_t(ex[0].o >> 32)};
  for (const LaneOut& l : ex) seen.insert(uint32_t(l.o));
  EXPECT_EQ(seen, values);
  // cas(init -> own a): exactly one thread wins; everyone else sees the winner's value.
  const auto cas = run("atom.global.cas.b32 %r1, [%rd9+16], 0x40000000, %ra;");
  const uint32_t final_v = uint32_t(cas[0].o >> 32);
  int winners = 0;
  for (size_t i = 0; i < cas.size(); ++i) {
    if (uint32_t(cas[i].o) == init) {
      ++winners;
      EXPECT_EQ(final_v, uint32_t(in[i][0]));
    } else {
      EXPECT_EQ(uint32_t(cas[i].o), final_v) << i;
    }
  }
  EXPECT_EQ(winners, 1);
}

TEST(MemorySemantics, AtomSharedAndRedGlobal) {
  std::vector<Inputs> in;
  for (unsigned i = 0; i < 70; ++i) in.push_back({0, 3 * i + 1, i == 0 ? 1000u : 0u});
  const auto sh = run_snippet(std::string(kShared) +
                                  "atom.shared.add.u32 %r1, [buf+4], 1;\n bar.sync 0;\n"
                                  "ld.shared.u32 %r2, [buf+4];\n mov.b64 %o, {%r1, %r2};",
                              in);
  std::set<uint32_t> olds;
  for (const LaneOut& l : sh) {
    olds.insert(uint32_t(l.o));
    EXPECT_EQ(l.o >> 32, 70u);
  }
  EXPECT_EQ(olds.size(), 70u);
  EXPECT_EQ(*olds.rbegin(), 69u);  // a permutation of 0..69
  uint32_t sum = 1000;
  for (const Inputs& t : in) sum += uint32_t(t[1]);
  const auto red = run_snippet(
      std::string(kBase) +
          "red.global.add.u32 [%rd9+16], %rb;\n bar.sync 0;\n ld.global.u32 %r1, [%rd9+16];\n"
          "cvt.u64.u32 %o, %r1;",
      in);
  for (const LaneOut& l : red) EXPECT_EQ(l.o, sum);
  const auto exch =
      run_snippet(std::string(kShared) +
                      "st.shared.u32 [buf], 5;\n atom.shared.exch.b32 %r1, [buf], 9;\n"
                      "cvt.u64.u32 %o, %r1;",
                  {Inputs{0, 0, 0}});
  EXPECT_EQ(exch[0].o, 5u);
}

// The fault message of running `snippet` over n threads ("" if it does not fault).
std::string fault_of(const std::string& snippet, unsigned n) {
  try {
    run_snippet(snippet, std::vector<Inputs>(n, Inputs{0, 0, 0}));
  } catch (const func::KernelFault& e) {
    return e.what();
  }
  return "";
}
// PC of the first instruction whose text contains `needle` in the snippet's kernel.
uint32_t pc_of(const std::string& snippet, const std::string& needle) {
  auto m = parse(snippet_kernel(snippet));
  const auto& text = m->kernels.at(0)->text;
  for (uint32_t pc = 0; pc < text.size(); ++pc)
    if (text[pc].find(needle) != std::string::npos) return pc;
  ADD_FAILURE() << needle << " not found";
  return 0;
}
std::string hex(uint64_t v) {
  char b[32];
  std::snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(v));
  return b;
}
// A warp's memory instruction takes one check for all its lanes when they fall in one allocation
// or the shared block (memory_ops.cpp, access_warp); lanes of one generic load that reach both
// shared and global memory, or two allocations, go lane by lane, with the same results.
TEST(MemorySemantics, AWarpsGenericLoadReachingSharedAndGlobalGivesEachLaneItsOwn) {
  const std::string snip =
      std::string(kShared) +
      "mov.u64 %rd1, buf;\n cvta.shared.u64 %rd2, %rd1;\n mul.wide.u32 %rd4, %tid, 4;\n"
      "add.s64 %rd5, %rd2, %rd4;\n st.u32 [%rd5], %rb;\n bar.sync 0;\n"
      "and.b32 %r1, %tid, 1;\n setp.eq.u32 %q1, %r1, 0;\n selp.u64 %rd3, %rd5, %in, %q1;\n"
      "ld.u32 %r2, [%rd3];\n cvt.u64.u32 %o, %r2;";
  std::vector<Inputs> in;
  for (unsigned i = 0; i < 64; ++i) in.push_back({0xA000u + i, 0xB000u + i, 0});
  const auto out = run_snippet(snip, in);
  for (unsigned i = 0; i < 64; ++i) EXPECT_EQ(out[i].o, i % 2 == 0 ? in[i][1] : in[i][0]) << i;
  // A whole warp of loads through generic pointers all in shared memory.
  const auto same = run_snippet(snip + "\n ld.u32 %r3, [%rd5];\n cvt.u64.u32 %o, %r3;", in);
  for (unsigned i = 0; i < 64; ++i) EXPECT_EQ(same[i].o, in[i][1]) << i;
}

TEST(MemorySemantics, OneLaneOfAFullWarpOutsideTheAllocationFaultsOnThatLane) {
  // 32 threads; thread 21 reads 4 KB past its input slot, outside the 32 * 24-byte input buffer.
  const std::string snip =
      "setp.eq.u32 %q1, %tid, 21;\n selp.u64 %rd1, 4096, 0, %q1;\n add.s64 %rd2, %in, %rd1;\n"
      "ld.global.u32 %r1, [%rd2];";
  const std::string msg = fault_of(snip, 32);
  ASSERT_FALSE(msg.empty()) << "no fault";
  EXPECT_NE(msg.find("outside any allocation"), std::string::npos) << msg;
  EXPECT_NE(msg.find("thread (21,0,0)"), std::string::npos) << msg;
}

void expect_has(const std::string& msg, const std::string& part) {
  EXPECT_NE(msg.find(part), std::string::npos) << "missing '" << part << "' in: " << msg;
}

// A whole warp's shared addresses are first bounded by the bits all of them and any of them have
// (memory_ops.cpp, access_warp); when those bounds reach past a shared block whose size is not a
// power of two (208 bytes), the exact bounds decide. Lanes reading up to the block's last word are
// served; a lane one word past it faults with its own thread.
TEST(MemorySemantics, AWarpsSharedLoadsUpToTheLastWordOfAnOddSizedBlock) {
  const std::string pre =
      ".shared .align 16 .b8 odd[208];\n mov.u64 %rd1, odd;\n mul.wide.u32 %rd2, %tid, 4;\n"
      "add.s64 %rd3, %rd1, %rd2;\n st.shared.u32 [%rd3], %ra;\n bar.sync 0;\n";
  std::vector<Inputs> in;
  for (unsigned i = 0; i < 52; ++i) in.push_back({0xC000u + i, 0, 0});
  // Lane i of warp 0 reads word i + 18: bytes 72..196, whose bits reach 255.
  const auto out = run_snippet(
      pre +
          "add.u32 %r1, %tid, 18;\n rem.u32 %r1, %r1, 52;\n mul.wide.u32 %rd4, %r1, 4;\n"
          "add.s64 %rd5, %rd1, %rd4;\n ld.shared.u32 %r2, [%rd5];\n cvt.u64.u32 %o, %r2;",
      in);
  for (unsigned i = 0; i < 52; ++i) EXPECT_EQ(out[i].o, in[(i + 18) % 52][0]) << i;
  const std::string msg = fault_of(pre +
                                       "setp.eq.u32 %q1, %tid, 31;\n selp.u64 %rd4, 208, 0, %q1;\n"
                                       "add.s64 %rd5, %rd1, %rd4;\n ld.shared.u32 %r2, [%rd5];",
                                   52);
  expect_has(msg, "beyond the CTA's 208 bytes");
  expect_has(msg, "thread (31,0,0)");
}

TEST(MemorySemantics, MisalignedLoadFaultNamesKernelThreadPcInstructionAndAddress) {
  const std::string snip =
      "setp.eq.u32 %q1, %tid, 3;\n selp.u64 %rd1, 2, 0, %q1;\n add.s64 %rd2, %in, %rd1;\n"
      "ld.global.u32 %r1, [%rd2];";
  const uint64_t in3 =
      run_snippet("mov.b64 %o, %in;", std::vector<Inputs>(4, Inputs{0, 0, 0}))[3].o;
  const std::string msg = fault_of(snip, 4);
  ASSERT_FALSE(msg.empty()) << "no fault";
  expect_has(msg, "'t'");
  expect_has(msg, "misaligned");
  expect_has(msg, "thread (3,0,0)");
  expect_has(msg, "PC " + std::to_string(pc_of(snip, "ld.global.u32 %r1, [%rd2]")) + ",");
  expect_has(msg, "ld.global.u32 %r1, [%rd2]");
  expect_has(msg, "address " + hex(in3 + 2));
}

TEST(MemorySemantics, OutOfAllocationLoadFaultNamesKernelThreadPcInstructionAndAddress) {
  // Two threads: the input buffer holds 48 bytes, so [%in+40] is inside for thread 0 and
  // 16 bytes past the end for thread 1.
  const std::string snip = "ld.global.u32 %r1, [%in+40];";
  const uint64_t in1 =
      run_snippet("mov.b64 %o, %in;", std::vector<Inputs>(2, Inputs{0, 0, 0}))[1].o;
  const std::string msg = fault_of(snip, 2);
  ASSERT_FALSE(msg.empty()) << "no fault";
  expect_has(msg, "'t'");
  expect_has(msg, "outside any allocation");
  expect_has(msg, "thread (1,0,0)");
  expect_has(msg, "PC " + std::to_string(pc_of(snip, "ld.global.u32 %r1, [%in+40]")) + ",");
  expect_has(msg, "ld.global.u32 %r1, [%in+40]");
  expect_has(msg, "address " + hex(in1 + 40));
  // Shared memory beyond the declared bytes faults too.
  const std::string sh = fault_of(std::string(kShared) + "ld.shared.u32 %r1, [buf+256];", 1);
  expect_has(sh, "shared memory access beyond");
  expect_has(sh, "address 0x100");
}

}  // namespace
}  // namespace gputlm::test
