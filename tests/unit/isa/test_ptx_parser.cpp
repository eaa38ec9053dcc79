// PTX front end: decoding per instruction family, declarations and their layout, scopes, and
// one clear error (file, line, text) for every kind of bad input.
#include <gtest/gtest.h>

#include "models/common/error.h"
#include "models/func/bound_kernel.h"
#include "models/isa/ptx_parser.h"
#include "support/ptx_harness.h"

namespace gputlm::isa {
namespace {

const char* kHeader = ".version 9.0\n.target sm_75\n.address_size 64\n";

// Parses `body` as the body of kernel k (with a few registers declared) and returns it.
std::unique_ptr<Module> body(const std::string& text) {
  return test::parse(
      std::string(kHeader) +
      ".visible .entry k(.param .u64 k_p0, .param .u32 k_p1)\n{\n"
      "  .reg .pred %p<4>;\n  .reg .b32 %r<10>;\n  .reg .b64 %rd<10>;\n  .reg .f32 %f<10>;\n"
      "  .shared .align 4 .b8 smem[128];\n" +
      text + "\n  ret;\n}\n");
}
const Instruction& first(const Module& m) { return m.kernels.at(0)->code.at(0); }

// The error message of parsing `ptx` (empty if it parses).
std::string parse_error(const std::string& ptx) {
  try {
    test::parse(ptx);
  } catch (const SourceError& e) {
    return e.what();
  }
  return "";
}

TEST(PtxParser, ArithmeticCarriesTypeAndModifiers) {
  auto m = body("mad.lo.s32 %r1, %r2, %r3, %r4;");
  const Instruction& in = first(*m);
  EXPECT_EQ(in.op, Opcode::Mad);
  EXPECT_EQ(in.type, DType::S32);
  EXPECT_EQ(in.mul, MulMode::Lo);
  ASSERT_EQ(in.nops, 4);
  EXPECT_EQ(in.ops[0].kind, OperandKind::Reg);
  EXPECT_EQ(m->kernels[0]->regs[in.ops[0].reg].name, "%r1");
}

TEST(PtxParser, FloatModifiersAndHexImmediates) {
  auto m = body("fma.rm.ftz.sat.f32 %f1, %f2, 0f3F800000, 0fBF000000;");
  const Instruction& in = first(*m);
  EXPECT_EQ(in.op, Opcode::Fma);
  EXPECT_EQ(in.rnd, Round::Rm);
  EXPECT_TRUE(in.has(kFtz));
  EXPECT_TRUE(in.has(kSat));
  EXPECT_EQ(in.ops[2].kind, OperandKind::Imm);
  EXPECT_EQ(in.ops[2].imm, 0x3F800000);
  EXPECT_EQ(in.ops[3].imm, 0xBF000000);
}

TEST(PtxParser, NegativeDecimalAndDoubleImmediates) {
  auto m = body("add.s32 %r1, %r2, -7;\n mov.b64 %rd1, 0d3FF0000000000000;\n mov.u32 %r3, 0x1F;");
  const auto& code = m->kernels[0]->code;
  EXPECT_EQ(code[0].ops[2].imm, -7);
  EXPECT_EQ(code[1].ops[1].imm, 0x3FF0000000000000);
  EXPECT_EQ(code[2].ops[1].imm, 31);
}

TEST(PtxParser, CvtHasDestinationAndSourceTypes) {
  auto m = body("cvt.rzi.s32.f32 %r1, %f1;");
  const Instruction& in = first(*m);
  EXPECT_EQ(in.type, DType::S32);
  EXPECT_EQ(in.type2, DType::F32);
  EXPECT_EQ(in.rnd, Round::Rzi);
}

TEST(PtxParser, SetpComparisonBoolOpAndDualDestination) {
  auto m = body("setp.lt.and.s32 %p1|%p2, %r1, %r2, !%p3;");
  const Instruction& in = first(*m);
  EXPECT_EQ(in.cmp, CmpOp::Lt);
  EXPECT_EQ(in.boolop, BoolOp::And);
  EXPECT_GE(in.dst2, 0);
  EXPECT_EQ(m->kernels[0]->regs[in.dst2].name, "%p2");
  EXPECT_TRUE(in.ops[3].negate);
}

TEST(PtxParser, LoIsAComparisonForSetpButAHalfForMul) {
  EXPECT_EQ(first(*body("setp.lo.u32 %p1, %r1, %r2;")).cmp, CmpOp::Lo);
  EXPECT_EQ(first(*body("mul.lo.u32 %r1, %r1, %r2;")).mul, MulMode::Lo);
  EXPECT_EQ(first(*body("mul.hi.u32 %r1, %r1, %r2;")).mul, MulMode::Hi);
  EXPECT_EQ(first(*body("mul.wide.u32 %rd1, %r1, %r2;")).mul, MulMode::Wide);
}

TEST(PtxParser, GuardPredicateAndNegation) {
  auto m = body("@%p1 add.s32 %r1, %r1, 1;\n@!%p2 bra $L1;\n$L1:");
  const auto& code = m->kernels[0]->code;
  EXPECT_GE(code[0].guard, 0);
  EXPECT_FALSE(code[0].guard_neg);
  EXPECT_TRUE(code[1].guard_neg);
  EXPECT_EQ(code[1].ops[0].kind, OperandKind::Label);
  EXPECT_EQ(code[1].ops[0].imm, 2);  // $L1 labels the instruction after the branch
}

TEST(PtxParser, AddressingRegisterPlusOffsetAndSymbols) {
  auto m = body(
      "ld.global.f32 %f1, [%rd1+16];\n ld.global.u32 %r1, [%rd1+-4];\n"
      "ld.param.u32 %r2, [k_p1];\n ld.shared.u32 %r3, [smem+8];\n st.shared.u32 [%r4], %r3;");
  const auto& code = m->kernels[0]->code;
  EXPECT_EQ(code[0].space, Space::Global);
  EXPECT_EQ(code[0].ops[1].kind, OperandKind::Address);
  EXPECT_EQ(code[0].ops[1].imm, 16);
  EXPECT_EQ(code[1].ops[1].imm, -4);
  EXPECT_EQ(code[2].ops[1].reg, -1);
  EXPECT_EQ(code[2].ops[1].imm, 8);  // k_p1 follows the 8-byte k_p0
  EXPECT_EQ(code[3].ops[1].imm, 8);  // smem is at shared offset 0
  EXPECT_EQ(code[4].ops[0].kind, OperandKind::Address);
}

TEST(PtxParser, VectorOperandsWithWidth) {
  auto m =
      body("ld.global.v4.f32 {%f1, %f2, %f3, %f4}, [%rd1];\n st.global.v2.u32 [%rd2], {%r1, %r2};");
  const auto& code = m->kernels[0]->code;
  EXPECT_EQ(code[0].vec, 4);
  EXPECT_EQ(code[0].ops[0].kind, OperandKind::Vector);
  EXPECT_EQ(code[0].ops[0].vec_n, 4);
  EXPECT_EQ(code[1].vec, 2);
  EXPECT_EQ(code[1].ops[1].vec_n, 2);
}

TEST(PtxParser, SpecialRegisters) {
  auto m = body(
      "mov.u32 %r1, %tid.y;\n mov.u32 %r2, %ctaid.z;\n mov.u32 %r3, %laneid;\n mov.u32 %r4, "
      "%lanemask_lt;");
  const auto& code = m->kernels[0]->code;
  EXPECT_EQ(code[0].ops[1].kind, OperandKind::Special);
  EXPECT_EQ(code[0].ops[1].sreg, SReg::Tid);
  EXPECT_EQ(code[0].ops[1].comp, 1);
  EXPECT_EQ(code[1].ops[1].sreg, SReg::Ctaid);
  EXPECT_EQ(code[1].ops[1].comp, 2);
  EXPECT_EQ(code[2].ops[1].sreg, SReg::Laneid);
  EXPECT_EQ(code[3].ops[1].sreg, SReg::LanemaskLt);
}

TEST(PtxParser, AtomicsVoteShuffleBarrierAndCvta) {
  auto m = body(
      "atom.global.cas.b32 %r1, [%rd1], %r2, %r3;\n red.shared.add.u32 [%r4], 1;\n"
      "vote.sync.ballot.b32 %r5, %p1, -1;\n shfl.sync.bfly.b32 %r6|%p2, %r7, 1, 31, -1;\n"
      "bar.sync 0;\n cvta.to.global.u64 %rd3, %rd4;");
  const auto& code = m->kernels[0]->code;
  EXPECT_EQ(code[0].atom, AtomOp::Cas);
  EXPECT_EQ(code[1].op, Opcode::Red);
  EXPECT_EQ(code[1].space, Space::Shared);
  EXPECT_EQ(code[2].vote, VoteMode::Ballot);
  EXPECT_TRUE(code[2].has(kSync));
  EXPECT_EQ(code[3].shfl, ShflMode::Bfly);
  EXPECT_GE(code[3].dst2, 0);
  EXPECT_TRUE(code[4].is_barrier());
  EXPECT_TRUE(code[5].has(kTo));
  EXPECT_EQ(code[5].space, Space::Global);
}

TEST(PtxParser, InnerScopeRegistersShadowOuterOnes) {
  auto m = body("{\n .reg .b32 %r1;\n mov.u32 %r1, 5;\n}\n mov.u32 %r1, 6;");
  const Kernel& k = *m->kernels[0];
  EXPECT_NE(k.code[0].ops[0].reg, k.code[1].ops[0].reg);
  EXPECT_EQ(k.regs[k.code[0].ops[0].reg].name, "%r1");
}

TEST(PtxParser, DeclarationsAreLaidOutWithAlignment) {
  auto m =
      test::parse(std::string(kHeader) +
                  ".visible .entry k(.param .u32 a, .param .u64 b, .param .align 16 .b8 s[24])\n{\n"
                  " .local .align 8 .b8 depot[20];\n .local .align 16 .b8 more[16];\n"
                  " .shared .u32 one;\n .shared .align 16 .b8 arr[64];\n ret;\n}\n");
  const Kernel& k = *m->kernels[0];
  ASSERT_EQ(k.params.size(), 3u);
  EXPECT_EQ(k.params[0].offset, 0u);
  EXPECT_EQ(k.params[1].offset, 8u);
  EXPECT_EQ(k.params[2].offset, 16u);
  EXPECT_EQ(k.param_bytes, 40u);
  EXPECT_EQ(k.local_bytes, 48u);  // 20 -> aligned to 32, + 16
  EXPECT_EQ(k.shared[1].offset, 16u);
  EXPECT_EQ(k.shared_bytes, 80u);
}

TEST(PtxParser, ExternSharedStartsAfterStaticShared) {
  auto m = test::parse(std::string(kHeader) +
                       ".extern .shared .align 16 .b8 dyn[];\n"
                       ".visible .entry k()\n{\n .reg .b32 %r<3>;\n .shared .align 4 .b8 s[20];\n"
                       " mov.u32 %r1, dyn;\n ld.shared.u32 %r2, [dyn+4];\n ret;\n}\n");
  const Kernel& k = *m->kernels[0];
  EXPECT_EQ(k.dynamic_shared_offset, 32u);
  EXPECT_EQ(k.code[0].ops[1].imm, 32);
  EXPECT_EQ(k.code[1].ops[1].imm, 36);
}

TEST(PtxParser, NvccOutputOfEveryWorkloadParses) {
  for (const char* w :
       {"micro/vecadd", "micro/divergence", "narasiman/blackjack", "narasiman/decrypt"}) {
    auto m = isa::parse_ptx_file(std::string(GPUTLM_SOURCE_DIR) + "/traces/" + w + "/kernel.ptx");
    ASSERT_FALSE(m->kernels.empty()) << w;
    EXPECT_EQ(m->target, "sm_75");
  }
}

// ---- errors: one message with file, line and the offending text ----

TEST(PtxParserErrors, UnknownOpcodeNamesFileLineAndText) {
  const std::string e = parse_error(std::string(kHeader) +
                                    ".visible .entry k()\n{\n frobnicate.u32 %r1;\n ret;\n}\n");
  EXPECT_NE(e.find("test.ptx:6:"), std::string::npos) << e;
  EXPECT_NE(e.find("unknown opcode 'frobnicate'"), std::string::npos) << e;
  EXPECT_NE(e.find("`frobnicate.u32 %r1;`"), std::string::npos) << e;
}

TEST(PtxParserErrors, InstructionsBeyondTheModelledTargetsSayWhy) {
  const std::string e =
      parse_error(std::string(kHeader) +
                  ".visible .entry k()\n{\n .reg .b32 %r<2>;\n .reg .b64 %rd<2>;\n"
                  " multimem.ld_reduce.relaxed.sys.global.add.u32 %r1, [%rd1];\n ret;\n}\n");
  EXPECT_NE(
      e.find("opcode 'multimem' is not modelled: multimem reaches the memory of several GPUs"),
      std::string::npos)
      << e;
  const std::string w = parse_error(
      std::string(kHeader) + ".visible .entry k()\n{\n wgmma.fence.sync.aligned;\n ret;\n}\n");
  EXPECT_NE(w.find("opcode 'wgmma' is not modelled: warpgroup MMA needs sm_90a"), std::string::npos)
      << w;
}

TEST(PtxParserErrors, UnknownModifier) {
  const std::string e =
      parse_error(std::string(kHeader) +
                  ".visible .entry k()\n{\n .reg .b32 %r1;\n add.zz.u32 %r1, %r1, 1;\n ret;\n}\n");
  EXPECT_NE(e.find("test.ptx:7:"), std::string::npos) << e;
  EXPECT_NE(e.find("unknown modifier '.zz' for add"), std::string::npos) << e;
}

TEST(PtxParserErrors, UndeclaredRegister) {
  const std::string e = parse_error(std::string(kHeader) +
                                    ".visible .entry k()\n{\n add.u32 %r1, %r1, 1;\n ret;\n}\n");
  EXPECT_NE(e.find("undeclared register '%r1'"), std::string::npos) << e;
}

TEST(PtxParserErrors, ScopedRegisterIsGoneAfterItsScope) {
  const std::string e = parse_error(std::string(kHeader) +
                                    ".visible .entry k()\n{\n {\n .reg .b32 %t;\n mov.u32 %t, 1;\n "
                                    "}\n mov.u32 %t, 2;\n ret;\n}\n");
  EXPECT_NE(e.find("test.ptx:10:"), std::string::npos) << e;
  EXPECT_NE(e.find("undeclared register '%t'"), std::string::npos) << e;
}

TEST(PtxParserErrors, UndefinedLabel) {
  const std::string e =
      parse_error(std::string(kHeader) + ".visible .entry k()\n{\n bra $nowhere;\n ret;\n}\n");
  EXPECT_NE(e.find("undefined label '$nowhere'"), std::string::npos) << e;
}

TEST(PtxParserErrors, IndexedBranchNeedsAListDeclaredBeforeIt) {
  const std::string k =
      std::string(kHeader) + ".visible .entry k()\n{\n .reg .b32 %r1;\n .reg .b64 %rd1;\n";
  auto error_of = [&](const std::string& body) {
    return parse_error(k + body + "\n$A:\n ret;\n$B:\n ret;\n}\n");
  };
  EXPECT_EQ(error_of(" $T: .branchtargets $A, $B;\n brx.idx %r1, $T;"), "");
  std::string e =
      error_of(" brx.idx %r1, $T;\n $T: .branchtargets $A, $B;");  // ptxas: forward references are
                                                                   // not allowed
  EXPECT_NE(e.find("test.ptx:8: '$T' is not a .branchtargets list declared before this brx.idx"),
            std::string::npos)
      << e;
  e = error_of(" $T: .branchtargets $A, $nowhere;\n brx.idx %r1, $T;");
  EXPECT_NE(e.find("undefined label '$nowhere' in .branchtargets"), std::string::npos) << e;
  e = error_of(" $T: .branchtargets $A;\n $T: .branchtargets $B;\n brx.idx %r1, $T;");
  EXPECT_NE(e.find("branch target list '$T' defined twice"), std::string::npos) << e;
  e = error_of(" $T: .branchtargets $A, $B;\n brx.idx %rd1, $T;");  // ptxas: "Arguments mismatch"
  EXPECT_NE(e.find("brx.idx's index must be a 32-bit register"), std::string::npos) << e;
}

TEST(PtxParserErrors, MissingTypeAndWrongOperandCount) {
  EXPECT_NE(parse_error(std::string(kHeader) +
                        ".visible .entry k()\n{\n .reg .b32 %r1;\n add %r1, %r1, 1;\n ret;\n}\n")
                .find("missing type modifier"),
            std::string::npos);
  EXPECT_NE(parse_error(std::string(kHeader) +
                        ".visible .entry k()\n{\n .reg .b32 %r1;\n add.u32 %r1, %r1;\n ret;\n}\n")
                .find("wrong number of operands for add"),
            std::string::npos);
  EXPECT_NE(parse_error(std::string(kHeader) +
                        ".visible .entry k()\n{\n .reg .b32 %r1;\n cvt.u32 %r1, %r1;\n ret;\n}\n")
                .find("cvt needs two types"),
            std::string::npos);
}

TEST(PtxParserErrors, UnsupportedModuleLevelSyntax) {
  const std::string e = parse_error(std::string(kHeader) + ".tex .u64 old_style_texture;\n");
  EXPECT_NE(e.find("test.ptx:4:"), std::string::npos) << e;
  EXPECT_NE(e.find("unsupported module-level syntax"), std::string::npos) << e;
}

TEST(PtxParserErrors, UnexpectedCharacterAndBadNumber) {
  EXPECT_NE(parse_error(std::string(kHeader) + "#include <x>\n").find("unexpected character"),
            std::string::npos);
  EXPECT_NE(parse_error(std::string(kHeader) +
                        ".visible .entry k()\n{\n .reg .b32 %r1;\n mov.u32 %r1, 0xZZ;\n ret;\n}\n")
                .find("bad number"),
            std::string::npos);
}

TEST(PtxParserErrors, KernelThatFallsOffItsEnd) {
  const std::string e = parse_error(
      std::string(kHeader) + ".visible .entry k()\n{\n .reg .b32 %r1;\n mov.u32 %r1, 1;\n}\n");
  EXPECT_NE(e.find("can fall off its end"), std::string::npos) << e;
}

TEST(PtxParserErrors, InitialisedVariablesAreRejected) {
  const std::string e = parse_error(std::string(kHeader) +
                                    ".visible .entry k()\n{\n .shared .u32 x = 5;\n ret;\n}\n");
  EXPECT_NE(e.find("initialised variables are only supported at module scope"), std::string::npos)
      << e;
}

TEST(PtxParserErrors, UnimplementedCombinationFailsWhenBound) {
  auto m = body("redux.sync.add.b32 %r1, %r2, -1;");  // .add takes .u32/.s32 only
  try {
    func::BoundKernel bk(*m->kernels[0]);
    FAIL() << "redux.sync.add.b32 bound";
  } catch (const SourceError& e) {
    const std::string s = e.what();
    EXPECT_NE(s.find("not supported by the functional engine"), std::string::npos) << s;
    EXPECT_NE(s.find("redux.sync.add.b32 %r1, %r2, -1;"), std::string::npos) << s;
  }
}

}  // namespace
}  // namespace gputlm::isa

namespace gputlm::isa {
namespace {

TEST(PtxParser, FloatLiteralsAreConvertedToTheInstructionType) {
  EXPECT_EQ(
      test::bits_f32(test::run1("add.f32 %f1, %fa, 1.5;\n mov.b32 %r1, %f1;\n cvt.u64.u32 %o, %r1;",
                                test::f32_bits(2.0f))
                         .o),
      3.5f);
  EXPECT_EQ(
      test::bits_f32(
          test::run1(
              "add.f32 %f1, %fa, 0d3FF0000000000000;\n mov.b32 %r1, %f1;\n cvt.u64.u32 %o, %r1;",
              test::f32_bits(2.0f))
              .o),
      3.0f);
  EXPECT_EQ(
      test::bits_f64(
          test::run1("add.f64 %da, %da, 0f3F800000;\n mov.b64 %o, %da;", test::f64_bits(2.0)).o),
      3.0);
  EXPECT_EQ(
      test::bits_f32(test::run1("mov.f32 %f1, 2;\n mov.b32 %r1, %f1;\n cvt.u64.u32 %o, %r1;", 0).o),
      2.0f);
  // Bit types take the literal's bits unchanged.
  EXPECT_EQ(test::run1("mov.b32 %r1, 0f3F800000;\n cvt.u64.u32 %o, %r1;", 0).o, 0x3F800000u);
}

}  // namespace
}  // namespace gputlm::isa
