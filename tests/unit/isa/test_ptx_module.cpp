// The PTX front end on what nvcc emits around kernels: module variables (.global/.const with
// initialisers), device functions (prototypes, definitions, calls, frames), debug directives,
// and errors that stop only the kernel they are in.
#include <gtest/gtest.h>

#include <cstring>

#include "models/common/error.h"
#include "models/func/module_image.h"
#include "models/isa/ptx_link.h"
#include "support/module_launch.h"
#include "support/ptx_samples.h"

namespace gputlm::isa {
namespace {

std::unique_ptr<Module> parse(const std::string& body) {
  return parse_ptx(".version 9.0\n.target sm_90, debug\n.address_size 64\n" + body, "m.ptx");
}

const char* kTrivialKernel = ".visible .entry k() { ret; }\n";

TEST(PtxModule, ConstAndGlobalVariablesKeepSpaceSizeAlignAndInitialBytes) {
  auto m =
      parse(std::string(".const .align 4 .b8 c[8] = {1, 2, 3};\n.extern .const .align 8 .u64 x;\n"
                        ".global .align 16 .u32 g[4];\n") +
            kTrivialKernel);
  ASSERT_EQ(m->variables.size(), 3u);
  const ModuleVar& c = *m->variable("c");
  EXPECT_EQ(c.space, Space::Const);
  EXPECT_EQ(c.size, 8u);
  EXPECT_EQ(c.align, 4u);
  EXPECT_EQ(c.init, (std::vector<uint8_t>{1, 2, 3}));
  EXPECT_TRUE(m->variable("x")->external);
  EXPECT_EQ(m->variable("g")->size, 16u);
  EXPECT_EQ(m->variable("g")->align, 16u);
  EXPECT_EQ(m->target, "sm_90, debug");
}

TEST(PtxModule, FloatInitialisersAreConvertedToTheElementType) {
  auto m = parse(std::string(".const .f32 f[3] = {1.5, 0f40000000, 3};\n.global .f64 d = 0.25;\n") +
                 kTrivialKernel);
  float f[3];
  std::memcpy(f, m->variable("f")->init.data(), 12);
  EXPECT_EQ(f[0], 1.5f);
  EXPECT_EQ(f[1], 2.0f);
  EXPECT_EQ(f[2], 3.0f);
  double d;
  std::memcpy(&d, m->variable("d")->init.data(), 8);
  EXPECT_EQ(d, 0.25);
}

TEST(PtxModule, NestedListsFillMultiDimensionalArraysInRowOrder) {
  auto m = parse(std::string(".global .u16 t[2][3] = {{1, 2, 3}, {4, 5, 6}};\n") + kTrivialKernel);
  const ModuleVar& t = *m->variable("t");
  EXPECT_EQ(t.size, 12u);
  uint16_t v[6];
  std::memcpy(v, t.init.data(), 12);
  for (int i = 0; i < 6; ++i) EXPECT_EQ(v[i], i + 1);
}

TEST(PtxModule, MoreInitialValuesThanTheVariableHoldsIsAnError) {
  try {
    parse(std::string(".global .u32 t[2] = {1, 2, 3};\n") + kTrivialKernel);
    FAIL() << "accepted";
  } catch (const SourceError& e) {
    EXPECT_EQ(e.line(), 4);
    EXPECT_NE(std::string(e.what()).find("more initial values"), std::string::npos) << e.what();
  }
}

TEST(PtxModule, AddressInitialiserHoldsTheOtherVariablesAddressOnceLoaded) {
  auto m =
      parse(std::string(".global .u32 t[4];\n.global .u64 p = generic(t)+8;\n") + kTrivialKernel);
  func::GlobalMemory mem;
  const func::ModuleImage image = func::load_module_variables(*m, mem);
  uint64_t p = 0;
  mem.read(image.at("p"), &p, 8);
  EXPECT_EQ(p, image.at("t") + 8);
}

TEST(PtxModule, KernelThatFailsIsReportedWhenAskedForAndTheOthersStillParse) {
  auto m = parse(
      ".visible .entry bad()\n{\n  frobnicate.u32 %r1;\n  ret;\n}\n.visible .entry good() { ret; "
      "}\n");
  ASSERT_NE(m->find("good"), nullptr);
  EXPECT_EQ(m->find("bad"), nullptr);
  try {
    m->get("bad");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("m.ptx:6: unknown opcode 'frobnicate'"), std::string::npos)
        << e.what();
  }
}

TEST(PtxModule, FunctionDefinedAfterItsCallerIsLinkedAfterTheKernelsCode) {
  auto m = parse(test::kKernelCallingTwice);
  const Kernel& k = m->get("k");
  ASSERT_EQ(k.functions.size(), 1u);
  const FunctionInfo& f = k.functions[0];
  EXPECT_EQ(f.name, "twice");
  EXPECT_EQ(f.entry_pc, 5u);  // after mov, st.param, call, ld.param, ret
  EXPECT_EQ(f.end_pc, 9u);
  EXPECT_EQ(f.save_offset, 0u) << "not recursive: nothing to save";
  EXPECT_TRUE(k.code[2].is_call());
  ASSERT_EQ(k.calls.size(), 1u);
  EXPECT_EQ(k.calls[0].args.size(), 1u);
  EXPECT_EQ(k.calls[0].rets.size(), 1u);
  EXPECT_TRUE(k.code[8].is_return());
  EXPECT_FALSE(k.code[8].is_exit());
  EXPECT_TRUE(k.code[4].is_exit());
  EXPECT_EQ(k.code[1].space, Space::Local) << "st.param of a call sequence writes the frame";
  EXPECT_EQ(k.code[5].space, Space::Local) << "ld.param of a function parameter reads the frame";
  EXPECT_EQ(k.code[6].ops[0].reg, f.reg_begin + 2) << "the function's registers are its own";
}

TEST(PtxModule, CallToAFunctionWithoutBodyIsAnErrorOfThatKernelOnly) {
  auto m = parse(R"(
.extern .func (.param .b32 func_retval0) elsewhere(.param .b64 a, .param .b64 b);
.visible .entry p()
{
  { .param .b64 a; .param .b64 b; .param .b32 r;
  call.uni (r), elsewhere, (a, b); }
  ret;
}
.visible .entry q() { ret; }
)");
  EXPECT_NE(m->find("q"), nullptr);
  ASSERT_EQ(m->kernel_errors.count("p"), 1u);
  const std::string e = m->kernel_errors.at("p").what();
  EXPECT_NE(e.find("m.ptx:9: call to 'elsewhere', which has no body"), std::string::npos) << e;
}

TEST(PtxModule, RecursiveFunctionSavesItsRegistersAndTheKernelReservesAStack) {
  auto m = parse_ptx_file(test::ptx_data("calls.O3.sm_75.ptx"));
  const Kernel& k = m->get("recurse");
  ASSERT_EQ(k.functions.size(), 2u);
  for (const FunctionInfo& f : k.functions) {
    if (f.name == "_Z3fibi") {  // calls itself twice
      EXPECT_NE(f.save_offset, 0u);
      EXPECT_EQ(f.frame_bytes, f.save_offset + 8 * static_cast<uint32_t>(f.reg_end - f.reg_begin));
    } else {  // fact: nvcc -O3 turned its recursion into a loop, so it saves nothing
      EXPECT_EQ(f.name, "_Z4factj");
      EXPECT_EQ(f.save_offset, 0u);
    }
  }
  EXPECT_GE(k.local_bytes, kRecursionStackBytes);
}

TEST(PtxModule, NvccDebugAndOptimisedOutputParsesEveryKernel) {
  for (const char* file : {"calls.O3.sm_75.ptx", "calls.G.sm_75.ptx"}) {
    auto m = parse_ptx_file(test::ptx_data(file));
    EXPECT_TRUE(m->kernel_errors.empty())
        << file << ": "
        << (m->kernel_errors.empty() ? "" : m->kernel_errors.begin()->second.what());
    EXPECT_EQ(m->kernels.size(), 3u) << file;
    EXPECT_NE(m->variable("__cudart_i2opi_f"), nullptr) << file;
  }
}

TEST(PtxModule, IndirectCallLinksTheFunctionsWhoseAddressIsTakenAndNoOthers) {
  auto m = parse(R"(
.func (.param .b32 r) inc(.param .b32 a) { .reg .b32 %x; ld.param.u32 %x, [a]; add.u32 %x, %x, 1; st.param.b32 [r], %x; ret; }
.func (.param .b32 r) unused(.param .b32 a) { .reg .b32 %x; ld.param.u32 %x, [a]; st.param.b32 [r], %x; ret; }
.global .align 8 .u64 table[1] = {inc};
.visible .entry k()
{
  .reg .b64 %f;
  .reg .b32 %y;
  mov.u64 %f, inc;
  { .param .b32 p; st.param.b32 [p], 1; .param .b32 q;
  proto : .callprototype (.param .b32 _) _ (.param .b32 _);
  call (q), %f, (p), proto;
  ld.param.b32 %y, [q]; }
  ret;
}
)");
  const Kernel& k = m->get("k");
  ASSERT_EQ(k.functions.size(), 1u);
  EXPECT_EQ(k.functions[0].name, "inc");
  EXPECT_EQ(static_cast<uint64_t>(k.code[0].ops[1].imm), m->function_address("inc"));
  EXPECT_EQ(m->function_address("inc"), kFunctionAddressBase)
      << "functions are numbered in name order";
  ASSERT_EQ(k.calls.size(), 1u);
  EXPECT_EQ(k.calls[0].callee, CallSite::kIndirect);
  EXPECT_EQ(k.code[2].ops[1].kind, OperandKind::Reg)
      << "the call reads the register holding the address";
  EXPECT_NE(k.functions[0].save_offset, 0u) << "through pointers any function may recurse";
  func::GlobalMemory mem;
  const func::ModuleImage image = func::load_module_variables(*m, mem);
  uint64_t entry = 0;
  mem.read(image.at("table"), &entry, 8);
  EXPECT_EQ(entry, m->function_address("inc"));
}

}  // namespace
}  // namespace gputlm::isa
