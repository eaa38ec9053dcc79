// The GPU's CTA dispatcher and launch start (gpu::Gpu with GpuSpec::launch_latency and
// cta_dispatch_interval) on a one-core GPU made from the narasiman-baseline preset.
#include <gtest/gtest.h>

#include "models/gpu/gpu.h"
#include "support/core_run.h"
#include "support/sc_kernel.h"

namespace gputlm {
namespace {

using test::Inputs;
using test::SnippetLaunch;

nlohmann::json one_core(uint64_t launch_latency, uint64_t interval) {
  nlohmann::json c = test::preset();
  c["cores"] = 1;
  c["launch_latency"] = launch_latency;
  c["cta_dispatch_interval"] = interval;
  return c;
}

// Cycles of `ctas` CTAs of one warp running alu_loop(20) (about 1,700 cycles each alone).
Cycle launch_cycles(uint32_t ctas, const nlohmann::json& config) {
  test::fresh_sc_kernel();
  gpu::Gpu gpu("gpu", gpu::GpuSpec::from_json(config, "test"));
  SnippetLaunch l(test::alu_loop(20), std::vector<Inputs>(32, Inputs{0, 0, 0}));
  l.launch.grid = {ctas, 1, 1};
  const Cycle cycles = gpu.run(*l.bound, l.launch).cycles;
  EXPECT_EQ(l.outputs()[0].o, 1 + 3 * 8 * 20u);
  return cycles;
}

TEST(CtaDispatch, TheLaunchLatencyIsCountedBeforeTheFirstCta) {
  EXPECT_EQ(launch_cycles(4, one_core(5000, 0)), launch_cycles(4, one_core(0, 0)) + 5000);
}

// Each CTA starts `interval` cycles after the one before on the core; with an interval longer
// than a CTA's run every CTA runs alone, so one CTA more adds exactly one interval (the third and
// fourth CTA both find the first's lines in the caches).
TEST(CtaDispatch, ACoreTakesOneCtaEveryIntervalCycles) {
  const Cycle three = launch_cycles(3, one_core(0, 4000)),
              four = launch_cycles(4, one_core(0, 4000));
  EXPECT_EQ(four - three, 4000u);
  EXPECT_GT(three, 2 * 4000u);
  EXPECT_LT(launch_cycles(4, one_core(0, 0)), four - 4000);  // all four at once overlap
}

// The dispatcher's timed wake-ups are kernel events like any other: a run where every module
// runs every cycle gives the same cycles.
TEST(CtaDispatch, APolledRunGivesTheSameCycles) {
  nlohmann::json polled = one_core(300, 700);
  polled["poll_every_cycle"] = true;
  EXPECT_EQ(launch_cycles(6, polled), launch_cycles(6, one_core(300, 700)));
}

}  // namespace
}  // namespace gputlm
