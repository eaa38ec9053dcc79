// The dissertation's database-search instructions (chapter 7) on the functional engine:
// cond.acc (COND_ACC, section 7.1) writes the sources of the lanes whose predicate holds
// contiguously from the warp's base, with no gap and nothing lost, and returns the count;
// tree.traverse (TREE_TRAVERSE, section 7.2.1) gives base + (true predicates) x nodesize.
// Every mask pattern class is checked against a count made here from the inputs.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "models/func/kernel_fault.h"
#include "models/func/reference_executor.h"
#include "models/isa/instruction.h"
#include "support/ptx_harness.h"

namespace gputlm::test {
namespace {

constexpr unsigned kWarp = 32;

// A warp's 32 (predicate, active) pairs as two masks.
struct Pattern {
  const char* name;
  uint32_t pred;
  uint32_t active;
};

std::vector<Pattern> patterns() {
  std::mt19937 rng(7);
  std::vector<Pattern> p = {
      {"all", 0xFFFFFFFFu, 0xFFFFFFFFu},
      {"none", 0, 0xFFFFFFFFu},
      {"first lane", 1u, 0xFFFFFFFFu},
      {"last lane", 1u << 31, 0xFFFFFFFFu},
      {"middle lane", 1u << 13, 0xFFFFFFFFu},
      {"alternating", 0xAAAAAAAAu, 0xFFFFFFFFu},
      {"low half", 0x0000FFFFu, 0xFFFFFFFFu},
      {"high half", 0xFFFF0000u, 0xFFFFFFFFu},
      {"sparse", 0x80100401u, 0xFFFFFFFFu},
      {"divergent, mixed", 0x0F0F0F0Fu, 0x00FFFF00u},
      {"divergent, none active true", 0xFF0000FFu, 0x00FFFF00u},
      {"one lane active", 0xFFFFFFFFu, 1u << 9},
  };
  for (int i = 0; i < 4; ++i)
    p.push_back({"random", static_cast<uint32_t>(rng()), static_cast<uint32_t>(rng()) | 1u});
  return p;
}

// One warp per pattern: thread t's %a is its predicate, %b whether it takes part, %c its source.
std::vector<Inputs> inputs_of(const std::vector<Pattern>& ps) {
  std::vector<Inputs> in;
  for (size_t w = 0; w < ps.size(); ++w)
    for (unsigned lane = 0; lane < kWarp; ++lane)
      in.push_back(
          {(ps[w].pred >> lane) & 1u, (ps[w].active >> lane) & 1u, 0xC0DE0000u + w * kWarp + lane});
  return in;
}

// The lanes with %b == 0 branch around `body`; the others run it.
std::string divergent(const std::string& body) {
  return "setp.ne.u32 %q1, %ra, 0;\n setp.eq.u32 %q2, %rb, 0;\n @%q2 bra SKIP;\n" + body +
         "\nSKIP:\n";
}

// cond.acc into the warp's own stretch of the input buffer (each warp's 32 inputs take 768 bytes,
// read before the instruction): base = in + warp * 768.
std::string cond_acc_snippet(const char* type, const char* src) {
  return divergent(
      std::string(
          "ld.param.u64 %rd1, [pin];\n shr.u32 %r1, %tid, 5;\n mul.wide.u32 %rd2, %r1, 768;\n"
          " add.s64 %rd1, %rd1, %rd2;\n cond.acc.global.") +
      type + " %r2, [%rd1], %q1, " + src + ";\n cvt.u64.u32 %o, %r2;\n mov.pred %p, 1;");
}

template <class T>
void check_cond_acc(const char* type, const char* src) {
  const auto ps = patterns();
  const auto in = inputs_of(ps);
  SnippetLaunch run(cond_acc_snippet(type, src), in);
  func::run_reference(*run.bound, run.launch);
  const auto out = run.outputs();
  for (size_t w = 0; w < ps.size(); ++w) {
    const uint32_t writers = ps[w].pred & ps[w].active;
    const unsigned count = static_cast<unsigned>(__builtin_popcount(writers));
    std::vector<T> want, got(kWarp * 24 / sizeof(T));
    for (unsigned lane = 0; lane < kWarp; ++lane)
      if (writers >> lane & 1) want.push_back(static_cast<T>(in[w * kWarp + lane][2]));
    run.memory.read(run.in + w * 768, got.data(), got.size() * sizeof(T));
    std::vector<T> written(got.begin(), got.begin() + count);
    std::sort(written.begin(), written.end());
    EXPECT_EQ(written, want) << ps[w].name << " (" << type << "): the first " << count
                             << " elements are the writers' sources";
    // Past the written elements the warp's inputs are as they were: nothing else was written.
    std::vector<uint8_t> original(768), now(768);
    std::memcpy(original.data(), &in[w * kWarp], 768);
    run.memory.read(run.in + w * 768, now.data(), 768);
    EXPECT_TRUE(std::equal(original.begin() + count * sizeof(T), original.end(),
                           now.begin() + count * sizeof(T)))
        << ps[w].name << " (" << type << "): bytes past the " << count << " elements changed";
    for (unsigned lane = 0; lane < kWarp; ++lane) {
      const LaneOut& o = out[w * kWarp + lane];
      if (ps[w].active >> lane & 1)
        EXPECT_EQ(o.o, count) << ps[w].name << ", lane " << lane << ": the count";
      else
        EXPECT_FALSE(o.p) << ps[w].name << ", lane " << lane << " did not take part";
    }
  }
}

TEST(DbInstructions, CondAccWritesTheTrueLanesContiguouslyAndCountsThem) {
  check_cond_acc<uint32_t>("u32", "%rc");
}

TEST(DbInstructions, CondAccOfEightByteElementsStepsEightBytes) {
  check_cond_acc<uint64_t>("b64", "%c");
}

TEST(DbInstructions, CondAccToSharedMemory) {
  // Each warp accumulates into its 1KB of a shared buffer (Table 8.1: 1KB a warp), then reads
  // back the first element and the count.
  const std::string body =
      ".shared .align 4 .b8 buf[4096];\n"
      "setp.ne.u32 %q1, %ra, 0;\n shr.u32 %r1, %tid, 5;\n shl.b32 %r1, %r1, 10;\n mov.u32 %r3, "
      "buf;\n add.u32 %r3, %r3, %r1;\n"
      "cond.acc.shared.u32 %r2, [%r3], %q1, %tid;\n bar.sync 0;\n ld.shared.u32 %r4, [%r3];\n"
      "mov.b64 %o, {%r2, %r4};";
  std::vector<Inputs> in(128);
  for (unsigned t = 0; t < in.size(); ++t) in[t] = {(t % 32) >= 20 || t / 32 == 1 ? 1u : 0u, 1, 0};
  const auto out = run_snippet(body, in);
  for (unsigned t = 0; t < in.size(); ++t) {
    const unsigned w = t / 32, count = w == 1 ? 32 : 12, first = w * 32 + (w == 1 ? 0 : 20);
    EXPECT_EQ(uint32_t(out[t].o), count) << "thread " << t;
    EXPECT_EQ(uint32_t(out[t].o >> 32), first)
        << "thread " << t << ": the lowest writing thread comes first";
  }
}

TEST(DbInstructions, CondAccWithDifferentBasesInOneWarpIsAFault) {
  const std::string s = "setp.ne.u32 %q1, %ra, 0;\n cond.acc.global.u32 %r2, [%in], %q1, %tid;";
  try {
    run_snippet(s, std::vector<Inputs>(32, Inputs{1, 0, 0}));
    FAIL() << "no fault";
  } catch (const func::KernelFault& f) {
    EXPECT_NE(std::string(f.what()).find("cond.acc: the base address differs"), std::string::npos)
        << f.what();
  }
}

TEST(DbInstructions, TreeTraverseAddsTheTrueCountTimesTheNodeSize) {
  const auto ps = patterns();
  const auto in = inputs_of(ps);
  for (const uint32_t size : {1u, 32u, 1024u, 1u << 20}) {
    const std::string s = divergent("tree.traverse.u32 %r2, 5000, %q1, " + std::to_string(size) +
                                    ";\n cvt.u64.u32 %o, %r2;\n mov.pred %p, 1;");
    const auto out = run_snippet(s, in);
    for (size_t w = 0; w < ps.size(); ++w)
      for (unsigned lane = 0; lane < kWarp; ++lane) {
        if (!(ps[w].active >> lane & 1)) continue;
        const uint64_t want = 5000 + uint64_t(__builtin_popcount(ps[w].pred & ps[w].active)) * size;
        EXPECT_EQ(out[w * kWarp + lane].o, want)
            << ps[w].name << ", node size " << size << ", lane " << lane;
      }
  }
}

TEST(DbInstructions, TreeTraverseTakesRegistersAndSixtyFourBitIndices) {
  // base from a register (the same in every lane), node size 2^33 in a register.
  const std::string s =
      "setp.ne.u32 %q1, %ra, 0;\n mov.u64 %rd1, 0x100000000;\n mov.u64 %rd2, 0x200000000;\n"
      "tree.traverse.u64 %o, %rd1, %q1, %rd2;";
  std::vector<Inputs> in(32);
  for (unsigned t = 0; t < 32; ++t) in[t] = {t < 3 ? 1u : 0u, 0, 0};
  for (const LaneOut& o : run_snippet(s, in)) EXPECT_EQ(o.o, 0x100000000ull + 3 * 0x200000000ull);
}

TEST(DbInstructions, TreeTraverseNodeSizeMustBeAPowerOfTwo) {
  try {
    run_snippet("setp.ne.u32 %q1, %ra, 0;\n tree.traverse.u32 %r2, 0, %q1, 30;",
                std::vector<Inputs>(32, Inputs{1, 0, 0}));
    FAIL() << "no fault";
  } catch (const func::KernelFault& f) {
    EXPECT_NE(std::string(f.what()).find("node size 30 is not a power of two"), std::string::npos)
        << f.what();
  }
}

TEST(DbInstructions, ParserKnowsTheInstructionsAndTheRowHint) {
  const auto m =
      parse(snippet_kernel("setp.ne.u32 %q1, %ra, 0;\n cond.acc.global.u32 %r2, [%in], %q1, %rc;\n "
                           "tree.traverse.u32 %r3, %r2, %q1, 32;\n"
                           "ld.global.rowhint.u32 %r4, [%in];\n ld.global.u32 %r5, [%in];"));
  const isa::Kernel& k = *m->kernels.at(0);
  auto find = [&](isa::Opcode op, int nth = 0) -> const isa::Instruction& {
    for (const isa::Instruction& in : k.code)
      if (in.op == op && nth-- == 0) return in;
    throw std::runtime_error("not found");
  };
  const isa::Instruction& acc = find(isa::Opcode::CondAcc);
  EXPECT_EQ(acc.space, isa::Space::Global);
  EXPECT_TRUE(acc.is_store());
  EXPECT_EQ(isa::instruction_class(acc), isa::InstrClass::PrefixSum);
  EXPECT_EQ(isa::instr_class_name(isa::InstrClass::PrefixSum), "prefix_sum");
  EXPECT_EQ(isa::instruction_class(find(isa::Opcode::TreeTraverse)), isa::InstrClass::PrefixSum);
  EXPECT_FALSE(find(isa::Opcode::TreeTraverse).is_memory());
  // The loads of the harness come first; the snippet's are the last two.
  std::vector<const isa::Instruction*> loads;
  for (const isa::Instruction& in : k.code)
    if (in.is_load()) loads.push_back(&in);
  ASSERT_GE(loads.size(), 2u);
  EXPECT_TRUE(loads[loads.size() - 2]->has(isa::kRowHint));
  EXPECT_FALSE(loads.back()->has(isa::kRowHint));
}

TEST(DbInstructions, ParserRejectsMisuse) {
  auto error = [](const std::string& snippet) {
    try {
      parse(snippet_kernel(snippet));
    } catch (const std::exception& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_NE(
      error("st.global.rowhint.u32 [%in], %ra;").find(".rowhint applies to global loads only"),
      std::string::npos);
  EXPECT_NE(
      error("ld.shared.rowhint.u32 %r1, [%in];").find(".rowhint applies to global loads only"),
      std::string::npos);
  EXPECT_NE(error("setp.ne.u32 %q1, %ra, 0;\n cond.acc.local.u32 %r2, [%in], %q1, %rc;")
                .find("cond.acc writes to"),
            std::string::npos);
  EXPECT_NE(error("setp.ne.u32 %q1, %ra, 0;\n cond.acc.u32 %r2, %in, %q1, %rc;").find("[base]"),
            std::string::npos);
  EXPECT_NE(error("tree.traverse.u32 %r2, 0, %ra, 32;").find("predicate"), std::string::npos);
  EXPECT_NE(error("cond.add.u32 %r2, %ra, %rb, %rc;").find("unknown opcode 'cond'"),
            std::string::npos);
}

}  // namespace
}  // namespace gputlm::test
