// Device-function calls on the SIMT core: kernels with recursive calls, divergent calls, calls
// through function pointers and __constant__ reads run on the timing model (fermi-gtx480 and
// narasiman-baseline presets) and computes what the functional engine computes; call and ret issue
// as control instructions.
#include <gtest/gtest.h>

#include "models/func/func_stats.h"
#include "support/core_run.h"
#include "support/module_launch.h"

namespace gputlm::test {
namespace {

// Runs `kernel` of calls.O3.sm_75.ptx over n threads on a GPU from `config`; returns the outputs
// and the warp instructions its cores issued.
std::pair<std::vector<uint32_t>, uint64_t> run_timed(
    const std::string& kernel, int n, const std::string& config,
    const std::string& file = "calls.O3.sm_75.ptx") {
  test::fresh_sc_kernel();
  const gpu::GpuSpec spec = gpu::GpuSpec::from_json(preset(config), "test");
  gpu::Gpu gpu("gpu", spec);
  ModuleLaunch m = ModuleLaunch::file(ptx_data(file));
  const uint64_t out = m.memory.allocate(4 * n, "out");
  const func::Launch l = m.launch(kernel, (n + 63) / 64, 64, {out, static_cast<uint64_t>(n)});
  gpu.run(*m.bound, l);
  uint64_t warp_instructions = 0;
  for (const auto& core : gpu.cores()) warp_instructions += core->counters().warp_instructions;
  return {m.read<uint32_t>(out, n), warp_instructions};
}

std::pair<std::vector<uint32_t>, uint64_t> run_functional(
    const std::string& kernel, int n, const std::string& file = "calls.O3.sm_75.ptx") {
  ModuleLaunch m = ModuleLaunch::file(ptx_data(file));
  const uint64_t out = m.memory.allocate(4 * n, "out");
  const func::FuncStats stats = m.run(kernel, (n + 63) / 64, 64, {out, static_cast<uint64_t>(n)});
  return {m.read<uint32_t>(out, n), stats.warp_instructions};
}

TEST(CoreCalls, RecursiveCallsAndConstantReadsMatchTheFunctionalEngineOnFermi) {
  const int n = 200;
  const auto [timed, timed_instructions] = run_timed("recurse", n, "fermi-gtx480");
  const auto [functional, functional_instructions] = run_functional("recurse", n);
  EXPECT_EQ(timed, functional);
  for (int i = 0; i < n; ++i) ASSERT_EQ(timed[i], host_recurse(i, 3)) << "thread " << i;
  EXPECT_EQ(timed_instructions, functional_instructions)
      << "the core issues every call, ret and callee instruction once";
}

TEST(CoreCalls, DivergentCallsMatchTheFunctionalEngineOnNarasimanBaseline) {
  const int n = 128;
  const auto timed = run_timed("diverge", n, "narasiman-baseline");
  const auto functional = run_functional("diverge", n);
  EXPECT_EQ(timed.first, functional.first);
  EXPECT_EQ(timed.second, functional.second);
}

TEST(CoreCalls, CallsThroughFunctionPointersMatchTheFunctionalEngineOnFermi) {
  const int n = 96;
  const auto timed = run_timed("indirect", n, "fermi-gtx480", "more_calls.O3.sm_75.ptx");
  const auto functional = run_functional("indirect", n, "more_calls.O3.sm_75.ptx");
  EXPECT_EQ(timed.first, functional.first);
  EXPECT_EQ(timed.second, functional.second);
  for (int i = 0; i < n; ++i)
    ASSERT_EQ(timed.first[i], static_cast<uint32_t>((i & 1) ? i * 2 : i + 1)) << "thread " << i;
}

// Until they follow call/ret, the regrouping warp formations and the VGIW mapper refuse such a
// kernel with one error that names the function.
TEST(CoreCalls, FormationsAndCoresWithoutCallSupportRefuseTheKernelNamingTheFunction) {
  for (const char* config : {"dwf", "tbc256", "lwm256", "vgiw"}) {
    try {
      run_timed("diverge", 64, config);
      ADD_FAILURE() << config << " ran a kernel with calls";
    } catch (const InputError& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find("calls device function '_Z"), std::string::npos)
          << config << ": " << what;
      EXPECT_NE(what.find("diverge"), std::string::npos) << config << ": " << what;
    }
  }
}

// brx.idx (PTX ISA 9.7.12.4) on the SIMT core: each lane to its entry of the list, one path per
// distinct target; the core computes and issues what the functional engine does. The formations
// that regroup threads refuse it by name.
const char* kJumpTable = R"(
  rem.u32 %r1, %ra, 6;
  $T: .branchtargets $C0, $C1, $C2, $C1, $C0;
  setp.lt.u32 %q1, %r1, 5;
  mov.u32 %r2, 1;
  @%q1 brx.idx %r1, $T;
  bra $J;
$C0:
  add.s32 %r2, %r2, 10;
  bra $J;
$C1:
  mul.lo.s32 %r2, %ra, 3;
  bra $J;
$C2:
  shl.b32 %r2, %ra, 4;
$J:
  cvt.u64.u32 %o, %r2;)";

TEST(CoreBranches, AnIndexedBranchMatchesTheFunctionalEngineOnFermi) {
  const CoreRun timed = run_core(kJumpTable, 96, preset("fermi-gtx480"));
  func::FuncStats stats;
  const std::vector<Inputs> in = [] {
    std::vector<Inputs> v(96);
    for (unsigned i = 0; i < 96; ++i) v[i] = {i, 0, 0};
    return v;
  }();
  const std::vector<LaneOut> functional = run_snippet(kJumpTable, in, &stats);
  for (unsigned i = 0; i < 96; ++i) {
    const unsigned k = i % 6;
    const uint64_t want = k == 5 ? 1 : k == 0 || k == 4 ? 11 : k == 2 ? i << 4 : i * 3;
    ASSERT_EQ(timed.out[i].o, want) << "thread " << i;
    ASSERT_EQ(functional[i].o, want) << "thread " << i;
  }
  EXPECT_EQ(timed.counters.warp_instructions, stats.warp_instructions);
}

TEST(CoreBranches, FormationsThatRegroupThreadsRefuseAnIndexedBranch) {
  for (const std::string name : {"lwm256", "tbc256", "dwf"}) {
    try {
      run_core(kJumpTable, 64, preset(name));
      ADD_FAILURE() << name << " ran";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("does not support test.ptx:"), std::string::npos)
          << e.what();
      EXPECT_NE(std::string(e.what()).find("`@%q1 brx.idx %r1, $T;`"), std::string::npos)
          << e.what();
    }
  }
}

}  // namespace
}  // namespace gputlm::test
