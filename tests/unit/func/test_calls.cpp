// Device-function calls on the functional engine: recursion with per-call frames and registers,
// divergence inside and around calls, module variables (__constant__, __device__ and the math
// library's tables) and the call stack's limit. Kernels from tests/data/ptx/calls.cu as nvcc 13
// emits them (-O3 and -G).
#include <gtest/gtest.h>

#include <cmath>

#include "models/common/error.h"
#include "models/func/kernel_fault.h"
#include "support/module_launch.h"

namespace gputlm::func {
namespace {

using test::ModuleLaunch;

std::vector<uint32_t> run_recurse(const std::string& file, int n, int scale = -1) {
  ModuleLaunch m = ModuleLaunch::file(test::ptx_data(file));
  if (scale >= 0) m.memory.write(m.image.at("scale"), &scale, 4);  // as cudaMemcpyToSymbol would
  const uint64_t out = m.memory.allocate(4 * n, "out");
  m.run("recurse", (n + 63) / 64, 64, {out, static_cast<uint64_t>(n)});
  return m.read<uint32_t>(out, n);
}

TEST(Calls, RecursiveFactorialAndFibonacciMatchTheHost) {
  const int n = 100;
  const std::vector<uint32_t> got = run_recurse("calls.O3.sm_75.ptx", n);
  for (int i = 0; i < n; ++i) EXPECT_EQ(got[i], test::host_recurse(i, 3)) << "thread " << i;
}

TEST(Calls, DebugBuildOfTheSameKernelGivesTheSameResults) {
  const int n = 70;
  const std::vector<uint32_t> got = run_recurse("calls.G.sm_75.ptx", n);
  for (int i = 0; i < n; ++i) EXPECT_EQ(got[i], test::host_recurse(i, 3)) << "thread " << i;
}

TEST(Calls, ConstantWrittenThroughTheImageIsWhatTheKernelReads) {
  const std::vector<uint32_t> got = run_recurse("calls.O3.sm_75.ptx", 40, 7);
  for (int i = 0; i < 40; ++i) EXPECT_EQ(got[i], test::host_recurse(i, 7)) << "thread " << i;
}

TEST(Calls, LanesCallingDifferentFunctionsOnDivergentPathsReconverge) {
  for (const char* file : {"calls.O3.sm_75.ptx", "calls.G.sm_75.ptx"}) {
    ModuleLaunch m = ModuleLaunch::file(test::ptx_data(file));
    const int n = 96;
    const uint64_t out = m.memory.allocate(4 * n, "out");
    m.run("diverge", 1, n, {out, static_cast<uint64_t>(n)});
    const std::vector<uint32_t> got = m.read<uint32_t>(out, n);
    static const uint32_t kTable[5] = {10, 20, 30, 40, 50};
    for (int i = 0; i < n; ++i) {
      const uint32_t v =
          (i & 1) ? test::host_fact(i % 11) : static_cast<uint32_t>(test::host_fib(i % 12));
      EXPECT_EQ(got[i], v + kTable[i % 5]) << file << " thread " << i;
    }
  }
}

TEST(Calls, MathLibraryCallsAndTheirTablesMatchTheHost) {
  for (const char* file : {"calls.O3.sm_75.ptx", "calls.G.sm_75.ptx"}) {
    ModuleLaunch m = ModuleLaunch::file(test::ptx_data(file));
    const int n = 64;
    std::vector<float> x(n);
    for (int i = 0; i < n; ++i)
      x[i] = 0.05f +
             0.1f * static_cast<float>(i);  // x*1e5 above 105615 from x = 1.1: sinf's slow path
    const uint64_t in = m.memory.allocate(4 * n, "in"), out = m.memory.allocate(4 * n, "out");
    m.memory.write(in, x.data(), 4 * n);
    m.run("mathk", 1, n, {out, in, static_cast<uint64_t>(n)});
    const std::vector<float> got = m.read<float>(out, n);
    for (int i = 0; i < n; ++i) {
      const double v = x[i];
      const double want = std::pow(v, 1.5) + std::sin(static_cast<double>(x[i] * 100000.0f)) +
                          std::exp(v * 0.01) + (1 + v * (2 + v * (3 + v * 4)));
      EXPECT_NEAR(got[i], want, 1e-6 * std::fabs(want) + 1e-4) << file << " thread " << i;
    }
  }
}

const char* kEndless = R"(.version 9.0
.target sm_75
.address_size 64
.func (.param .b32 r) down(.param .b32 a)
{
  .reg .b32 %x;
  ld.param.u32 %x, [a];
  add.u32 %x, %x, 1;
  { .param .b32 p; st.param.b32 [p], %x; .param .b32 q;
    call.uni (q), down, (p);
    ld.param.b32 %x, [q]; }
  st.param.b32 [r], %x;
  ret;
}
.visible .entry k()
{
  .reg .b32 %y;
  { .param .b32 p; st.param.b32 [p], 0; .param .b32 q;
    call.uni (q), down, (p);
    ld.param.b32 %y, [q]; }
  ret;
}
)";

TEST(Calls, RecursionDeeperThanTheStackIsAKernelFault) {
  ModuleLaunch m(isa::parse_ptx(kEndless, "endless.ptx"));
  try {
    m.run("k", 1, 1, {});
    FAIL() << "no fault";
  } catch (const KernelFault& e) {
    EXPECT_NE(std::string(e.what()).find("call stack overflow calling 'down'"), std::string::npos)
        << e.what();
  }
}

TEST(Calls, KernelNamingAModuleVariableNeedsItsAddress) {
  auto module = isa::parse_ptx_file(test::ptx_data("calls.O3.sm_75.ptx"));
  try {
    BoundKernel b(module->get("recurse"));
    FAIL() << "bound without addresses";
  } catch (const SourceError& e) {
    EXPECT_NE(std::string(e.what()).find("module variable 'scale'"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace gputlm::func

namespace gputlm::func {
namespace {

using test::ModuleLaunch;

// tests/data/ptx/more_calls.cu
const char* kMoreFiles[] = {"more_calls.O3.sm_75.ptx", "more_calls.G.sm_75.ptx"};

TEST(Calls, StructsByValueLocalArraysAndTemplatesMatchTheHost) {
  for (const char* file : kMoreFiles) {
    ModuleLaunch m = ModuleLaunch::file(test::ptx_data(file));
    const int n = 80;
    const uint64_t out = m.memory.allocate(4 * n, "out");
    m.run("structs", 1, n, {out, static_cast<uint64_t>(n)});
    const std::vector<float> got = m.read<float>(out, n);
    for (int i = 0; i < n; ++i) {
      int sum = 0;
      for (int k = 0; k < 16; k += (i & 3) + 1) sum += k * i;
      const float want = static_cast<float>(i) * 2.0f +
                         static_cast<float>(static_cast<int>(1.5f * static_cast<float>(i))) +
                         static_cast<float>(0.5 * i) + static_cast<float>(sum) +
                         static_cast<float>(2 * i) + 0.5f * static_cast<float>(i) * 2.0f;
      EXPECT_FLOAT_EQ(got[i], want) << file << " thread " << i;
    }
  }
}

TEST(Calls, DoubleSinAndCosWithTheirCarryArithmeticSlowPathMatchTheHost) {
  for (const char* file : kMoreFiles) {
    ModuleLaunch m = ModuleLaunch::file(test::ptx_data(file));
    const int n = 64;
    std::vector<double> x(n);
    for (int i = 0; i < n; ++i) x[i] = 0.1 + 3.7 * i;  // x * 1e6 needs the slow argument reduction
    const uint64_t in = m.memory.allocate(8 * n, "in"), out = m.memory.allocate(8 * n, "out");
    m.memory.write(in, x.data(), 8 * n);
    m.run("dsin", 1, n, {out, in, static_cast<uint64_t>(n)});
    const std::vector<double> got = m.read<double>(out, n);
    for (int i = 0; i < n; ++i)
      EXPECT_NEAR(got[i], std::sin(x[i]) + std::cos(x[i] * 1e6), 1e-14) << file << " thread " << i;
  }
}

TEST(Calls, LanesCallingThroughDifferentFunctionPointersEachRunTheirOwn) {
  for (const char* file : kMoreFiles) {
    ModuleLaunch m = ModuleLaunch::file(test::ptx_data(file));
    const isa::Kernel& k = m.module->get("indirect");
    EXPECT_EQ(k.functions.size(), 2u) << "add1 and mul2, whose addresses the table takes";
    const int n = 48;
    const uint64_t out = m.memory.allocate(4 * n, "out");
    m.run("indirect", 1, n, {out, static_cast<uint64_t>(n)});
    const std::vector<int32_t> got = m.read<int32_t>(out, n);
    for (int i = 0; i < n; ++i)
      EXPECT_EQ(got[i], (i & 1) ? i * 2 : i + 1) << file << " thread " << i;
  }
}

}  // namespace
}  // namespace gputlm::func

namespace gputlm::func {
namespace {

// Lane 3 exits inside the callee, lanes 0-7 return early from a guarded ret, the rest later: each
// lane's result is its own, and the warp comes back whole (but for the exited lane) after the call.
const char* kEarlyReturn = R"(.version 9.0
.target sm_75
.address_size 64
.func (.param .b32 r) f(.param .b32 a)
{
  .reg .b32 %x;
  .reg .pred %p;
  ld.param.u32 %x, [a];
  setp.eq.u32 %p, %x, 3;
  @%p exit;
  setp.lt.u32 %p, %x, 8;
  add.u32 %x, %x, 100;
  st.param.b32 [r], %x;
  @%p ret;
  add.u32 %x, %x, 1000;
  st.param.b32 [r], %x;
  ret;
}
.visible .entry k(.param .u64 out)
{
  .reg .b32 %t, %y;
  .reg .b64 %o, %a;
  mov.u32 %t, %tid.x;
  { .param .b32 p; st.param.b32 [p], %t; .param .b32 q;
    call.uni (q), f, (p);
    ld.param.b32 %y, [q]; }
  ld.param.u64 %o, [out];
  mul.wide.u32 %a, %t, 4;
  add.s64 %o, %o, %a;
  st.global.u32 [%o], %y;
  ret;
}
)";

TEST(Calls, GuardedRetAndExitInsideTheCalleeAffectOnlyTheirLanes) {
  ModuleLaunch m(isa::parse_ptx(kEarlyReturn, "early.ptx"));
  const uint64_t out = m.memory.allocate(4 * 32, "out");
  const std::vector<uint32_t> sentinel(32, 0xDEAD);
  m.memory.write(out, sentinel.data(), 4 * 32);
  m.run("k", 1, 32, {out});
  const std::vector<uint32_t> got = m.read<uint32_t>(out, 32);
  for (uint32_t t = 0; t < 32; ++t)
    EXPECT_EQ(got[t], t == 3 ? 0xDEADu : t < 8 ? t + 100 : t + 1100) << "thread " << t;
}

}  // namespace
}  // namespace gputlm::func
