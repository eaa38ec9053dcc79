// gpu::Gpu::flush_caches (gputlm cuda --cache-control all, Nsight Compute's default): every cache
// of the GPU empty before a launch, so that a launch run again after it misses where the first
// run missed, line for line. On fermi-gtx480 cut to one core (an L1 and an L2).
#include <gtest/gtest.h>

#include "models/gpu/gpu.h"
#include "support/core_run.h"
#include "support/sc_kernel.h"

namespace gputlm {
namespace {

// The lines the L1 data cache and the L2 filled from below so far (the run's statistics, summed;
// their misses would count MSHR merges too, which depend on the DRAM's timing).
struct Fills {
  uint64_t l1d = 0, l2 = 0;
};

Fills fills() {
  const nlohmann::json stats = collect_stats();
  Fills m;
  for (const auto& [name, values] : stats.items()) {
    if (!values.contains("fills")) continue;
    const uint64_t n = values["fills"].get<uint64_t>();
    if (name == "gpu.core0.l1d") m.l1d += n;
    if (name.rfind("gpu.l2", 0) == 0) m.l2 += n;
  }
  return m;
}

// The fills of two runs of the harness's loads (128 threads read 24 B each: 3 KB, 24 lines of
// 128 B) on one GPU, the caches flushed between the runs or not.
std::pair<Fills, Fills> two_runs(bool flush) {
  test::fresh_sc_kernel();
  nlohmann::json config = test::preset("fermi-gtx480");
  config["cores"] = 1;
  gpu::Gpu gpu("gpu", gpu::GpuSpec::from_json(config, "test"));
  test::SnippetLaunch l("  add.s64 %o, %a, %b;", std::vector<test::Inputs>(128, {1, 2, 3}));
  gpu.run(*l.bound, l.launch);
  const Fills first = fills();
  if (flush) gpu.flush_caches();
  gpu.run(*l.bound, l.launch);
  const Fills both = fills();
  return {first, {both.l1d - first.l1d, both.l2 - first.l2}};
}

TEST(CacheFlush, ALaunchAfterAFlushMissesWhereTheFirstRunMissed) {
  const auto [first, again] = two_runs(true);
  EXPECT_GT(first.l1d, 0u);
  EXPECT_GT(first.l2, 0u);
  EXPECT_EQ(again.l1d, first.l1d);
  EXPECT_EQ(again.l2, first.l2);
  const auto [unflushed_first, warm] = two_runs(false);
  EXPECT_EQ(unflushed_first.l1d, first.l1d);
  EXPECT_EQ(warm.l1d, 0u);  // the caches kept the lines the first run read
  EXPECT_EQ(warm.l2, 0u);
}

}  // namespace
}  // namespace gputlm
