// The unified L1/shared split a launch gets (sm/carveout.h) and the config keys that describe the
// array (core.unified_l1_shared_bytes, core.shared_carveouts_kb), without a simulation kernel.
#include <gtest/gtest.h>

#include "models/common/error.h"
#include "models/isa/kernel.h"
#include "models/sm/carveout.h"

namespace gputlm::sm {
namespace {

constexpr uint32_t kKB = 1024;

// A V100-like SM: 2048 threads, 64 warps, 32 CTAs, 64K registers (32 a thread), a 128 KB array
// with shared capacities of 0, 8, 16, 32, 64 or 96 KB (CUDA C++ Programming Guide, "Compute
// Capability 7.x"); the L1 has 32 sets of 128 B lines, so a way is 4 KB (32 ways at 128 KB).
nlohmann::json v100_core() {
  return {{"max_threads", 2048},
          {"max_warps", 64},
          {"max_ctas", 32},
          {"registers", 65536},
          {"registers_per_thread", 32},
          {"unified_l1_shared_bytes", 128 * kKB},
          {"shared_carveouts_kb", {0, 8, 16, 32, 64, 96}},
          {"l1d", {{"size_bytes", 128 * kKB}, {"assoc", 32}, {"line_bytes", 128}}}};
}

CoreSpec core(const nlohmann::json& j = v100_core()) { return CoreSpec::from_json(j, "t", "core"); }

std::string error_of(const nlohmann::json& j) {
  try {
    core(j);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

// A launch of 256-thread CTAs (8 fit a V100 SM by threads, warps and registers) with `shared`
// bytes of shared memory each.
struct TestLaunch {
  explicit TestLaunch(uint32_t shared, uint32_t ctas = 10000, int preferred = -1) {
    launch.kernel = &kernel;
    launch.block = {256, 1, 1};
    launch.grid = {ctas, 1, 1};
    launch.dynamic_shared = shared;
    launch.preferred_carveout = preferred;
  }
  isa::Kernel kernel;
  func::Launch launch;
};

Carveout choose(const TestLaunch& t, uint32_t cores = 80, const CoreSpec& spec = core()) {
  return choose_carveout(spec, t.launch, cores);
}

TEST(Carveout, TheSharedMemoryOfTheCtasThatFitTakesTheSmallestCapacityHoldingIt) {
  // 40 KB a CTA: two fit in 96 KB; 80 KB needs 96 KB, and the L1 keeps 32 KB (8 ways of 4 KB).
  const Carveout c = choose(TestLaunch(40 * kKB));
  EXPECT_EQ(c.shared_bytes, 96 * kKB);
  EXPECT_EQ(c.l1d_ways, 8u);
  EXPECT_EQ(c.l1d_bytes, 32u * kKB);
  // 4 KB a CTA: the 8 CTAs the other limits allow need 32 KB.
  EXPECT_EQ(choose(TestLaunch(4 * kKB)).shared_bytes, 32 * kKB);
}

TEST(Carveout, AKernelWithoutSharedMemoryLeavesTheWholeArrayToTheL1) {
  const Carveout c = choose(TestLaunch(0));
  EXPECT_EQ(c.shared_bytes, 0u);
  EXPECT_EQ(c.l1d_ways, 32u);
  EXPECT_EQ(c.l1d_bytes, 128u * kKB);
}

TEST(Carveout, ASmallGridTakesOnlyItsShareOfACore) {
  // 80 CTAs on 80 cores: one a core (Accel-Sim's max_cta caps by the grid before choosing).
  const Carveout c = choose(TestLaunch(4 * kKB, 80));
  EXPECT_EQ(c.shared_bytes, 8 * kKB);
  EXPECT_EQ(c.l1d_bytes, 120u * kKB);
  EXPECT_EQ(choose(TestLaunch(4 * kKB, 81)).shared_bytes, 8 * kKB);  // two a core: 8 KB
  EXPECT_EQ(choose(TestLaunch(4 * kKB, 161)).shared_bytes, 16 * kKB);
}

TEST(Carveout, APreferredCarveoutTakesTheSmallestCapacityOfThatShareOfTheLargest) {
  // 50% of 96 KB = 48 KB: 64 KB, though 4 KB CTAs would do with 32 KB.
  const Carveout c = choose(TestLaunch(4 * kKB, 10000, 50));
  EXPECT_EQ(c.shared_bytes, 64 * kKB);
  EXPECT_EQ(c.l1d_bytes, 64u * kKB);
  EXPECT_EQ(choose(TestLaunch(4 * kKB, 10000, 100)).shared_bytes, 96 * kKB);  // MaxShared
  EXPECT_EQ(choose(TestLaunch(4 * kKB, 10000, 0)).shared_bytes, 8 * kKB);     // MaxL1: one CTA
  EXPECT_EQ(choose(TestLaunch(0, 10000, 0)).shared_bytes, 0u);
  // 9% of 96 KB is 8.64 KB: 16 KB; 8% is 7.68 KB: 8 KB.
  EXPECT_EQ(choose(TestLaunch(0, 10000, 9)).shared_bytes, 16 * kKB);
  EXPECT_EQ(choose(TestLaunch(0, 10000, 8)).shared_bytes, 8 * kKB);
}

TEST(Carveout, APreferenceTooSmallForOneCtaIsOverruled) {
  // MaxL1 with 40 KB CTAs: the smallest capacity that holds one, 64 KB.
  EXPECT_EQ(choose(TestLaunch(40 * kKB, 10000, 0)).shared_bytes, 64 * kKB);
  // A cooperative grid of 160 CTAs on 80 cores needs two resident on each: 96 KB.
  TestLaunch coop(40 * kKB, 160, 0);
  coop.launch.grid_workspace = 0x1000;
  EXPECT_EQ(choose(coop).shared_bytes, 96 * kKB);
}

TEST(Carveout, ALaunchNoCapacityHoldsGetsTheLargest) {
  EXPECT_EQ(choose(TestLaunch(100 * kKB)).shared_bytes, 96 * kKB);
}

TEST(Carveout, TheOccupancyLimitUsesTheChosenCapacity) {
  const CoreSpec s = core();
  const TestLaunch t(40 * kKB);
  EXPECT_EQ(ctas_fitting(s, t.launch), 2u);  // at the largest, 96 KB (shared_bytes)
  EXPECT_EQ(ctas_fitting(s, t.launch, {}, 64 * kKB), 1u);
  EXPECT_EQ(s.shared_bytes, 96 * kKB);
}

TEST(Carveout, AnA100ArrayOf192KbSplitsAt164Kb) {
  // CUDA C++ Programming Guide, "Compute Capability 8.x": 0, 8, 16, 32, 64, 100, 132 or 164 KB.
  nlohmann::json j = v100_core();
  j["unified_l1_shared_bytes"] = 192 * kKB;
  j["shared_carveouts_kb"] = {0, 8, 16, 32, 64, 100, 132, 164};
  j["l1d"]["size_bytes"] = 192 * kKB;
  j["l1d"]["assoc"] = 48;
  const Carveout c = choose(TestLaunch(40 * kKB), 108, core(j));  // 4 CTAs: 160 KB
  EXPECT_EQ(c.shared_bytes, 164 * kKB);
  EXPECT_EQ(c.l1d_ways, 7u);
  // 16 KB a CTA: 8 fit by threads, 128 KB.
  EXPECT_EQ(choose(TestLaunch(16 * kKB), 108, core(j)).shared_bytes, 132 * kKB);
}

TEST(Carveout, ACoreThatIsNotUnifiedKeepsItsFixedSplit) {
  nlohmann::json j = v100_core();
  j.erase("unified_l1_shared_bytes");
  j.erase("shared_carveouts_kb");
  j["shared_bytes"] = 48 * kKB;
  const Carveout c = choose(TestLaunch(0, 10000, 100), 80, core(j));
  EXPECT_EQ(c.shared_bytes, 48 * kKB);
  EXPECT_EQ(c.l1d_ways, 32u);
  EXPECT_EQ(c.l1d_bytes, 128u * kKB);
}

TEST(Carveout, TheConfigMustDescribeAnArrayTheL1CanTakeInWholeWays) {
  nlohmann::json j = v100_core();
  j["shared_carveouts_kb"] = {0, 8, 98};  // 30 KB left: not whole 4 KB ways
  EXPECT_NE(error_of(j).find("core.shared_carveouts_kb"), std::string::npos) << error_of(j);
  j["shared_carveouts_kb"] = {0, 64, 32};
  EXPECT_NE(error_of(j).find("ascending"), std::string::npos) << error_of(j);
  j["shared_carveouts_kb"] = {0, 128};
  EXPECT_NE(error_of(j).find("below the unified size"), std::string::npos) << error_of(j);
  j = v100_core();
  j["l1d"]["size_bytes"] = 32 * kKB;
  j["l1d"]["assoc"] = 8;
  EXPECT_NE(error_of(j).find("must equal l1d.size_bytes"), std::string::npos) << error_of(j);
  j = v100_core();
  j["l1d"]["write_policy"] = "write-back";
  EXPECT_NE(error_of(j).find("write-through"), std::string::npos) << error_of(j);
  j = v100_core();
  j["shared_bytes"] = 64 * kKB;
  EXPECT_NE(error_of(j).find("core.shared_bytes"), std::string::npos) << error_of(j);
  j["shared_bytes"] = 96 * kKB;
  EXPECT_EQ(error_of(j), "");
  j = v100_core();
  j.erase("unified_l1_shared_bytes");
  EXPECT_NE(error_of(j).find("needs unified_l1_shared_bytes"), std::string::npos) << error_of(j);
}

}  // namespace
}  // namespace gputlm::sm
