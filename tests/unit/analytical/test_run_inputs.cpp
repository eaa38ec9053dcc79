// The MWP/CWP model's kernel inputs from a simulated launch's counts
// (models/analytical/run_inputs.h).
#include <gtest/gtest.h>

#include "models/analytical/mwp_cwp_model.h"
#include "models/analytical/run_inputs.h"
#include "models/common/error.h"

namespace gputlm::analytical {
namespace {

// 80 CTAs of 128 threads (320 warps), each warp running 30 instructions: 2 coalesced loads, 4
// uncoalesced ones of 32 lines each and one barrier.
LaunchCounts table2_like() {
  LaunchCounts c;
  c.threads_per_block = 128;
  c.blocks = 80;
  c.blocks_that_fit_per_sm = 8;
  c.sms = 16;
  c.warp_instructions = 320 * 30;
  c.coalesced_memory_instructions = 320 * 2;
  c.uncoalesced_memory_instructions = 320 * 4;
  c.uncoalesced_line_requests = 320 * 4 * 32;
  c.barrier_instructions = 320;
  return c;
}

TEST(RunInputs, PerThreadCountsAreTheLaunchCountsOverItsWarps) {
  const KernelInputs k = inputs_from_run(table2_like());
  EXPECT_EQ(k.threads_per_block, 128u);
  EXPECT_EQ(k.blocks, 80u);
  EXPECT_EQ(k.active_sms, 16u);
  EXPECT_EQ(k.active_blocks_per_sm, 5u);  // 8 fit, but the grid gives each core 5
  EXPECT_DOUBLE_EQ(k.comp_insts, 24.0);   // the barrier included, as in Table 2
  EXPECT_DOUBLE_EQ(k.coal_mem_insts, 2.0);
  EXPECT_DOUBLE_EQ(k.uncoal_mem_insts, 4.0);
  EXPECT_DOUBLE_EQ(k.synch_insts, 1.0);
  ASSERT_TRUE(k.uncoal_per_mw.has_value());
  EXPECT_DOUBLE_EQ(*k.uncoal_per_mw, 32.0);
  // The model takes them as they are (the FX5600 preset by default).
  const ModelResult m = evaluate(GpuParams{}, k);
  EXPECT_GT(m.exec_cycles_with_synch, 0.0);
  EXPECT_DOUBLE_EQ(m.n, 20.0);  // 5 blocks of 4 warps
}

// Given the line size, Load_bytes_per_warp is what the memory warps moved: (2 x 1 + 4 x 32) lines
// of 128 B over 6 memory instructions; without it the GPU's Table 1 value stays (4 B x 32).
TEST(RunInputs, BytesPerMemoryWarpAreTheLinesItsInstructionsMoved) {
  LaunchCounts c = table2_like();
  EXPECT_FALSE(inputs_from_run(c).load_bytes_per_warp.has_value());
  c.line_bytes = 128;
  const KernelInputs k = inputs_from_run(c);
  ASSERT_TRUE(k.load_bytes_per_warp.has_value());
  EXPECT_DOUBLE_EQ(*k.load_bytes_per_warp, 128.0 * (2 + 4 * 32) / 6);
  GpuParams per_kernel;
  per_kernel.load_bytes_per_warp = 0;  // a GPU that leaves it to the kernel
  EXPECT_DOUBLE_EQ(evaluate(per_kernel, k).load_bytes_per_warp, *k.load_bytes_per_warp);
  EXPECT_THROW(evaluate(per_kernel, inputs_from_run(table2_like())), InputError);
}

TEST(RunInputs, ASmallGridUsesFewerCoresAndAPartialWarpCountsWhole) {
  LaunchCounts c = table2_like();
  c.blocks = 3;
  c.threads_per_block = 48;  // 2 warps a block
  c.warp_instructions = 6 * 10;
  c.coalesced_memory_instructions = 6;
  c.uncoalesced_memory_instructions = 0;
  c.uncoalesced_line_requests = 0;
  c.barrier_instructions = 0;
  const KernelInputs k = inputs_from_run(c);
  EXPECT_EQ(k.active_sms, 3u);
  EXPECT_EQ(k.active_blocks_per_sm, 1u);
  EXPECT_DOUBLE_EQ(k.comp_insts, 9.0);
  EXPECT_DOUBLE_EQ(k.coal_mem_insts, 1.0);
  EXPECT_FALSE(k.uncoal_per_mw.has_value());
}

TEST(RunInputs, ALaunchThatCannotBeModelledIsAnInputError) {
  LaunchCounts c = table2_like();
  c.blocks_that_fit_per_sm = 0;
  EXPECT_THROW(inputs_from_run(c), InputError);
  c = table2_like();
  c.blocks = 0;
  EXPECT_THROW(inputs_from_run(c), InputError);
}

}  // namespace
}  // namespace gputlm::analytical
