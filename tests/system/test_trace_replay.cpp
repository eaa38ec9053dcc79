// Trace record and replay (traces/FORMAT.md): on SIMT presets with static warps, replaying a
// recorded trace gives exactly the cycles and instructions of the execution-driven run; configs
// that regroup threads, the VGIW core, and traces that do not match are one clear error.
#include <gtest/gtest.h>

#include <unistd.h>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "app/timing_run.h"
#include "io/trace/trace_file.h"
#include "io/trace/trace_record.h"
#include "models/common/error.h"
#include "models/gpu/gpu_spec.h"
#include "support/sc_kernel.h"
#include "support/shell.h"

namespace gputlm {
namespace {

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// A workload's folder: under traces/, or a test fixture (tests/data/workloads/...).
std::string workload_dir(const std::string& workload) {
  return std::string(GPUTLM_SOURCE_DIR) + (workload.rfind("tests/", 0) == 0 ? "/" : "/traces/") +
         workload;
}

// The trace of a workload (test size), as text.
std::string record_trace(const std::string& workload) {
  const std::string dir = workload_dir(workload);
  workload::Workload w(dir, "test");
  std::ostringstream out;
  const trace::RecordSummary s =
      trace::record(w, read_file(dir + "/kernel.ptx"), out, 2'000'000'000ull);
  if (workload.rfind("tests/", 0) != 0) {  // the fixtures have no reference
    EXPECT_TRUE(s.verify.ok()) << workload;
  }
  return out.str();
}

gpu::GpuSpec preset(const std::string& name, const nlohmann::json& patch = nullptr) {
  nlohmann::json c =
      gpu::load_config(std::string(GPUTLM_SOURCE_DIR) + "/configs/" + name + ".json");
  if (!patch.is_null()) c.merge_patch(patch);
  return gpu::GpuSpec::from_json(c, name);
}

app::TimingRun replay(const std::string& trace, const gpu::GpuSpec& spec) {
  test::fresh_sc_kernel();
  std::istringstream in(trace);
  trace::TraceReader reader(in, "t.trace");
  return app::run_timing_trace(reader, spec, {});
}

app::TimingRun execute(const std::string& workload, const gpu::GpuSpec& spec) {
  test::fresh_sc_kernel();
  workload::Workload w(workload_dir(workload), "test");
  return app::run_timing(w, spec, {});
}

class Replay : public ::testing::TestWithParam<const char*> {};

TEST_P(Replay, GivesTheCyclesOfTheExecutionDrivenRun) {
  const std::string trace = record_trace(GetParam());
  for (const char* config : {"fermi-gtx480", "narasiman-baseline"}) {
    const gpu::GpuSpec spec = preset(config);
    const app::TimingRun executed = execute(GetParam(), spec), replayed = replay(trace, spec);
    EXPECT_TRUE(replayed.replayed);
    EXPECT_EQ(replayed.cycles, executed.cycles) << config;
    EXPECT_EQ(replayed.warp_instructions, executed.warp_instructions) << config;
    EXPECT_EQ(replayed.thread_instructions, executed.thread_instructions) << config;
    ASSERT_EQ(replayed.launches.size(), executed.launches.size()) << config;
    for (size_t i = 0; i < executed.launches.size(); ++i)
      EXPECT_EQ(replayed.launches[i].cycles, executed.launches[i].cycles)
          << config << " launch " << i;
    EXPECT_EQ(replayed.stall_cycles, executed.stall_cycles) << config;
  }
}

// Divergence, barriers and shared memory, several launches, local memory, the Hong & Kim
// micro-benchmarks' uncoalesced loads, cp.async groups and wmma on the tensor unit, a jump-table
// switch (brx.idx) and calls through function pointers (each lane's target in field j).
INSTANTIATE_TEST_SUITE_P(Workloads, Replay,
                         ::testing::Values("micro/vecadd", "micro/divergence",
                                           "rodinia-like/hotspot", "rodinia-like/nw",
                                           "rodinia-like/backprop", "hongkim/mb2_uc",
                                           "micro/tile_mma_async",
                                           "tests/data/workloads/jump_table"),
                         [](const auto& info) {
                           std::string n = info.param;
                           for (char& c : n)
                             if (c == '/' || c == '-') c = '_';
                           return n;
                         });

std::string replay_error(const std::string& trace, const gpu::GpuSpec& spec) {
  try {
    replay(trace, spec);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(ReplayErrors, ConfigsThatRegroupThreadsAndTheVgiwCoreAreRefused) {
  const std::string trace = record_trace("micro/divergence");
  EXPECT_NE(replay_error(trace, preset("lwm256"))
                .find("t.trace: a trace replays static warps; the config's warp formation"),
            std::string::npos)
      << replay_error(trace, preset("lwm256"));
  EXPECT_NE(replay_error(trace, preset("vgiw")).find("cannot drive the VGIW core"),
            std::string::npos);
}

TEST(ReplayErrors, ATraceThatDoesNotMatchWhatTheCoreIssuesStopsTheRunWithItsPlace) {
  std::string trace = record_trace("micro/vecadd");
  // The first instruction of CTA 0 warp 0 claims another PC.
  const size_t warp = trace.find("\nwarp 0 0 ");
  const size_t line = trace.find('\n', warp + 1) + 1;
  trace.replace(line, trace.find(' ', line) - line, "5");
  const std::string e = replay_error(trace, preset("fermi-gtx480"));
  EXPECT_NE(e.find("t.trace: launch 0, CTA 0, warp 0: the trace has pc 5 lanes ffffffff, the core "
                   "issued pc 0 lanes ffffffff"),
            std::string::npos)
      << e;
}

// brx.idx and calls through pointers need each lane's target (field j), and only targets the
// instruction can reach replay.
TEST(ReplayErrors, MissingOrImpossibleBranchTargetsAreAnErrorNamingTheInstruction) {
  const std::string trace = record_trace("tests/data/workloads/jump_table");
  const size_t brx = trace.find(" brx.idx "), j = trace.find(" j ", brx);
  std::string without = trace;
  without.erase(j, trace.find('\n', j) - j);
  std::string e = replay_error(without, preset("fermi-gtx480"));
  EXPECT_NE(e.find("t.trace: launch 0, CTA 0, warp 0, pc 23: field 'j' (the taken lanes' target "
                   "pcs) is missing"),
            std::string::npos)
      << e;
  std::string wrong = trace;
  wrong.replace(j, trace.find(' ', j + 3) - j, " j 0");  // lane 0 to pc 0, not in the list
  e = replay_error(wrong, preset("fermi-gtx480"));
  EXPECT_NE(e.find("pc 23: target pc 0 of lane 0 is not one 'brx.idx %r21, $L_brx_0;' can reach"),
            std::string::npos)
      << e;
  const size_t call = trace.find(" call "), cj = trace.find(" j ", call);
  wrong = trace;
  wrong.replace(cj, trace.find(' ', cj + 3) - cj, " j 23");  // a pc that is no function's entry
  e = replay_error(wrong, preset("fermi-gtx480"));
  EXPECT_NE(e.find("target pc 23 of lane 0 is not one"), std::string::npos) << e;
}

TEST(ReplayErrors, ATruncatedTraceIsAnErrorWithItsLine) {
  const std::string trace = record_trace("micro/vecadd");
  const std::string cut = trace.substr(0, trace.size() / 2);
  const std::string e = replay_error(cut.substr(0, cut.rfind('\n') + 1), preset("fermi-gtx480"));
  EXPECT_NE(e.find("t.trace:"), std::string::npos) << e;
  EXPECT_NE(e.find("truncated"), std::string::npos) << e;
}

// A gzip trace is a tenth of the text or less; reading detects it by its magic bytes, and a
// truncated one is an error at the line where it broke.
TEST(ReplayFiles, GzipTracesReplayLikeTextAndATruncatedOneIsAnError) {
  const std::string text = record_trace("rodinia-like/hotspot");
  const std::string path = (std::filesystem::temp_directory_path() /
                            ("gputlm_replay_" + std::to_string(::getpid()) + ".trace"))
                               .string();
  {
    auto out = trace::create_trace(path, trace::Compression::Gzip);
    *out << text;
    trace::finish_trace(std::move(out), path);
  }
  EXPECT_LT(std::filesystem::file_size(path) * 10, text.size());
  const gpu::GpuSpec spec = preset("fermi-gtx480");
  const uint64_t from_text = replay(text, spec).cycles;
  test::fresh_sc_kernel();
  auto in = trace::open_trace(path);
  trace::TraceReader reader(*in, path);
  EXPECT_EQ(app::run_timing_trace(reader, spec, {}).cycles, from_text);
  std::filesystem::resize_file(path, std::filesystem::file_size(path) / 2);
  test::fresh_sc_kernel();
  auto cut = trace::open_trace(path);
  try {
    trace::TraceReader r(*cut, path);
    app::run_timing_trace(r, spec, {});
    ADD_FAILURE() << "a truncated gzip trace replayed";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("the compressed trace is corrupt or truncated"),
              std::string::npos)
        << e.what();
  }
  std::filesystem::remove(path);
}

// The timing testbenches take a trace as they take a workload.
TEST(ReplayFiles, TheTimingTestbenchesReplayATraceToTheCyclesOfTheWorkload) {
  const std::string path = (std::filesystem::temp_directory_path() /
                            ("gputlm_tb_" + std::to_string(::getpid()) + ".trace"))
                               .string();
  std::ofstream(path) << record_trace("micro/divergence");
  auto cycles = [](const std::string& args) {
    const test::ShellResult r =
        test::shell("cd '" GPUTLM_SOURCE_DIR "' && '" GPUTLM_BIN_DIR "/" + args + " 2>/dev/null");
    EXPECT_EQ(r.exit_code, 0) << args;
    return nlohmann::json::parse(r.out).at("total").at("cycles").get<uint64_t>();
  };
  for (const char* tb : {"tb_gpu", "tb_sm"})
    EXPECT_EQ(cycles(std::string(tb) + "' --config configs/fermi-gtx480.json --trace " + path),
              cycles(std::string(tb) +
                     "' --config configs/fermi-gtx480.json --workload traces/micro/divergence"))
        << tb;
  std::filesystem::remove(path);
}

// The real Accel-Sim vectorAdd trace (traces/accel-sim/vectoradd, tracer version 5, Ampere SASS)
// replays end to end: every traced warp instruction issues once, the loads and stores reach the
// memory system, and the copies are reported as not timed.
TEST(AccelSimReplay, TheVectorAddTraceReplaysEndToEnd) {
  const std::string dir = std::string(GPUTLM_SOURCE_DIR) + "/traces/accel-sim/vectoradd";
  for (const char* config : {"fermi-gtx480", "narasiman-baseline"}) {
    test::fresh_sc_kernel();
    const app::TimingRun run = app::run_timing_trace_path(dir, preset(config), {});
    EXPECT_TRUE(run.replayed);
    ASSERT_EQ(run.launches.size(), 1u);
    EXPECT_EQ(run.launches[0].kernel, "_Z9vectorAddPKfS0_Pfi");
    EXPECT_EQ(run.warp_instructions, 1563u * 17 + 5u * 6) << config;  // every line of the trace
    EXPECT_GT(run.cycles, 1000u) << config;
    const nlohmann::json& l1 = run.modules.at("gpu.core0.l1d");
    EXPECT_GT(l1.at("accesses").get<double>(), 0) << config;
    ASSERT_EQ(run.notes.size(), 1u) << config;
    EXPECT_EQ(run.notes[0], "2 host-to-device copies (400000 bytes) not timed");
  }
  test::fresh_sc_kernel();
  try {
    app::run_timing_trace_path(dir, preset("tbc256"), {});
    ADD_FAILURE() << "compaction replayed a per-warp trace";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("regroups threads"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace gputlm
