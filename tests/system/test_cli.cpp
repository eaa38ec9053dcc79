// The gputlm executable as a user runs it: verified runs exit 0, wrong results 1, bad input 2
// with the file/line or key, kernel faults 3 with kernel, CTA, thread, PC, instruction, address.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "io/trace/trace_format.h"
#include "support/shell.h"

namespace {

using Result = gputlm::test::CliResult;
Result gputlm(const std::string& args) { return gputlm::test::gputlm_cli(args); }
bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}
std::string scratch(const std::string& name) {
  const auto dir =
      std::filesystem::temp_directory_path() / ("gputlm_cli_test_" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  return (dir / name).string();
}

TEST(Cli, VerifiedRunPrintsItsFiguresAndExitsZero) {
  const Result r = gputlm("run --functional --workload traces/micro/vecadd");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(contains(r.output, "warp instructions   2783")) << r.output;
  EXPECT_TRUE(contains(r.output, "avg active lanes    32.00")) << r.output;
  EXPECT_TRUE(contains(r.output, "VERIFIED")) << r.output;
  EXPECT_FALSE(contains(r.output, "SystemC 2.3")) << "banner leaked: " << r.output;
}

TEST(Cli, WrongResultExitsOneAndShowsTheFirstMismatch) {
  const Result r = gputlm("run --functional --workload tests/data/workloads/wrong_result");
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_TRUE(contains(r.output, "MISMATCH in 64 (element 0: got")) << r.output;
  EXPECT_TRUE(contains(r.output, "FAILED")) << r.output;
}

TEST(Cli, MalformedPtxNamesFileLineAndTextAndExitsTwo) {
  const Result r = gputlm("run --functional --workload tests/data/workloads/bad_ptx");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_TRUE(contains(r.output,
                       "tests/data/workloads/bad_ptx/kernel.ptx:30: unknown modifier '.f32x' for "
                       "add: `add.f32x %f3, %f1, %f2;`"))
      << r.output;
}

TEST(Cli, BadLaunchDescriptionNamesTheKeyAndExitsTwo) {
  const Result r = gputlm("run --functional --workload tests/data/workloads/bad_launch");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_TRUE(contains(r.output, "launch.json: key 'buffers[2].type': unknown type 'f33'"))
      << r.output;
}

TEST(Cli, OutOfBoundsAccessIsAFaultNamingKernelCtaThreadPcInstructionAndAddress) {
  const Result r = gputlm("run --functional --workload tests/data/workloads/fault_oob");
  EXPECT_EQ(r.exit_code, 3) << r.output;
  for (const char* part : {"kernel fault in 'vecadd'", "global address outside any allocation",
                           "at address 0x", "CTA (0,0,0)", "thread (0,0,0)", "PC 11",
                           "kernel.ptx:31", "`st.global.f32 [%rd8+256], %f3;`"})
    EXPECT_TRUE(contains(r.output, part)) << part << " missing in: " << r.output;
}

TEST(Cli, MisalignedAccessIsAFault) {
  const Result r = gputlm("run --functional --workload tests/data/workloads/fault_misaligned");
  EXPECT_EQ(r.exit_code, 3) << r.output;
  EXPECT_TRUE(contains(r.output, "misaligned 4-byte global access at address 0x10000002"))
      << r.output;
}

TEST(Cli, BarrierThatCanNeverCompleteIsAFault) {
  const Result r = gputlm("run --functional --workload tests/data/workloads/fault_barrier");
  EXPECT_EQ(r.exit_code, 3) << r.output;
  EXPECT_TRUE(contains(r.output, "barrier 0 can never complete: 24 of 32 threads arrived"))
      << r.output;
  EXPECT_TRUE(contains(r.output, "`bar.sync 0;`")) << r.output;
}

TEST(Cli, CommandLineErrorsExitTwo) {
  EXPECT_EQ(gputlm("frobnicate").exit_code, 2);
  EXPECT_EQ(gputlm("run --functional").exit_code, 2);
  const Result size = gputlm("run --functional --workload traces/micro/vecadd --size huge");
  EXPECT_EQ(size.exit_code, 2);
  EXPECT_TRUE(contains(size.output, "key 'sizes.huge': no such size (known: study, test)"))
      << size.output;
  const Result missing = gputlm("run --functional --workload traces/micro/nothing");
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_TRUE(contains(missing.output, "no such workload directory")) << missing.output;
  EXPECT_EQ(gputlm("run --functional --workload traces/micro/vecadd --bogus").exit_code, 2);
  const Result timing_only =
      gputlm("run --functional --workload traces/micro/vecadd --dram-trace " + scratch("f.csv"));
  EXPECT_EQ(timing_only.exit_code, 2);
  EXPECT_TRUE(contains(timing_only.output, "--dram-trace needs a timing run"))
      << timing_only.output;
}

TEST(Cli, HelpDocumentsEveryRunOption) {
  const Result r = gputlm("run --help");
  EXPECT_EQ(r.exit_code, 0);
  for (const char* opt : {"--functional", "--workload", "--size", "--stats", "--vcd",
                          "--dram-trace", "--dump-outputs", "--max-warp-instructions"})
    EXPECT_TRUE(contains(r.output, opt)) << opt;
  EXPECT_TRUE(contains(gputlm("--help").output, "list"));
}

TEST(Cli, ListShowsEveryWorkloadWithItsPaperClass) {
  const Result r = gputlm("list");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_TRUE(contains(r.output, "micro/vecadd")) << r.output;
  EXPECT_TRUE(contains(r.output, "narasiman/bfs")) << r.output;
  EXPECT_TRUE(contains(r.output, "branch high, idle FU high")) << r.output;
}

// The list's lines wrapped to the terminal joined again (a wrapped line continues after a newline
// and its indent).
std::string unwrapped(const std::string& s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '\n') {
      out += s[i];
      continue;
    }
    size_t j = i + 1;
    while (j < s.size() && s[j] == ' ') ++j;
    if (j - i - 1 >= 8) {  // a continuation line of a kernel (indent 8)
      out += ' ';
      i = j - 1;
    } else {
      out += '\n';
    }
  }
  return out;
}

TEST(Cli, ListKernelsShowsBasicBlocksAndTheVgiwMapping) {
  Result r = gputlm("list --kernels");
  EXPECT_EQ(r.exit_code, 0);
  r.output = unwrapped(r.output);
  EXPECT_TRUE(contains(r.output, "kernel saxpy: 25 instructions, 4 basic blocks; VGIW: 4 segments"))
      << r.output;
  EXPECT_TRUE(
      contains(r.output, "kernel index_both: 223 instructions, 38 basic blocks; VGIW: not mapped"))
      << r.output;
  // Which unit type runs out first for each segment's replicas, and the median segment's peak.
  // Its parameters, coordinates and their launch-constant arithmetic take no unit; only the
  // grid-stride index crosses blocks.
  EXPECT_TRUE(contains(
      r.output,
      "kernel saxpy: 25 instructions, 4 basic blocks; VGIW: 4 segments, 1 live values, 11 static "
      "instructions "
      "(parameters, coordinates), at least 5 replica(s) a segment, replicas bound by compute (1) "
      "control_vector (3), peak 41 thread instructions a cycle"))
      << r.output;
  // Whether the whole kernel fits the grid as one SGMF graph, or what it needs.
  EXPECT_TRUE(contains(r.output, "kernel bfs_kernel2: 33 instructions, 4 basic blocks; VGIW:"))
      << r.output;
  EXPECT_TRUE(contains(r.output, "SGMF: fits, 23 units a replica, 2 replica(s)")) << r.output;
  EXPECT_TRUE(contains(r.output,
                       "SGMF: does not fit (compute_flux: its whole graph (12 blocks) needs 238 "
                       "units: compute 163 (grid 32)"))
      << r.output;
}

// A VGIW run has no warps: its summary gives block runs, live value traffic and where the cores'
// active cycles went, instead of warp instructions and the MWP/CWP prediction.
// gputlm trace record writes every warp instruction the functional run executes, and the reader
// reads the file back whole.
TEST(Cli, TraceRecordWritesEveryWarpInstructionOfTheFunctionalRun) {
  const std::string out = scratch("saxpy.trace");
  const Result r = gputlm(
      "trace record --config configs/fermi-gtx480.json --workload traces/micro/saxpy --out " + out);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(contains(r.output, "VERIFIED")) << r.output;
  const Result f = gputlm("run --functional --workload traces/micro/saxpy");
  ASSERT_TRUE(contains(f.output, "warp instructions   10240")) << f.output;
  EXPECT_TRUE(contains(r.output, "1 launch(es), 10240 warp instructions")) << r.output;
  std::ifstream in(out);
  gputlm::trace::TraceReader reader(in, out);
  uint64_t instructions = 0, warps = 0, loads = 0;
  for (auto k = reader.next(); k != gputlm::trace::TraceReader::Kind::End; k = reader.next()) {
    warps += k == gputlm::trace::TraceReader::Kind::Warp;
    instructions += k == gputlm::trace::TraceReader::Kind::Instruction;
    loads += k == gputlm::trace::TraceReader::Kind::Instruction &&
             reader.instr.result.space == gputlm::isa::Space::Global;
  }
  EXPECT_EQ(instructions, 10240u);
  EXPECT_EQ(warps, 16u);  // 2 CTAs of 8 warps
  EXPECT_GT(loads, 0u);
  EXPECT_FALSE(std::filesystem::exists(out + ".part"));
}

TEST(Cli, TraceRecordOfABadWorkloadIsOneErrorAndLeavesNoFile) {
  const std::string out = scratch("none.trace");
  const Result r = gputlm("trace record --workload traces/micro/no_such --out " + out);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_TRUE(contains(r.output, "no_such")) << r.output;
  EXPECT_FALSE(std::filesystem::exists(out));
  EXPECT_FALSE(std::filesystem::exists(out + ".part"));
  EXPECT_EQ(gputlm("trace replay").exit_code, 2);
}

// An Accel-Sim trace directory replays from the command line; a bad line is exit 2 with its place.
TEST(Cli, AnAccelSimTraceReplaysAndABadOneNamesItsLine) {
  const Result r =
      gputlm("run --config configs/fermi-gtx480.json --trace traces/accel-sim/vectoradd");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(contains(r.output, "warp instructions   26601")) << r.output;
  EXPECT_TRUE(
      contains(r.output, "note                2 host-to-device copies (400000 bytes) not timed"))
      << r.output;
  const std::string dir = scratch("bad-accel-sim");
  std::filesystem::create_directories(dir);
  std::filesystem::copy_file(
      std::string(GPUTLM_SOURCE_DIR) + "/traces/accel-sim/vectoradd/kernelslist.g",
      dir + "/kernelslist.g", std::filesystem::copy_options::overwrite_existing);
  std::ifstream in(std::string(GPUTLM_SOURCE_DIR) + "/traces/accel-sim/vectoradd/kernel-1.traceg");
  std::ofstream out(dir + "/kernel-1.traceg");
  std::string line;
  for (int n = 1; std::getline(in, line); ++n)
    out << (n == 30 ? "00a0 ffffffff 1 R4 LDG.E 1 R4 4 9 0x7fb0fc430e00 4 0" : line) << "\n";
  out.close();
  const Result bad = gputlm("run --config configs/fermi-gtx480.json --trace " + dir);
  EXPECT_EQ(bad.exit_code, 2) << bad.output;
  EXPECT_TRUE(contains(bad.output, "kernel-1.traceg:30: unknown address mode 9")) << bad.output;
}

TEST(Cli, AVgiwRunSummarisesBlockRunsAndTheFabricCycles) {
  const Result r = gputlm("run --config configs/vgiw.json --workload traces/micro/saxpy");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(contains(r.output, "block runs          ")) << r.output;
  EXPECT_TRUE(contains(r.output, "live value cache    ")) << r.output;
  EXPECT_TRUE(contains(r.output, "core active cycles  ")) << r.output;
  EXPECT_TRUE(contains(r.output, "channels_full")) << r.output;
  EXPECT_FALSE(contains(r.output, "warp instructions   ")) << r.output;
  EXPECT_FALSE(contains(r.output, "MWP/CWP")) << r.output;
}

// A kernel the SGMF core cannot map is one clear error before any launch runs: cfd launches three
// kernels that fit before compute_flux, which needs 163 compute units.
TEST(Cli, AnSgmfKernelThatDoesNotFitIsAnErrorBeforeAnythingRuns) {
  const Result r =
      gputlm("run --config configs/sgmf.json --workload traces/rodinia-like/cfd --size study");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_TRUE(contains(r.output, "kernel 'compute_flux' cannot run on the SGMF core")) << r.output;
  EXPECT_TRUE(contains(r.output, "needs 238 units: compute 163 (grid 32)")) << r.output;
  EXPECT_FALSE(contains(r.output, "launch ")) << r.output;
  const Result ok =
      gputlm("run --config configs/sgmf.json --workload traces/rodinia-like/nn --size test");
  ASSERT_EQ(ok.exit_code, 0) << ok.output;
  EXPECT_TRUE(contains(ok.output, "block runs          ")) << ok.output;
  EXPECT_TRUE(contains(ok.output, "live value cache    0 accesses")) << ok.output;
}

TEST(Cli, StatsJsonAndVcdWithSaveFileAreWritten) {
  const std::string stats = scratch("s.json"), vcd = scratch("w.vcd");
  const Result r = gputlm("run --functional --workload traces/micro/divergence --stats " + stats +
                          " --vcd " + vcd);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  std::ifstream sj(stats);
  const nlohmann::json j = nlohmann::json::parse(sj);
  EXPECT_EQ(j["workload"], "micro/divergence");
  EXPECT_TRUE(j["verify"]["ok"].get<bool>());
  EXPECT_EQ(j["total"]["active_lanes_histogram"].size(), 33u);
  std::ifstream v(vcd);
  std::stringstream vs;
  vs << v.rdbuf();
  EXPECT_TRUE(contains(vs.str(), "$timescale")) << "no VCD header";
  EXPECT_TRUE(contains(vs.str(), "1 ns")) << "time unit is not one cycle";
  EXPECT_TRUE(contains(vs.str(), "active_mask"));
  std::ifstream g(scratch("w.gtkw"));
  std::stringstream gs;
  gs << g.rdbuf();
  EXPECT_TRUE(contains(gs.str(), "[dumpfile] \"w.vcd\"")) << gs.str();
  EXPECT_TRUE(contains(gs.str(), "func.warp0.active_mask")) << gs.str();
}

}  // namespace

namespace {

TEST(CliTiming, ARunPrintsCyclesAndIpcAndWritesStatsKeyedByModule) {
  const std::string stats = scratch("t.json"), csv = scratch("t.csv");
  const Result r = gputlm(
      "run --config configs/narasiman-baseline.json --workload traces/micro/vecadd --stats " +
      stats + " --csv " + csv);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(contains(r.output, "on narasiman-baseline (1 core)")) << r.output;
  EXPECT_TRUE(contains(r.output, "IPC ")) << r.output;
  EXPECT_TRUE(contains(r.output, "VERIFIED")) << r.output;
  std::ifstream sj(stats);
  const nlohmann::json j = nlohmann::json::parse(sj);
  EXPECT_EQ(j["config"]["name"], "narasiman-baseline");
  EXPECT_EQ(j["config"]["hash"].get<std::string>().size(), 16u);
  EXPECT_EQ(j["total"]["simd_utilization_cycles"].size(), 33u);
  EXPECT_TRUE(j["modules"].contains("gpu.core0"));
  EXPECT_TRUE(j["modules"].contains("gpu.core0.l1d"));
  EXPECT_TRUE(j["modules"].contains("gpu.dram0"));
  EXPECT_GT(j["modules"]["gpu.core0"]["warp_instructions"].get<int>(), 0);
  // vecadd: every load and store of a warp reads or writes one 128-byte line.
  const nlohmann::json& counts = j["launches"][0]["mwp_cwp_counts"];
  EXPECT_GT(counts["coalesced_memory_instructions"].get<int>(), 0);
  EXPECT_EQ(counts["uncoalesced_memory_instructions"].get<int>(), 0);
  EXPECT_EQ(counts["blocks_that_fit_per_core"].get<int>(),
            4);  // 256-thread CTAs on a 1024-thread core
  // The MWP/CWP model's prediction sits beside the simulated cycles, in the stats and the summary.
  const nlohmann::json& p = j["launches"][0]["mwp_cwp_prediction"];
  EXPECT_GT(p["cycles"].get<double>(), 0.0);
  EXPECT_GT(p["simulated_cpi"].get<double>(), 0.0);
  EXPECT_DOUBLE_EQ(p["inputs"]["active_blocks_per_sm"].get<double>(), 4.0);
  EXPECT_TRUE(contains(r.output, "MWP/CWP model ")) << r.output;
  EXPECT_TRUE(j["modules"]["gpu.core0"]["fetch_stall_cycles"]["memory"]
                  .is_number());  // bins with meanings by name
  // The CSV: the tidy table (app/stat_table.h), a header and a row per launch (vecadd has one);
  // the launch's module statistics are columns named by their path in the JSON.
  std::ifstream c(csv);
  std::vector<std::string> lines;
  for (std::string line; std::getline(c, line);) lines.push_back(line);
  ASSERT_EQ(lines.size(), 2u);
  const std::string& header = lines[0];
  EXPECT_EQ(
      header.rfind(
          "workload,size,config,config_hash,mode,complete,verify,host_seconds,launch,kernel,", 0),
      0u)
      << header.substr(0, 300);
  EXPECT_TRUE(contains(header, ",modules.gpu.dram0.row_buffer_hit_rate,")) << header;
  EXPECT_TRUE(contains(header, ",modules.gpu.core0.fetch_stall_cycles.memory,")) << header;
  EXPECT_FALSE(contains(header, "fetch_stall_cycles[")) << header;
  EXPECT_EQ(lines[1].rfind("micro/vecadd,test,narasiman-baseline,", 0), 0u)
      << lines[1].substr(0, 300);
  EXPECT_EQ(std::count(header.begin(), header.end(), ','),
            std::count(lines[1].begin(), lines[1].end(), ','));
}

// gputlm predict: the model on the functional engine's counts, which are the timing run's (the same
// lines per memory instruction at the config's L1 line size, the same CTA limits).
// The heap on huge pages (app/huge_pages.h) or not, a run's statistics are the same: nothing a
// model decides depends on where its state lies.
TEST(CliTiming, HugePagesChangeNoStatistic) {
  nlohmann::json stats[2];
  for (int on = 0; on < 2; ++on) {
    const std::string out = scratch("hp" + std::to_string(on) + ".json");
    const gputlm::test::ShellResult r = gputlm::test::shell(
        "cd '" GPUTLM_SOURCE_DIR "' && GPUTLM_HUGE_PAGES=" + std::to_string(on) +
        " '" GPUTLM_BINARY
        "' run --config configs/hopper-h100.json --workload traces/micro/vecadd --stats " +
        out + " 2>&1");
    ASSERT_EQ(r.exit_code, 0) << r.out;
    std::ifstream f(out);
    stats[on] = nlohmann::json::parse(f);
  }
  for (const char* part : {"total", "modules", "launches"}) {
    ASSERT_TRUE(stats[0].contains(part)) << part;
    EXPECT_EQ(stats[0][part], stats[1][part]) << part;
  }
}

TEST(CliPredict, PrintsTheModelsInputsMwpCwpCaseAndCyclesFromTheFunctionalCounts) {
  const std::string pred = scratch("p.json"), run = scratch("r.json");
  const Result r = gputlm(
      "predict --config configs/fermi-gtx480.json --workload traces/narasiman/blackscholes "
      "--stats " +
      pred);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  for (const char* s :
       {"#Coal_Mem_insts", "MWP", "CWP", "case", "predicted cycles", "CPI", "VERIFIED"})
    EXPECT_TRUE(contains(r.output, s)) << s << "\n" << r.output;
  ASSERT_EQ(gputlm("run --config configs/fermi-gtx480.json --workload "
                   "traces/narasiman/blackscholes --stats " +
                   run)
                .exit_code,
            0);
  std::ifstream pf(pred), rf(run);
  const nlohmann::json p = nlohmann::json::parse(pf)["launches"][0]["mwp_cwp_prediction"];
  const nlohmann::json t = nlohmann::json::parse(rf)["launches"][0]["mwp_cwp_prediction"];
  for (const char* k :
       {"comp_insts", "coal_mem_insts", "uncoal_mem_insts", "synch_insts", "active_blocks_per_sm"})
    EXPECT_DOUBLE_EQ(p["inputs"][k].get<double>(), t["inputs"][k].get<double>()) << k;
  EXPECT_DOUBLE_EQ(p["cycles"].get<double>(), t["cycles"].get<double>());
  EXPECT_FALSE(p.contains("simulated_cpi"));
  const Result missing = gputlm("predict --workload traces/micro/vecadd");
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_TRUE(contains(missing.output, "--config and --workload are required")) << missing.output;
}

TEST(CliTiming, WavesCanBeScopedAndWindowed) {
  const std::string vcd = scratch("core.vcd");
  const Result r =
      gputlm("run --config configs/narasiman-baseline.json --workload traces/micro/vecadd --vcd " +
             vcd + " --vcd-scope gpu.core0 --vcd-window 100:300");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  std::ifstream v(vcd);
  std::stringstream vs;
  vs << v.rdbuf();
  const std::string text = vs.str();
  EXPECT_TRUE(contains(text, "warp0")) << "core waves missing";
  EXPECT_FALSE(contains(text, "bank0")) << "the DRAM is outside the scope";
  EXPECT_TRUE(contains(text, "\n#100\n")) << "window start missing";
  EXPECT_FALSE(contains(text, "\n#50\n"));
  EXPECT_FALSE(contains(text, "\n#400\n"));
  // After the header every line is a time, a value change or a $dumpvars/$end keyword (SystemC's
  // comment in its initial dump must not leak in as a value: GTKWave stops reading there).
  std::istringstream lines(text.substr(text.find("$enddefinitions")));
  std::string line;
  std::getline(lines, line);
  while (std::getline(lines, line))
    EXPECT_TRUE(line.empty() || std::string("#b01xzr$").find(line[0]) != std::string::npos) << line;
  std::ifstream g(scratch("core.gtkw"));
  std::stringstream gs;
  gs << g.rdbuf();
  EXPECT_TRUE(contains(gs.str(), "gpu.core0.fetch.pc")) << gs.str().substr(0, 400);
}

// The save file opens a few cycles before the execute stage first holds an instruction (not at
// cycle 0, where a core waits for its first I-cache line).
TEST(CliTiming, TheSaveFileOpensWhereTheFirstInstructionStarts) {
  const std::string vcd = scratch("start.vcd");
  const Result r =
      gputlm("run --config configs/narasiman-baseline.json --workload traces/micro/vecadd --vcd " +
             vcd + " --vcd-scope gpu.core0");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  std::ifstream g(scratch("start.gtkw"));
  std::string line;
  uint64_t start = 0;
  while (std::getline(g, line))
    if (line.rfind("[timestart] ", 0) == 0) start = std::stoull(line.substr(12));
  std::ifstream v(vcd);
  std::string scope, id;
  uint64_t now = 0, first_busy = 0;
  while (std::getline(v, line) && first_busy == 0) {
    std::istringstream ls(line);
    std::string a, b, c, d, e;
    ls >> a >> b >> c >> d >> e;
    if (a == "$scope")
      scope = c;
    else if (a == "$var" && scope == "execute" && e == "occupancy")
      id = d;
    else if (!a.empty() && a[0] == '#')
      now = std::stoull(a.substr(1));
    else if (!id.empty() && a.size() > 1 && a[0] == 'b' && b == id &&
             a.find('1') != std::string::npos)
      first_busy = now;
  }
  ASSERT_GT(first_busy, 100u) << "the first instruction waits for its I-cache line from DRAM";
  EXPECT_EQ(start + 8, first_busy);
}

// The DRAM trace has one line per request each controller served, and its outcomes add up to the
// controllers' row-buffer counters; reads name the instruction (pc) that asked.
TEST(CliTiming, TheDramTraceHasALinePerRequestThatAddsUpToTheCounters) {
  const std::string trace = scratch("dram.csv"), stats = scratch("dram.json");
  const Result r =
      gputlm("run --config configs/fermi-gtx480.json --workload traces/micro/vecadd --dram-trace " +
             trace + " --stats " + stats);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(contains(r.output, "dram trace")) << r.output;
  std::ifstream sj(stats);
  const nlohmann::json modules = nlohmann::json::parse(sj)["modules"];
  std::ifstream t(trace);
  std::string line;
  std::getline(t, line);
  EXPECT_EQ(line,
            "channel,id,core,warp,pc,kind,address,bank,row,column,arrival,start,done,outcome,"
            "queued,hint");
  std::map<std::string, std::map<std::string, uint64_t>> outcomes;  // channel -> outcome -> count
  std::set<std::string> load_pcs;
  uint64_t lines = 0;
  while (std::getline(t, line)) {
    std::vector<std::string> f;
    std::stringstream ls(line);
    for (std::string x; std::getline(ls, x, ',');) f.push_back(x);
    ASSERT_EQ(f.size(), 16u) << line;
    EXPECT_EQ(f[15], "0") << line << ": no workload here uses ld.global.rowhint";
    ++lines;
    ++outcomes[f[0]][f[13]];
    const uint64_t arrival = std::stoull(f[10]), start = std::stoull(f[11]),
                   done = std::stoull(f[12]);
    EXPECT_LE(arrival, start) << line;
    EXPECT_LT(start, done) << line;
    if (f[5] == "load") load_pcs.insert(f[4]);
  }
  EXPECT_GT(lines, 0u);
  EXPECT_GT(outcomes.size(), 1u);  // fermi-gtx480 has several channels, each in the trace
  for (const auto& [channel, n] : outcomes) {
    const nlohmann::json& d = modules["gpu.dram" + channel];
    EXPECT_EQ(n.count("hit") ? n.at("hit") : 0, d["row_hits"].get<uint64_t>()) << channel;
    EXPECT_EQ(n.count("empty") ? n.at("empty") : 0, d["row_empties"].get<uint64_t>()) << channel;
    EXPECT_EQ(n.count("conflict") ? n.at("conflict") : 0, d["row_conflicts"].get<uint64_t>())
        << channel;
  }
  uint64_t requests = 0;
  for (const auto& [name, m] : modules.items())
    if (name.rfind("gpu.dram", 0) == 0) requests += m["requests"].get<uint64_t>();
  EXPECT_EQ(lines, requests);
  // vecadd's two ld.global (instructions 15 and 16) and its st.global (20), whose L2 write miss
  // allocates the line: a read of DRAM on behalf of the store.
  EXPECT_EQ(load_pcs, (std::set<std::string>{"15", "16", "20"}));
  const Result bad = gputlm(
      "run --config configs/narasiman-baseline.json --workload traces/micro/vecadd --dram-trace " +
      scratch("no/such/dir/d.csv"));
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_TRUE(contains(bad.output, "cannot write --dram-trace (no directory")) << bad.output;
}

TEST(CliTiming, ABadConfigValueNamesItsKeyAndAFaultInATimedRunExitsThree) {
  const std::string cfg = scratch("bad.json");
  std::ofstream(cfg) << R"({"core": {"scheduler": "lottery"}})";
  const Result bad = gputlm("run --config " + cfg + " --workload traces/micro/vecadd");
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_TRUE(contains(bad.output,
                       "key 'core.scheduler': unknown value 'lottery' (known: 2lev, gto, rr, srr)"))
      << bad.output;
  const Result fault = gputlm(
      "run --config configs/narasiman-baseline.json --workload tests/data/workloads/fault_oob");
  EXPECT_EQ(fault.exit_code, 3);
  EXPECT_TRUE(contains(fault.output, "global address outside any allocation")) << fault.output;
  const Result both = gputlm(
      "run --functional --config configs/narasiman-baseline.json --workload traces/micro/vecadd");
  EXPECT_EQ(both.exit_code, 2);
}

// Hostile input through the executable (issue 20): each is exit 2 with one line naming the file
// and line or key, never a crash, an uncaught exception (exit 1) or a long run.
struct Hostile {
  std::string file;      // launch.json or kernel.ptx of a copy of micro/vecadd
  std::string from, to;  // the text replaced (first occurrence)
  std::string expected;  // part of the one-line message
};

// gputlm's exit code and what it wrote on stderr alone (errors; SystemC's own notes go to stdout).
Result gputlm_stderr(const std::string& args) {
  const gputlm::test::ShellResult r = gputlm::test::shell(
      "cd '" GPUTLM_SOURCE_DIR "' && '" GPUTLM_BINARY "' " + args + " 2>&1 >/dev/null");
  return {r.exit_code, r.out};
}

// A copy of traces/micro/vecadd (so its reference is found) with `h` applied.
std::string hostile_workload(const Hostile& h, int n) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(scratch("hostile" + std::to_string(n))) / "micro" / "vecadd";
  fs::create_directories(dir);
  fs::copy(fs::path(GPUTLM_SOURCE_DIR) / "traces/micro/vecadd", dir,
           fs::copy_options::recursive | fs::copy_options::overwrite_existing);
  std::ifstream in(dir / h.file);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const size_t at = text.find(h.from);
  EXPECT_NE(at, std::string::npos) << h.from;
  if (at != std::string::npos) text.replace(at, h.from.size(), h.to);
  std::ofstream(dir / h.file) << text;
  return dir.string();
}

TEST(Cli, HostileWorkloadsAreOneLineErrorsThatExitTwo) {
  const std::vector<Hostile> cases = {
      {"launch.json", "\"(n + 255) / 256\"", "\"(-9223372036854775807 - 1) / -1\"",
       "launch.json: key 'launches[0].grid'"},
      {"launch.json", "\"(n + 255) / 256\"",
       "\"" + std::string(20000, '(') + "n" + std::string(20000, ')') + "\"", "nested deeper"},
      {"launch.json", "\"(n + 255) / 256\"", "\"n * 4611686018427387904\"",
       "does not fit in 64 bits"},
      {"launch.json", "\"(n + 255) / 256\"", "2147483647", "max_ctas_per_launch"},
      {"launch.json", "\"block\": 256", "\"block\": [65536, 65536, 1]",
       "key 'launches[0].block[0]'"},
      {"launch.json", "\"seed\": 1", "\"seed\": \"x\"", "launch.json: key 'seed'"},
      {"launch.json", "\"min\": -100.0", "\"min\": 1e400", "launch.json: invalid JSON"},
      {"launch.json", "\"count\": \"n\"", "\"count\": 17179869184", "max_buffer_bytes"},
      {"launch.json", "\"block\": 256", "\"block\": 256, \"shared_bytes\": 4294967297",
       "max_shared_bytes"},
      {"kernel.ptx", ".address_size 64", ".address_size x", "kernel.ptx:"},
      {"kernel.ptx", "%r<6>", "%r<4294967343>", "max_registers_per_kernel"},
      {"kernel.ptx", "%p<2>", "%p<18446744073709551615>", "max_registers_per_kernel"},
  };
  for (size_t i = 0; i < cases.size(); ++i) {
    const Result r = gputlm_stderr("run --functional --workload '" +
                                   hostile_workload(cases[i], static_cast<int>(i)) + "'");
    EXPECT_EQ(r.exit_code, 2) << cases[i].to.substr(0, 60) << ": " << r.output;
    EXPECT_TRUE(contains(r.output, cases[i].expected)) << r.output;
    EXPECT_EQ(std::count(r.output.begin(), r.output.end(), '\n'), 1) << r.output;
  }
}

TEST(Cli, HostileTracesAreOneLineErrorsThatExitTwo) {
  const std::string trace = scratch("hostile.trace");
  ASSERT_EQ(gputlm("trace record --workload traces/micro/vecadd --out '" + trace + "'").exit_code,
            0);
  std::ifstream in(trace);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::vector<std::pair<std::string, std::string>> edits = {
      {"\nwarp 0 0 ", "\nwarp 0 4294967295 "},
      {" m global 4 ", " m global four "},
      {" m global 4 ", " m global 2147483648 "}};
  for (const auto& [from, to] : edits) {
    std::string bad = text;
    bad.replace(bad.find(from), from.size(), to);
    std::ofstream(trace + ".bad") << bad;
    const Result r =
        gputlm_stderr("run --config configs/fermi-gtx480.json --trace '" + trace + ".bad'");
    EXPECT_EQ(r.exit_code, 2) << to << ": " << r.output;
    EXPECT_TRUE(contains(r.output, "hostile.trace.bad:")) << r.output;
    EXPECT_EQ(std::count(r.output.begin(), r.output.end(), '\n'), 1) << r.output;
  }
}

}  // namespace
