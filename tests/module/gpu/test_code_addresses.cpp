// Kernels' code at addresses of their own (func/code_layout.h): a kernel launched after another
// fetches its own instruction lines, where before every kernel's code started at address 0 and a
// second kernel found the first one's lines in the I-cache. On fermi-gtx480 cut to one core.
#include <gtest/gtest.h>

#include "models/gpu/gpu.h"
#include "support/core_run.h"
#include "support/sc_kernel.h"

namespace gputlm {
namespace {

uint64_t icache_fills() {
  const nlohmann::json stats = collect_stats();
  return stats.contains("gpu.core0.l1i") ? stats["gpu.core0.l1i"]["fills"].get<uint64_t>() : 0;
}

// The I-cache fills of a second kernel (other code than the first's) launched after the first
// on one GPU, the two kernels laid out by a CodeLayout or both at address 0.
uint64_t second_kernel_fills(bool laid_out) {
  test::fresh_sc_kernel();
  nlohmann::json config = test::preset("fermi-gtx480");
  config["cores"] = 1;
  gpu::Gpu gpu("gpu", gpu::GpuSpec::from_json(config, "test"));
  const std::vector<test::Inputs> in(64, {1, 2, 3});
  test::SnippetLaunch first("  add.s64 %o, %a, %b;", in);
  test::SnippetLaunch second("  mul.lo.s64 %o, %a, %c;\n  add.s64 %o, %o, %b;", in);
  func::CodeLayout code;
  const func::BoundKernel a(first.bound->kernel(), nullptr,
                            laid_out ? code.place(first.bound->kernel()) : 0);
  const func::BoundKernel b(second.bound->kernel(), nullptr,
                            laid_out ? code.place(second.bound->kernel()) : 0);
  gpu.run(a, first.launch);
  const uint64_t before = icache_fills();
  EXPECT_GT(before, 0u);
  gpu.run(b, second.launch);
  return icache_fills() - before;
}

TEST(CodeAddresses, ASecondKernelFetchesItsOwnLines) {
  EXPECT_GT(second_kernel_fills(true), 0u);
  EXPECT_EQ(second_kernel_fills(false), 0u);  // one address for both: the first's lines served it
}

TEST(CodeAddresses, KernelsAreLaidOutOneAfterAnotherFromZero) {
  isa::Kernel k;
  k.code.resize(10);
  func::CodeLayout code;
  EXPECT_EQ(code.place(k), 0u);
  EXPECT_EQ(code.place(k), 768u);  // 10 x 64 B, rounded up to 256 B
  k.code.resize(4);
  EXPECT_EQ(code.place(k), 1536u);
  EXPECT_EQ(code.place(k), 1792u);
}

}  // namespace
}  // namespace gputlm
