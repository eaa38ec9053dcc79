// Every workload runs on the timing model under both presets and still matches its CPU
// reference: the timing model can never silently change results.
#include <gtest/gtest.h>

#include <algorithm>

#include "models/common/error.h"
#include "models/sm/core_context.h"
#include "tb/sc_kernel.h"
#include "tb/timing_run.h"
#include "tb/workload/catalog.h"

namespace gputlm::workload {
void PrintTo(const CatalogEntry& e, std::ostream* os) { *os << e.name; }
}  // namespace gputlm::workload

namespace gputlm {
namespace {

std::string test_name(const testing::TestParamInfo<workload::CatalogEntry>& info) {
  std::string n = info.param.name;
  for (char& c : n)
    if (!isalnum(static_cast<unsigned char>(c))) c = '_';
  return n;
}

class TimedWorkloads : public testing::TestWithParam<workload::CatalogEntry> {
 protected:
  // Runs the workload on a preset, with `patch` merged into its config.
  void run_on(const std::string& preset, const nlohmann::json& patch = nlohmann::json::object()) {
    tb::fresh_sc_kernel();
    workload::Workload w(GetParam().dir, "test");
    nlohmann::json config = gpu::load_config(std::string(GPUTLM_SOURCE_DIR) + "/configs/" + preset + ".json");
    config.merge_patch(patch);
    const gpu::GpuSpec spec = gpu::GpuSpec::from_json(config, preset);
    const tb::TimingRun run = tb::run_timing(w, spec, {});
    for (const auto& b : run.verify.buffers) EXPECT_EQ(b.mismatches, 0u) << b.name << ": " << b.first_mismatch;
    EXPECT_TRUE(run.verify.ok());
    EXPECT_GT(run.cycles, 0u);
    EXPECT_GT(run.ipc(), 0.0);
  }
  // With large warps the sub-warps formed depend on timing (a thread still busy is left for a
  // later sub-warp), so a cycle's shift may change their number a little too. With compaction
  // blocks a slot can still be fetched after the fetch its I-cache line completed, so when the
  // cycle's scan runs after the line's arrival (sleeping) two of its warps start in that cycle,
  // and one when the scan ran before (polled, the process order): measured 0.41% on vecadd.
  void compare_sleeping_and_polled(const std::string& preset, bool same_instructions, double fraction = 0.002) {
    nlohmann::json config = gpu::load_config(std::string(GPUTLM_SOURCE_DIR) + "/configs/" + preset + ".json");
    auto run = [&](bool every_cycle) {
      tb::fresh_sc_kernel();
      config["core"]["run_every_cycle"] = every_cycle;
      workload::Workload w(GetParam().dir, "test");
      return tb::run_timing(w, gpu::GpuSpec::from_json(config, "test"), {});
    };
    const tb::TimingRun sleeping = run(false), polled = run(true);
    // Hong & Kim's uncoalesced micro-benchmarks send 32 line requests per warp load and keep every
    // L1 miss slot busy, which lets a same-cycle order difference grow: measured 0.35% of the
    // cycles moving between pipeline and memory stalls (mb3_uc, totals 1 cycle apart), 0.21% in
    // total cycles with large warps (mb4_uc), 0.8% with compaction (mb3_uc); the first difference
    // is a DRAM queue taking a request one delta apart. Sleeping is the faster there, not the
    // slower, as a missed wake-up would make it.
    if (GetParam().name.rfind("hongkim/mb", 0) == 0 && GetParam().name.size() > 3 &&
        GetParam().name.compare(GetParam().name.size() - 3, 3, "_uc") == 0)
      fraction = std::max(fraction, 0.01);
    const double slack = fraction * static_cast<double>(polled.cycles);
    EXPECT_NEAR(static_cast<double>(sleeping.cycles), static_cast<double>(polled.cycles), slack);
    // bfs's threads race on the visited flags (as in Rodinia), so how many instructions it runs
    // depends on timing (test size: 50,595 warp instructions round-robin, 50,613 greedy-then-oldest).
    const bool racy = GetParam().name == "narasiman/bfs";
    if (same_instructions && !racy) {
      EXPECT_EQ(sleeping.warp_instructions, polled.warp_instructions);
    }
    EXPECT_NEAR(static_cast<double>(sleeping.warp_instructions), static_cast<double>(polled.warp_instructions),
                fraction * static_cast<double>(polled.warp_instructions));
    for (size_t c = 0; c < polled.stall_cycles.size(); ++c)
      EXPECT_NEAR(static_cast<double>(sleeping.stall_cycles[c]), static_cast<double>(polled.stall_cycles[c]), slack)
          << sm::stall_cause_name(static_cast<sm::StallCause>(c));
  }
};

TEST_P(TimedWorkloads, VerifyOnNarasimanBaseline) { run_on("narasiman-baseline"); }

// The cores sleep while no stage has work; running them every cycle instead must give the same
// timing: a stage that needed a run it did not ask for (a missed wake-up) would show here as
// lost cycles. What may differ: when a cache answers in the same simulated cycle, whether the
// core had already run in that cycle depends on SystemC's order of processes within the time
// step, which can move an instruction by a cycle (see the README's "Simulation" notes).
TEST_P(TimedWorkloads, SleepingCoresTimeLikeCoresRunEveryCycle) { compare_sleeping_and_polled("narasiman-baseline", true); }
TEST_P(TimedWorkloads, SleepingLargeWarpCoresTimeLikeCoresRunEveryCycle) { compare_sleeping_and_polled("lwm256", false); }

TEST_P(TimedWorkloads, VerifyOnFermiGtx480) { run_on("fermi-gtx480"); }

// Every kernel the VGIW mapper accepts verifies on the VGIW core; a kernel it cannot map (warp
// collectives: VGIW has no warps) is one clear error naming the kernel. The Table 2 suite must map.
TEST_P(TimedWorkloads, VerifyOnVgiw) {
  try {
    run_on("vgiw");
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("cannot run on the VGIW core"), std::string::npos) << e.what();
    EXPECT_NE(GetParam().name.rfind("rodinia-like/", 0), 0u) << e.what();
  }
}
TEST_P(TimedWorkloads, VerifyOnNarasimanDb) { run_on("narasiman-db"); }
TEST_P(TimedWorkloads, VerifyOnNarasimanDbHold) { run_on("narasiman-db-hold"); }
TEST_P(TimedWorkloads, VerifyOnTwoLevel8) { run_on("2lev8"); }  // a preset built on a base config
TEST_P(TimedWorkloads, VerifyOnLargeWarps256) { run_on("lwm256"); }
TEST_P(TimedWorkloads, VerifyOnLargeWarps256TwoLevel1) { run_on("lwm256-2lev1"); }
TEST_P(TimedWorkloads, VerifyOnThreadBlockCompaction256) { run_on("tbc256"); }
TEST_P(TimedWorkloads, VerifyOnDynamicWarpFormationMajority) { run_on("dwf"); }
TEST_P(TimedWorkloads, VerifyOnDynamicWarpFormationPdomPriority) { run_on("dwf", {{"core", {{"dwf", {{"policy", "pdom"}}}}}}); }
TEST_P(TimedWorkloads, SleepingCompactingCoresTimeLikeCoresRunEveryCycle) { compare_sleeping_and_polled("tbc256", false, 0.005); }
TEST_P(TimedWorkloads, VerifyOnLargeWarps256PerfectRegisterFileWaiting) {
  run_on("lwm256", {{"core", {{"lwm", {{"perfect_register_file", true}, {"busy_threads", "wait"}, {"memory_rows", false}, {"single_jump", false}}}}}});
}

// Four times Table 1's units (32 initiators): the scheduler answers the batch requests over
// several cycles, and the last "no more" can reach the fabric on a later evaluation of a cycle
// it already ran. It must still notice the block drained (it once slept there for good).
TEST(VgiwWorkloads, AFourTimesGridDrainsWhenTheLastNoMoreComesLateInACycle) {
  tb::fresh_sc_kernel();
  workload::Workload w(std::string(GPUTLM_SOURCE_DIR) + "/traces/rodinia-like/cfd", "test");
  nlohmann::json config = gpu::load_config(std::string(GPUTLM_SOURCE_DIR) + "/configs/vgiw.json");
  config["vgiw"]["units"] = {{"compute", 128}, {"special", 48}, {"load_store", 64}, {"live_value", 64}, {"split_join", 64}, {"control_vector", 64}};
  config["vgiw"]["grid_width"] = 72;
  config["vgiw"]["grid_height"] = 6;
  config["vgiw"]["l1d"]["ports"] = 64;
  config["vgiw"]["lvc"]["ports"] = 64;
  const tb::TimingRun run = tb::run_timing(w, gpu::GpuSpec::from_json(config, "vgiw-x4"), {});
  EXPECT_TRUE(run.verify.ok());
}

tb::TimingRun run_db(const std::string& workload, const std::string& preset) {
  tb::fresh_sc_kernel();
  workload::Workload w(std::string(GPUTLM_SOURCE_DIR) + "/traces/db/" + workload, "test");
  const nlohmann::json config = gpu::load_config(std::string(GPUTLM_SOURCE_DIR) + "/configs/" + preset + ".json");
  return tb::run_timing(w, gpu::GpuSpec::from_json(config, preset), {});
}

// The hint-aware controller changes nothing without hinted loads, and holds rows with them.
TEST(DbWorkloads, TheHoldControllerOnlyActsOnHintedLoads) {
  const tb::TimingRun plain = run_db("index_baseline", "narasiman-db"), held = run_db("index_baseline", "narasiman-db-hold");
  EXPECT_EQ(plain.cycles, held.cycles);
  EXPECT_EQ(held.modules["gpu.dram0"]["holds"].get<uint64_t>(), 0u);
  const tb::TimingRun hinted = run_db("index_hint", "narasiman-db-hold");
  const nlohmann::json& d = hinted.modules["gpu.dram0"];
  EXPECT_GT(d["holds"].get<uint64_t>(), 100u);
  EXPECT_GT(d["hold_hits"].get<uint64_t>(), 0u);
  EXPECT_GT(d["row_buffer_hit_rate"].get<double>(), plain.modules["gpu.dram0"]["row_buffer_hit_rate"].get<double>());
}

// COND_ACC replaces step 3's six instructions and branch by one (dissertation Fig. 8.1(b)).
TEST(DbWorkloads, CondAccRunsFewerWarpInstructions) {
  const tb::TimingRun base = run_db("scan_baseline", "narasiman-db"), acc = run_db("scan_condacc", "narasiman-db");
  EXPECT_LT(acc.warp_instructions, base.warp_instructions * 0.9);
}

INSTANTIATE_TEST_SUITE_P(All, TimedWorkloads,
                         testing::ValuesIn(workload::list_workloads(std::string(GPUTLM_SOURCE_DIR) + "/traces")), test_name);

}  // namespace
}  // namespace gputlm
