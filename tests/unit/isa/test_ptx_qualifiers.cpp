// The PTX front end on memory qualifiers, cache hints and literal operands (PTX ISA 9.7.9, 4.5):
// every form sm_70..sm_90 allows parses and binds, the .L2::cache_hint policy operand is taken,
// and literals are refused where ptxas 13 refuses them (one SourceError naming the line).
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "models/func/bound_kernel.h"
#include "models/isa/ptx_parser.h"
#include "support/input_error.h"

namespace gputlm::isa {
namespace {

// A kernel whose body holds `body` from line 8; parsed and bound (bind errors throw too).
std::string kernel(const std::string& body) {
  return ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 p)\n{\n"
         "  .reg .b32 %r<8>; .reg .b64 %rd<8>; .reg .pred %p<4>; .reg .f32 %f<4>;\n  .shared "
         ".align 8 .b8 sh[64];\n" +
         body + "\n  ret;\n}\n";
}
void parse_and_bind(const std::string& body) {
  auto m = parse_ptx(kernel(body), "k.ptx");
  m->require_all_kernels();
  func::BoundKernel bound(*m->kernels.at(0));
}

TEST(PtxQualifiers, LoadsAndStoresTakeEveryCacheOperatorAndOrdering) {
  for (const char* q : {"ca",
                        "cg",
                        "cs",
                        "lu",
                        "cv",
                        "nc",
                        "relaxed.gpu",
                        "acquire.cta",
                        "relaxed.sys",
                        "volatile",
                        "relaxed.cluster",
                        "mmio.relaxed.sys",
                        "weak",
                        "L1::evict_normal",
                        "L1::evict_unchanged",
                        "L1::evict_first",
                        "L1::evict_last",
                        "L1::no_allocate",
                        "L2::evict_first",
                        "L2::evict_last",
                        "L2::64B",
                        "L2::128B",
                        "L2::256B",
                        "nc.L1::no_allocate.L2::256B"})
    EXPECT_NO_THROW(parse_and_bind(std::string("ld.global.") + q + ".u32 %r1, [%rd1];")) << q;
  for (const char* q : {"wb", "cg", "cs", "wt", "relaxed.gpu", "release.sys", "volatile",
                        "L1::no_allocate", "L2::evict_last"})
    EXPECT_NO_THROW(parse_and_bind(std::string("st.global.") + q + ".u32 [%rd1], %r1;")) << q;
  // What CUB emits today.
  EXPECT_NO_THROW(parse_and_bind(
      "ld.relaxed.gpu.v2.u32 {%r1, %r2}, [%rd1];\n st.relaxed.gpu.v2.u32 [%rd1], {%r1, %r2};"));
}

// The timing model reads .cg (an L1 with bypass_cg passes the load on); the others are recorded.
TEST(PtxQualifiers, ALoadsOrStoresCacheOperatorIsRecorded) {
  auto m = parse_ptx(kernel("ld.global.cg.u32 %r1, [%rd1];\n ld.global.u32 %r2, [%rd1];\n"
                            "ld.global.cs.u32 %r3, [%rd1];\n st.global.wt.u32 [%rd1], %r1;"),
                     "k.ptx");
  const std::vector<Instruction>& code = m->kernels.at(0)->code;
  EXPECT_EQ(code.at(0).cache_op, CacheOp::Cg);
  EXPECT_EQ(code.at(1).cache_op, CacheOp::None);
  EXPECT_EQ(code.at(2).cache_op, CacheOp::Cs);
  EXPECT_EQ(code.at(3).cache_op, CacheOp::Wt);
}

TEST(PtxQualifiers, EveryStateSpaceIncludingSharedClusterParses) {
  EXPECT_NO_THROW(
      parse_and_bind("ld.shared::cta.u32 %r1, [sh];\n st.shared::cluster.u32 [sh+4], %r1;\n"
                     "ld.shared::cluster.u32 %r2, [%r3];\n ld.param::entry.u64 %rd2, [p];\n"
                     "ld.local.u32 %r1, [%rd1];\n ld.const.u32 %r1, [%rd1];"));
}

TEST(PtxQualifiers, CacheHintAddsAPolicyOperandAtTheEnd) {
  EXPECT_NO_THROW(
      parse_and_bind("createpolicy.fractional.L2::evict_last.b64 %rd5, 1.0;\n"
                     "ld.global.L2::cache_hint.u32 %r1, [%rd1], %rd5;\n"
                     "ld.global.nc.L1::evict_last.L2::cache_hint.v2.u32 {%r1, %r2}, [%rd1], %rd5;\n"
                     "st.global.L2::cache_hint.u32 [%rd1], %r1, %rd5;\n"
                     "atom.global.L2::cache_hint.add.u32 %r1, [%rd1], 1, %rd5;\n"
                     "atom.global.L2::cache_hint.cas.b32 %r1, [%rd1], 1, 2, %rd5;\n"
                     "red.global.L2::cache_hint.add.u32 [%rd1], 1, %rd5;"));
  auto m = parse_ptx(kernel("ld.global.L2::cache_hint.u32 %r1, [%rd1], %rd5;"), "k.ptx");
  const Instruction& ld = m->kernels.at(0)->code.at(0);
  EXPECT_TRUE(ld.has(kCacheHint));
  EXPECT_EQ(ld.nops, 3u);
}

TEST(PtxQualifiers, AtomicsTakeSemanticsAndScopeInEitherOrder) {
  for (const char* q :
       {"acq_rel.gpu", "gpu.acq_rel", "relaxed.cta", "sys.release", "acquire.cluster", "sc.gpu"}) {
    EXPECT_NO_THROW(parse_and_bind(std::string("atom.") + q + ".global.add.u32 %r1, [%rd1], 1;"))
        << q;
    EXPECT_NO_THROW(parse_and_bind(std::string("red.") + q + ".global.add.u32 [%rd1], 1;")) << q;
  }
}

TEST(PtxQualifiers, PrefetchFencesAndCacheControlParse) {
  EXPECT_NO_THROW(parse_and_bind(
      "prefetch.global.L1 [%rd1];\n prefetch.global.L2 [%rd1];\n prefetch.local.L1 [%rd1];\n "
      "prefetch.L2 [%rd1];\n"
      "prefetch.global.L2::evict_last [%rd1];\n prefetch.global.L2::evict_normal [%rd1];\n "
      "prefetchu.L1 [%rd1];\n"
      "applypriority.global.L2::evict_normal [%rd1], 128;\n discard.global.L2 [%rd1], 128;\n"
      "fence.sc.gpu;\n fence.acq_rel.cta;\n fence.acq_rel.sys;\n fence.sc.cluster;\n "
      "fence.proxy.alias;\n"
      "fence.proxy.async;\n fence.proxy.async.global;\n fence.proxy.async.shared::cta;\n"
      "membar.cta;\n membar.gl;\n membar.sys;\n nanosleep.u32 100;\n nanosleep.u32 %r1;"));
}

TEST(PtxQualifiers, CvtaAndIsspacepForms) {
  EXPECT_NO_THROW(
      parse_and_bind("cvta.global.u64 %rd2, %rd1;\n cvta.to.global.u64 %rd2, %rd1;\n"
                     "cvta.shared.u64 %rd2, %rd1;\n cvta.to.shared.u64 %rd2, %rd1;\n"
                     "cvta.shared::cluster.u64 %rd2, %rd1;\n cvta.local.u64 %rd2, %rd1;\n"
                     "cvta.to.local.u64 %rd2, %rd1;\n cvta.const.u64 %rd2, %rd1;\n"
                     "cvta.to.shared.u32 %r2, %rd1;\n isspacep.global %p1, %rd1;\n"
                     "isspacep.shared %p1, %rd1;\n isspacep.shared::cta %p1, %rd1;\n"
                     "isspacep.shared::cluster %p1, %rd1;\n isspacep.local %p1, %rd1;\n"
                     "isspacep.const %p1, %rd1;\n isspacep.param %p1, %rd1;"));
}

TEST(PtxQualifiers, CreatepolicyFractionalRangeAndCvt) {
  EXPECT_NO_THROW(parse_and_bind(
      "createpolicy.fractional.L2::evict_last.b64 %rd1;\n"
      "createpolicy.fractional.L2::evict_last.L2::evict_unchanged.b64 %rd1, 0.5;\n"
      "createpolicy.fractional.L2::evict_first.b64 %rd1, 0f3F000000;\n"
      "createpolicy.fractional.L2::evict_normal.b64 %rd1, %f1;\n"
      "createpolicy.range.L2::evict_last.L2::evict_first.b64 %rd1, [%rd2], 1024, 4096;\n"
      "createpolicy.cvt.L2.b64 %rd1, %rd2;"));
}

// ptxas accepts any 64-bit integer literal for an integer operand (it reads the low bits).
TEST(PtxQualifiers, IntegerLiteralsOfAnyWidthAreAccepted) {
  EXPECT_NO_THROW(
      parse_and_bind("add.u32 %r1, %r2, -1;\n and.b32 %r1, %r2, 0xFFFFFFFF;\n"
                     "mul.wide.s32 %rd5, %r1, 4294967295;\n mov.b64 %rd1, 0xFFFFFFFFFFFFFFFF;"));
  test::input_error([] { parse_and_bind("mov.u32 %r1, 99999999999999999999999;"); },
                    {"k.ptx:8:", "99999999999999999999999"});
}

// ptxas: "Arguments mismatch" for a float literal in a .u/.s operand or a .b operand of another
// width.
TEST(PtxQualifiers, FloatLiteralInAnIntegerOperandIsAnErrorNamingTheLine) {
  test::input_error([] { parse_and_bind("add.u32 %r1, %r2, 0f3F800000;"); },
                    {"k.ptx:8:", "floating-point literal", ".u32"});
  test::input_error([] { parse_and_bind("mov.u32 %r1, 1.5;"); },
                    {"k.ptx:8:", "floating-point literal"});
  test::input_error([] { parse_and_bind("mov.b32 %r1, 0d3FF0000000000000;"); },
                    {"k.ptx:8:", ".b32"});
  test::input_error([] { parse_and_bind("mov.u32 %r1, 0;\n  setp.lt.s32 %p1, %r1, 2.0;"); },
                    {"k.ptx:9:", ".s32"});
  EXPECT_NO_THROW(
      parse_and_bind("mov.b32 %r1, 0f3F800000;\n and.b32 %r1, %r1, 0f7FFFFFFF;\n mov.b64 %rd1, "
                     "0d3FF0000000000000;"));
}

// Programmatic dependent launch (sm_90, cudaLaunchAttributeProgrammaticStreamSerialization):
// both forms parse and run (launches are serialised, so .wait has nothing to wait for); the bare
// opcode is an error naming the line.
TEST(PtxQualifiers, GriddepcontrolTakesWaitOrLaunchDependents) {
  EXPECT_NO_THROW(parse_and_bind("griddepcontrol.wait;\n griddepcontrol.launch_dependents;"));
  test::input_error([] { parse_and_bind("griddepcontrol;"); },
                    {"k.ptx:8:", ".wait", ".launch_dependents"});
  test::input_error([] { parse_and_bind("griddepcontrol.wait.launch_dependents;"); },
                    {"k.ptx:8:", "griddepcontrol"});
}

}  // namespace
}  // namespace gputlm::isa
