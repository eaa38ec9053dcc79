// Every workload runs on the timing model under both presets and still matches its CPU
// reference: the timing model can never silently change results.
#include <gtest/gtest.h>

#include <unistd.h>
#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "app/timing_run.h"
#include "io/workload/catalog.h"
#include "models/common/error.h"
#include "models/core/core_counters.h"
#include "support/sc_kernel.h"

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

// A run's statistics without what may differ between identical runs (host time) or names the
// config (its hash changes with poll_every_cycle).
nlohmann::json comparable(const app::TimingRun& run) {
  nlohmann::json j = app::to_json(run);
  j.erase("host_seconds");
  j.erase("config");
  return j;
}

class TimedWorkloads : public testing::TestWithParam<workload::CatalogEntry> {
 protected:
  app::TimingRun run_once(const nlohmann::json& config, const app::TimingOptions& options = {}) {
    test::fresh_sc_kernel();
    workload::Workload w(GetParam().dir, "test");
    return app::run_timing(w, gpu::GpuSpec::from_json(config, "test"), options);
  }
  // Runs the workload on a preset, with `patch` merged into its config, three ways: modules
  // sleeping until they have work (the default), every module polled every cycle, and with waves
  // of every module. Observing or polling must not change what is simulated: a module that
  // missed a wake-up, or a decision that depended on SystemC's order of processes within a time
  // step, shows here as a difference in any statistic.
  void run_on(const std::string& preset, const nlohmann::json& patch = nlohmann::json::object()) {
    if (std::getenv("GPUTLM_SANITIZER_PASS") && preset != "narasiman-baseline" &&
        !in_sanitizer_sample())
      GTEST_SKIP() << "the sanitizer pass runs every workload on narasiman-baseline and a fixed "
                      "quarter of the others";
    nlohmann::json config =
        gpu::load_config(std::string(GPUTLM_SOURCE_DIR) + "/configs/" + preset + ".json");
    config.merge_patch(patch);
    const app::TimingRun run = run_once(config);
    for (const auto& b : run.verify.buffers)
      EXPECT_EQ(b.mismatches, 0u) << b.name << ": " << b.first_mismatch;
    EXPECT_TRUE(run.verify.ok());
    EXPECT_GT(run.cycles, 0u);
    EXPECT_GT(run.ipc(), 0.0);
    const nlohmann::json expected = comparable(run);
    // The sanitizer pass of scripts/test.sh looks for memory errors, not for differences, and runs
    // about 10x slower: it skips the two repetitions (the normal pass makes them).
    if (std::getenv("GPUTLM_SANITIZER_PASS")) return;

    nlohmann::json polled = config;
    polled["poll_every_cycle"] = true;
    EXPECT_EQ(comparable(run_once(polled)), expected)
        << "polling every module every cycle changed the statistics";

    app::TimingOptions waves;
    // One file per test process: ctest runs tests in parallel.
    const std::string stem = testing::TempDir() + "timed_workloads_" + std::to_string(::getpid());
    waves.vcd_path = stem + ".vcd";
    EXPECT_EQ(comparable(run_once(config, waves)), expected)
        << "writing waves changed the statistics";
    std::remove(waves.vcd_path.c_str());
    for (const char* ext : {".gtkw", ".warp_state.txt", ".stage_warp.txt", ".dram_command.txt"})
      std::remove((stem + ext).c_str());
  }
  // The sanitizer pass of scripts/test.sh looks for memory errors, not for differences, and runs
  // about 10x slower: beside every workload on narasiman-baseline it runs a fixed quarter of the
  // other (preset, workload) tests, chosen by a hash of the test's name (FNV-1a), so each preset
  // meets about a quarter of the workloads and each workload a quarter of the presets, the same
  // ones on every run. The normal pass runs them all.
  static bool in_sanitizer_sample() {
    uint32_t h = 2166136261u;
    for (const char* c = testing::UnitTest::GetInstance()->current_test_info()->name(); *c; ++c)
      h = (h ^ static_cast<uint8_t>(*c)) * 16777619u;
    return h % 4 == 0;
  }
  void run_on_unless_too_big(const std::string& preset) {
    try {
      run_on(preset);
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("does not fit a core of '" + preset + "'"),
                std::string::npos)
          << e.what();
      EXPECT_EQ(GetParam().name, "narasiman/decrypt") << e.what();
    }
  }
};

TEST_P(TimedWorkloads, VerifyOnNarasimanBaseline) { run_on("narasiman-baseline"); }

TEST_P(TimedWorkloads, VerifyOnFermiGtx480) { run_on("fermi-gtx480"); }

// Every kernel the VGIW mapper accepts verifies on the VGIW core; a kernel it cannot map (warp
// collectives: VGIW has no warps) is one clear error naming the kernel. The Table 2 suite must map.
TEST_P(TimedWorkloads, VerifyOnVgiw) {
  try {
    run_on("vgiw");
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("cannot run on the VGIW core"), std::string::npos)
        << e.what();
    EXPECT_NE(GetParam().name.rfind("rodinia-like/", 0), 0u) << e.what();
  }
}
// Every kernel whose one graph fits the grid verifies on the SGMF core; a workload with a kernel
// that does not fit (more units than the grid has, a barrier, warp collectives) is one clear error
// naming the kernel. Table 2's bfs, kmeans, gaussian and nn have only kernels that fit.
TEST_P(TimedWorkloads, VerifyOnSgmf) {
  const std::string& name = GetParam().name;
  const bool must_fit = name == "rodinia-like/bfs" || name == "rodinia-like/kmeans" ||
                        name == "rodinia-like/gaussian" || name == "rodinia-like/nn";
  try {
    run_on("sgmf");
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("cannot run on the SGMF core"), std::string::npos)
        << e.what();
    EXPECT_FALSE(must_fit) << e.what();
  }
}
// narasiman-db keeps Table 8.1's 32 KB scratchpad. One CTA of narasiman/decrypt holds a 32 KB
// T-table copy per lane plus its S-box and round keys (33 KB), so there it is one clear error
// naming the kernel, its CTA and the core; every other workload verifies.
TEST_P(TimedWorkloads, VerifyOnNarasimanDb) { run_on_unless_too_big("narasiman-db"); }
TEST_P(TimedWorkloads, VerifyOnNarasimanDbHold) { run_on_unless_too_big("narasiman-db-hold"); }
TEST_P(TimedWorkloads, VerifyOnTwoLevel8) { run_on("2lev8"); }  // a preset built on a base config
TEST_P(TimedWorkloads, VerifyOnLargeWarps256) { run_on("lwm256"); }
TEST_P(TimedWorkloads, VerifyOnLargeWarps256TwoLevel1) { run_on("lwm256-2lev1"); }
TEST_P(TimedWorkloads, VerifyOnThreadBlockCompaction256) { run_on("tbc256"); }
TEST_P(TimedWorkloads, VerifyOnDynamicWarpFormationMajority) { run_on("dwf"); }
TEST_P(TimedWorkloads, VerifyOnDynamicWarpFormationPdomPriority) {
  run_on("dwf", {{"core", {{"dwf", {{"policy", "pdom"}}}}}});
}
TEST_P(TimedWorkloads, VerifyOnLargeWarps256PerfectRegisterFileWaiting) {
  run_on("lwm256", {{"core",
                     {{"lwm",
                       {{"perfect_register_file", true},
                        {"busy_threads", "wait"},
                        {"memory_rows", false},
                        {"single_jump", false}}}}}});
}

// Four times Table 1's units (32 initiators): the scheduler answers the batch requests over
// several cycles, and the last "no more" can reach the fabric on a later evaluation of a cycle
// it already ran. It must still notice the block drained (it once slept there for good).
TEST(VgiwWorkloads, AFourTimesGridDrainsWhenTheLastNoMoreComesLateInACycle) {
  test::fresh_sc_kernel();
  workload::Workload w(std::string(GPUTLM_SOURCE_DIR) + "/traces/rodinia-like/cfd", "test");
  nlohmann::json config = gpu::load_config(std::string(GPUTLM_SOURCE_DIR) + "/configs/vgiw.json");
  config["vgiw"]["units"] = {{"compute", 128},   {"special", 48},    {"load_store", 64},
                             {"live_value", 64}, {"split_join", 64}, {"control_vector", 64}};
  config["vgiw"]["grid_width"] = 72;
  config["vgiw"]["grid_height"] = 6;
  config["vgiw"]["l1d"]["ports"] = 64;
  config["vgiw"]["lvc"]["ports"] = 64;
  const app::TimingRun run = app::run_timing(w, gpu::GpuSpec::from_json(config, "vgiw-x4"), {});
  EXPECT_TRUE(run.verify.ok());
}

// With vgiw.sgmf_unmapped = vgiw, the SGMF core runs a kernel it cannot map as VGIW blocks, and
// says so per launch: cfd's compute_flux needs 163 compute units, its three other kernels fit.
TEST(SgmfWorkloads, AKernelThatDoesNotFitRunsAsVgiwBlocksWhenAskedAndTheLaunchSaysSo) {
  test::fresh_sc_kernel();
  workload::Workload w(std::string(GPUTLM_SOURCE_DIR) + "/traces/rodinia-like/cfd", "test");
  nlohmann::json config = gpu::load_config(std::string(GPUTLM_SOURCE_DIR) + "/configs/sgmf.json");
  config["vgiw"]["sgmf_unmapped"] = "vgiw";
  const app::TimingRun run =
      app::run_timing(w, gpu::GpuSpec::from_json(config, "sgmf-fallback"), {});
  EXPECT_TRUE(run.verify.ok());
  size_t as_vgiw = 0, as_sgmf = 0;
  for (const auto& l : run.launches) {
    uint64_t tiles = 0;
    for (const auto& [name, m] : l.modules.items())
      if (m.contains("tiles_as_vgiw")) tiles += m["tiles_as_vgiw"].get<uint64_t>();
    (tiles ? as_vgiw : as_sgmf)++;
    EXPECT_EQ(tiles > 0, l.kernel == "compute_flux") << l.kernel;
  }
  EXPECT_GT(as_vgiw, 0u);
  EXPECT_GT(as_sgmf, 0u);
}

app::TimingRun run_db(const std::string& workload, const std::string& preset) {
  test::fresh_sc_kernel();
  workload::Workload w(std::string(GPUTLM_SOURCE_DIR) + "/traces/db/" + workload, "test");
  const nlohmann::json config =
      gpu::load_config(std::string(GPUTLM_SOURCE_DIR) + "/configs/" + preset + ".json");
  return app::run_timing(w, gpu::GpuSpec::from_json(config, preset), {});
}

// The hint-aware controller changes nothing without hinted loads, and holds rows with them.
TEST(DbWorkloads, TheHoldControllerOnlyActsOnHintedLoads) {
  const app::TimingRun plain = run_db("index_baseline", "narasiman-db"),
                       held = run_db("index_baseline", "narasiman-db-hold");
  EXPECT_EQ(plain.cycles, held.cycles);
  EXPECT_EQ(held.modules["gpu.dram0"]["holds"].get<uint64_t>(), 0u);
  const app::TimingRun hinted = run_db("index_hint", "narasiman-db-hold");
  const nlohmann::json& d = hinted.modules["gpu.dram0"];
  EXPECT_GT(d["holds"].get<uint64_t>(), 100u);
  EXPECT_GT(d["hold_hits"].get<uint64_t>(), 0u);
  EXPECT_GT(d["row_buffer_hit_rate"].get<double>(),
            plain.modules["gpu.dram0"]["row_buffer_hit_rate"].get<double>());
}

// COND_ACC replaces step 3's six instructions and branch by one (dissertation Fig. 8.1(b)).
TEST(DbWorkloads, CondAccRunsFewerWarpInstructions) {
  const app::TimingRun base = run_db("scan_baseline", "narasiman-db"),
                       acc = run_db("scan_condacc", "narasiman-db");
  EXPECT_LT(acc.warp_instructions, base.warp_instructions * 0.9);
}

INSTANTIATE_TEST_SUITE_P(All, TimedWorkloads,
                         testing::ValuesIn(workload::list_workloads(std::string(GPUTLM_SOURCE_DIR) +
                                                                    "/traces")),
                         test_name);

}  // namespace
}  // namespace gputlm
