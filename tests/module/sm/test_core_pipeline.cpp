// The SIMT core in a one-core GPU built from the narasiman-baseline preset, driven by PTX
// snippets: barrel processing, throughput with many warps, divergence, warps set aside on
// misses, back-pressure from the L1, determinism.
#include <gtest/gtest.h>

#include <numeric>

#include "models/gpu/gpu.h"
#include "support/core_run.h"
#include "support/sc_kernel.h"

namespace gputlm {
namespace {

using test::Inputs;

using test::alu_loop;
using test::preset;
using Result = test::CoreRun;

Result run(const std::string& snippet, uint32_t threads, const nlohmann::json& config = preset()) {
  return test::run_core(snippet, threads, config);
}

TEST(CorePipeline, OneWarpAloneIssuesOneInstructionPerPipelineDepth) {
  const Result a = run(alu_loop(100), 32), b = run(alu_loop(200), 32);
  // 100 more iterations of 11 instructions each: 7 cycles apiece (barrel processing, 7 stages),
  // and the body spans two I-cache lines: each refill of the warp's instruction buffer is seen two
  // cycles after fetch asks (the request link, then the 1-cycle hit; mem/tlm_ends.h), one more
  // than the barrel hides.
  EXPECT_EQ(b.cycles - a.cycles, 100u * (11 * 7 + 2));
  EXPECT_EQ(b.out[5].o, 1 + 3 * 8 * 200u);
}

TEST(CorePipeline, ThirtyTwoWarpsOfAluCodeApproachIpc32) {
  const Result r = run(alu_loop(200), 1024);
  const double ipc = double(r.counters.thread_instructions) / r.cycles;
  EXPECT_GT(ipc, 30.0) << r.cycles << " cycles";
  EXPECT_LE(ipc, 32.0);
}

// issue_interval 4 (8 SPs a warp in 4 cycles, Hong & Kim Table 1): at most one warp instruction
// starts every 4 cycles whatever its unit, so 32 warps of ALU code approach IPC 8.
TEST(CorePipeline, AnIssueIntervalOfFourCapsThirtyTwoWarpsAtIpc8) {
  nlohmann::json config = preset();
  config["core"]["issue_interval"] = 4;
  const Result r = run(alu_loop(200), 1024, config);
  const double ipc = double(r.counters.thread_instructions) / r.cycles;
  EXPECT_GT(ipc, 7.5) << r.cycles << " cycles";
  EXPECT_LE(ipc, 8.0);
  EXPECT_EQ(r.out[5].o, 1 + 3 * 8 * 200u);
}

TEST(CorePipeline, ADivergentBranchRunsBothPathsAndReconverges) {
  auto kernel = [](const char* split) {
    return std::string("  setp.lt.u32 %q1, %tid, ") + split + R"(;
  mov.u32 %r2, 0;
  @%q1 bra $T;
  add.s32 %r2, %r2, 1;
  add.s32 %r2, %r2, 1;
  add.s32 %r2, %r2, 1;
  add.s32 %r2, %r2, 1;
  bra $J;
$T:
  add.s32 %r2, %r2, 10;
  add.s32 %r2, %r2, 10;
  add.s32 %r2, %r2, 10;
  add.s32 %r2, %r2, 10;
$J:
  add.s32 %r2, %r2, 100;
  cvt.u64.u32 %o, %r2;)";
  };
  const Result uniform = run(kernel("32"), 32), divergent = run(kernel("16"), 32);
  for (unsigned i = 0; i < 32; ++i) EXPECT_EQ(divergent.out[i].o, i < 16 ? 140u : 104u) << i;
  // The second path: 4 adds and its branch to the join, and two more instruction-buffer refills
  // (one cycle each beyond what the barrel hides, as above).
  EXPECT_EQ(divergent.cycles - uniform.cycles, 5u * 7 + 2);
  EXPECT_GT(divergent.counters.simt.simd_histogram[16], 0u);  // paths ran with half the lanes
  EXPECT_GT(divergent.counters.simt.simd_histogram[32], 0u);  // and the join with all of them
}

// Warp 0 loads from memory (a cold miss to DRAM) and stores it; warp 1 runs alu_loop(20).
std::string load_or_compute() {
  return R"(
  setp.lt.u32 %q1, %tid, 32;
  @!%q1 bra $COMPUTE;
  ld.global.u32 %r1, [%in+8];
  cvt.u64.u32 %o, %r1;
  bra $END;
$COMPUTE:
)" + alu_loop(20) +
         "\n$END:";
}

TEST(CorePipeline, AWarpWaitingForMemoryIsSetAsideWhileOthersIssue) {
  // Warp 0 loads from memory (a cold miss to DRAM); warp 1 computes. Together they take about as
  // long as the longer of the two, not the sum.
  const std::string s = load_or_compute();
  const Result both = run(s, 64);
  const Result load_only = run(R"(
  ld.global.u32 %r1, [%in+8];
  cvt.u64.u32 %o, %r1;)",
                               32);
  const Result compute_only = run(alu_loop(20), 32);
  EXPECT_LT(both.cycles, load_only.cycles + compute_only.cycles - 100);
  EXPECT_GT(both.counters.simt.stall_cycles[static_cast<size_t>(core::StallCause::Memory)], 0u);
}

uint64_t sum(const std::vector<uint64_t>& v) {
  return std::accumulate(v.begin(), v.end(), uint64_t{0});
}

TEST(CorePipeline, EveryCycleOfALaunchIsAFetchCycleOrAStallWithACause) {
  // Loads, a divergent branch, ALU work and stores whose acknowledgements arrive after the last
  // CTA finished (those cycles are outside the launch).
  const std::string s = load_or_compute();
  const Result r = run(s, 64);
  EXPECT_EQ(r.counters.simt.fetch_cycles + sum(r.counters.simt.stall_cycles), r.cycles);
  EXPECT_EQ(r.counters.simt.stall_cycles[static_cast<size_t>(core::StallCause::Idle)], 0u);

  // Two cores, one CTA: the second core idles through the whole launch.
  test::fresh_sc_kernel();
  nlohmann::json two = preset();
  two["cores"] = 2;
  gpu::Gpu gpu("gpu", gpu::GpuSpec::from_json(two, "test"));
  test::SnippetLaunch launch(s, std::vector<Inputs>(64, Inputs{1, 0, 0}));
  const Cycle cycles = gpu.run(*launch.bound, launch.launch).cycles;
  const core::CoreCounters& busy = gpu.cores()[0]->counters();
  const core::CoreCounters& idle = gpu.cores()[1]->counters();
  EXPECT_EQ(busy.simt.fetch_cycles + sum(busy.simt.stall_cycles), cycles);
  EXPECT_EQ(idle.simt.fetch_cycles, 0u);
  EXPECT_EQ(idle.simt.stall_cycles[static_cast<size_t>(core::StallCause::Idle)], cycles);
}

// One CTA of 96 threads is resident from dispatch to its end: the launch's whole length.
TEST(CorePipeline, ResidentThreadCyclesCountTheCtaForTheWholeLaunch) {
  const Result r = run(test::alu_loop(20), 96);
  EXPECT_EQ(r.counters.simt.resident_thread_cycles, 96u * r.cycles);
}

// The MWP/CWP model's classes: a load whose lanes share one word is coalesced; one whose lanes
// read their own 24-byte input records (%in is the thread's record: 768 bytes a warp, 6 lines) is
// not; barriers are counted. Measured against the same kernel without the two loads (the
// harness's own loads of the inputs and stores of the outputs count too).
TEST(CorePipeline, MemoryInstructionsAreCountedCoalescedOrNotByTheirLineRequests) {
  const std::string loads = R"(
  mul.wide.u32 %rd1, %tid, 24;
  sub.u64 %rd2, %in, %rd1;
  ld.global.u32 %r1, [%rd2];
  ld.global.u32 %r2, [%in+8];)";
  const std::string rest = R"(
  bar.sync 0;
  add.u32 %r1, %r1, %r2;
  cvt.u64.u32 %o, %r1;)";
  const core::CoreCounters with = run(loads + rest, 64).counters, without = run(rest, 64).counters;
  EXPECT_EQ(with.simt.coalesced_memory_instructions - without.simt.coalesced_memory_instructions,
            2u);  // one per warp
  EXPECT_EQ(
      with.simt.uncoalesced_memory_instructions - without.simt.uncoalesced_memory_instructions, 2u);
  EXPECT_EQ(with.simt.uncoalesced_line_requests - without.simt.uncoalesced_line_requests,
            12u);  // 6 lines per warp
  EXPECT_EQ(with.simt.barrier_instructions, 2u);
}

// narasiman-baseline: 1024 threads, 32 warps, 8 CTAs, 16384 registers (16 a thread).
// The same function decides the dispatcher's can_take (with the core's usage) and the model's
// occupancy (an empty core).
TEST(CorePipeline, CtasThatFitFollowTheTightestLimit) {
  const sm::CoreSpec core = gpu::GpuSpec::from_json(preset(), "test").core;
  auto fit = [&](size_t threads) {
    return sm::ctas_fitting(core, test::SnippetLaunch("", std::vector<Inputs>(threads)).launch);
  };
  EXPECT_EQ(fit(256), 4u);  // threads
  EXPECT_EQ(fit(64), 8u);   // CTA count
  EXPECT_EQ(fit(48), 8u);   // 2 warps each
  EXPECT_EQ(fit(1024), 1u);
  EXPECT_EQ(sm::ctas_fitting(core, test::SnippetLaunch("", std::vector<Inputs>(256)).launch,
                             {3, 768, 24, 12288, 0}),
            1u);  // room for one more
}

// A V100-like unified array on the baseline core (sm/carveout.h): 128 KB, shared 0 to 96 KB, an
// L1 of 32 sets of 128 B lines (4 KB a way). Each launch gets its split before its CTAs start; a
// new split empties the L1, the same one keeps its lines.
TEST(CorePipeline, AUnifiedCoreSplitsItsArrayForEachLaunch) {
  nlohmann::json config = preset();
  nlohmann::json& core = config["core"];
  core.erase("shared_bytes");
  core["unified_l1_shared_bytes"] = 131072;
  core["shared_carveouts_kb"] = {0, 8, 16, 32, 64, 96};
  core["l1d"]["assoc"] = 32;
  core["l1d"]["write_policy"] = "write-through";
  test::fresh_sc_kernel();
  gpu::Gpu gpu("gpu", gpu::GpuSpec::from_json(config, "test"));
  auto& simt = dynamic_cast<sm::Core&>(*gpu.cores()[0]);
  test::SnippetLaunch one("  ld.global.u32 %r1, [%in];\n  cvt.u64.u32 %o, %r1;",
                          std::vector<Inputs>(32));
  auto l1d = [&](const char* stat) { return simt.l1d().stats().values().at(stat).get<uint64_t>(); };
  struct Seen {
    uint32_t shared;
    uint64_t l1d_bytes, hits, misses;
  };
  auto run = [&](int preferred) {
    const uint64_t hits = l1d("hits"), misses = l1d("misses");
    one.launch.preferred_carveout = preferred;
    gpu.run(*one.bound, one.launch);
    return Seen{simt.carveout().shared_bytes, simt.l1d().spec().size_bytes, l1d("hits") - hits,
                l1d("misses") - misses};
  };
  const Seen first = run(-1), again = run(-1), half = run(50);
  // Each launch makes 104 L1 requests: 96 loads of the 6 lines of the inputs (the harness's and
  // the snippet's) and 8 stores (write-through, no-allocate: each a miss). In an empty L1 the
  // inputs' 6 lines miss once; an L1 that kept them hits all 96.
  EXPECT_EQ(first.shared, 0u);  // no shared memory: the whole array is L1
  EXPECT_EQ(first.l1d_bytes, 131072u);
  EXPECT_EQ(first.hits, 90u);
  EXPECT_EQ(first.misses, 14u);
  EXPECT_EQ(again.hits, 96u);  // the same split keeps the lines
  EXPECT_EQ(again.misses, 8u);
  EXPECT_EQ(half.shared, 65536u);  // 50% of 96 KB is 48 KB: 64 KB
  EXPECT_EQ(half.l1d_bytes, 65536u);
  EXPECT_EQ(half.hits, 90u);  // a new split starts empty
  EXPECT_EQ(half.misses, 14u);
  const nlohmann::json stats = simt.stats().values();
  EXPECT_EQ(stats.at("shared_carveout_bytes").get<uint64_t>(), 65536u);  // the run's largest
  EXPECT_EQ(stats.at("l1d_bytes").get<uint64_t>(), 131072u);
}

// A constant cache (core.l1c: 2 KB, 4 ways, 64 B lines, 4-cycle hits, 20-cycle misses) on one warp
// (barrel processing: the memory stage's cycles add to the run's). The warp loads a constant twice:
// all lanes one address (1 request a load: a 20-cycle miss, then a 4-cycle hit) or each its own
// (32 requests a load at a stride of 24 B over 12 lines: the last line's first lane, 30, misses at
// cycle 30, ready at 50; then 32 hits, the last at 31 + 4 = 35): 30 + 31 = 61 cycles more. Without
// the cache both take memory_cycles.
TEST(CorePipeline, AConstantLoadCostsOneRequestPerDistinctAddress) {
  auto snippet = [](const char* address) {
    return std::string("  sub.s64 %rd1, %in, %off;\n  ld.const.u32 %r1, [") + address +
           "];\n  ld.const.u32 %r2, [" + address +
           "];\n  add.u32 %r1, %r1, %r2;\n  cvt.u64.u32 %o, %r1;";
  };
  nlohmann::json config = preset();
  const Result same_off = run(snippet("%rd1"), 32, config),
               own_off = run(snippet("%in"), 32, config);
  EXPECT_EQ(own_off.cycles, same_off.cycles);
  config["core"]["l1c"] = {
      {"size_bytes", 2048}, {"assoc", 4}, {"line_bytes", 64}, {"hit_latency", 4}};
  config["core"]["l1c_miss_latency"] = 20;
  const Result same = run(snippet("%rd1"), 32, config), own = run(snippet("%in"), 32, config);
  EXPECT_EQ(own.cycles - same.cycles, 61u);
  // The harness's two ld.param (one 64 B line: a miss, then a hit) count too.
  const nlohmann::json& s = same.modules.at("gpu.core0");
  const nlohmann::json& o = own.modules.at("gpu.core0");
  EXPECT_EQ(s.at("constant_requests").get<uint64_t>(), 4u);
  EXPECT_EQ(o.at("constant_requests").get<uint64_t>(), 66u);
  EXPECT_EQ(o.at("constant_misses").get<uint64_t>(), 13u);
  EXPECT_EQ(own.out[3].o, 6u);  // the values are the functional engine's
  EXPECT_EQ(same.out[3].o, 0u);
  // With param_operands the two ld.param are operands: no request, memory_cycles (1) each where
  // they took a 20-cycle miss and a 4-cycle hit; the constants' requests and cycles stay.
  config["core"]["param_operands"] = true;
  const Result op_same = run(snippet("%rd1"), 32, config), op_own = run(snippet("%in"), 32, config);
  EXPECT_EQ(op_same.modules.at("gpu.core0").at("constant_requests").get<uint64_t>(), 2u);
  EXPECT_EQ(op_own.modules.at("gpu.core0").at("constant_requests").get<uint64_t>(), 64u);
  EXPECT_EQ(op_own.cycles - op_same.cycles, 61u);
  EXPECT_EQ(same.cycles - op_same.cycles, 20u + 4u - 2u);
  EXPECT_EQ(op_own.out[3].o, 6u);
}

// core.l1c_misses "icache": a constant line that misses is read through the I-cache's second port
// (and below it from memory) instead of taking l1c_miss_latency. One warp's lanes each load their
// own constant (32 addresses on 12 lines of 64 B): its 12 absent lines are read once each, and
// every request to them counts as a miss (12 with the fixed latency, whose fills are at once);
// the I-cache looks up 12 more lines (six of its own 128 B lines, each half of them merging
// into the other's miss). Two warps loading one address: the second misses the line the first
// is reading and waits for that read, the only one. The values are the functional engine's.
TEST(CorePipeline, AConstantMissIsAReadOfItsLineThroughTheICache) {
  const std::string own_address =
      "  ld.const.u32 %r1, [%in];\n  ld.const.u32 %r2, [%in];\n  add.u32 %r1, %r1, %r2;\n"
      "  cvt.u64.u32 %o, %r1;";
  const std::string one_address =
      "  sub.s64 %rd1, %in, %off;\n  ld.const.u32 %r1, [%rd1];\n  cvt.u64.u32 %o, %r1;";
  nlohmann::json fixed = preset();
  fixed["core"]["l1c"] = {
      {"size_bytes", 2048}, {"assoc", 4}, {"line_bytes", 64}, {"hit_latency", 4}};
  fixed["core"]["param_operands"] = true;
  nlohmann::json below = fixed;
  below["core"]["l1c_misses"] = "icache";
  auto stat = [](const Result& r, const char* module, const char* key) {
    return r.modules.at(std::string("gpu.core0") + module).at(key).get<uint64_t>();
  };
  const Result own_fixed = run(own_address, 32, fixed), own_below = run(own_address, 32, below);
  EXPECT_EQ(stat(own_fixed, "", "constant_requests"), 64u);
  EXPECT_EQ(stat(own_below, "", "constant_requests"), 64u);
  EXPECT_EQ(stat(own_fixed, "", "constant_misses"), 12u);
  EXPECT_EQ(stat(own_below, "", "constant_misses"), 32u);
  EXPECT_EQ(stat(own_below, ".l1i", "misses") - stat(own_fixed, ".l1i", "misses"), 12u);
  EXPECT_GT(own_below.cycles, own_fixed.cycles + 20);  // a memory round trip, not 20 cycles
  EXPECT_EQ(own_below.out[3].o, 6u);
  const Result one_fixed = run(one_address, 64, fixed), one_below = run(one_address, 64, below);
  EXPECT_EQ(stat(one_fixed, "", "constant_misses"), 1u);
  EXPECT_EQ(stat(one_below, "", "constant_misses"), 2u);
  EXPECT_EQ(stat(one_below, ".l1i", "misses") - stat(one_fixed, ".l1i", "misses"), 1u);
  EXPECT_EQ(one_below.out[40].o, one_fixed.out[40].o);
}

TEST(CorePipeline, AFullL1StallsTheMemoryStage) {
  // Every lane loads its own line of the input buffer (48 lines): 32 line requests per warp.
  const std::string s = R"(
  mul.wide.u32 %rd1, %tid, 24;
  sub.s64 %rd2, %in, %rd1;
  rem.u32 %r3, %tid, 48;
  mul.wide.u32 %rd3, %r3, 128;
  add.s64 %rd4, %rd2, %rd3;
  ld.global.u32 %r1, [%rd4];
  cvt.u64.u32 %o, %r1;)";
  nlohmann::json one = preset();
  one["core"]["l1d"]["mshrs"] = 1;
  const Result narrow = run(s, 256, one), wide = run(s, 256);
  EXPECT_GT(narrow.l1d.at("mshr_full_stalls").get<double>(), 0);
  EXPECT_GT(narrow.cycles, wide.cycles);
  for (unsigned i = 0; i < 256; ++i) EXPECT_EQ(narrow.out[i].o, wide.out[i].o);
}

TEST(CorePipeline, TwoIdenticalRunsGiveIdenticalStatistics) {
  const Result a = run(alu_loop(30), 256), b = run(alu_loop(30), 256);
  EXPECT_EQ(a.cycles, b.cycles);
  EXPECT_EQ(a.counters.simt.simd_histogram, b.counters.simt.simd_histogram);
  EXPECT_EQ(a.counters.simt.stall_cycles, b.counters.simt.stall_cycles);
  EXPECT_EQ(a.l1d, b.l1d);
}

// The same outcome, to every statistic of every module, the lanes' outputs and the stall causes.
void expect_same_run(const Result& a, const Result& b, uint32_t threads) {
  EXPECT_EQ(a.cycles, b.cycles);
  EXPECT_EQ(a.modules, b.modules);
  EXPECT_EQ(a.counters.simt.stall_cycles, b.counters.simt.stall_cycles);
  for (unsigned i = 0; i < threads; ++i) EXPECT_EQ(a.out[i].o, b.out[i].o);
}

// A core alone in its GPU runs its cycles ahead of the SystemC kernel while nothing else is
// pending (Core::activate): most cycles of ALU code, fewer where loads keep the L1 and DRAM busy;
// every statistic of every module is the one of the run that asks the kernel for each cycle.
TEST(CorePipeline, ALoneCoreRunsCyclesAheadOfTheKernelWithTheSameStatistics) {
  nlohmann::json stepped = preset();
  stepped["core"]["run_ahead"] = false;
  for (const auto& [snippet, threads] :
       {std::pair{alu_loop(100), 256u}, std::pair{load_or_compute(), 64u}}) {
    const Result ahead = run(snippet, threads), each = run(snippet, threads, stepped);
    EXPECT_EQ(each.cycles_run_ahead, 0u);
    EXPECT_GT(ahead.cycles_run_ahead, 0u);
    expect_same_run(ahead, each, threads);
  }
  const Result alu = run(alu_loop(100), 256);
  EXPECT_GT(alu.cycles_run_ahead, alu.cycles / 2) << alu.cycles << " cycles";
}

// A fetch that finds the I-cache idle and holding its line is served at once (fast_icache_hits,
// mem::Cache::take_idle_hit), on narasiman-baseline, fermi-gtx480 (15 cores) and with 3-cycle
// I-cache hits; everything is as when every fetch goes over the link, misses, loads and the
// I-cache's own counters included.
TEST(CorePipeline, IdleICacheHitsSkipTheLinkWithTheSameStatistics) {
  nlohmann::json slow_hits = preset();
  slow_hits["core"]["icache"]["hit_latency"] = 3;
  nlohmann::json constants = preset();  // the I-cache's second port reads constant lines
  constants["core"]["l1c"] = {{"size_bytes", 2048}, {"assoc", 4}, {"line_bytes", 64}};
  constants["core"]["l1c_misses"] = "icache";
  std::string constant_loop = alu_loop(40), body;  // a constant load in a loop of three lines
  for (int i = 0; i < 16; ++i) body += "  add.s32 %r2, %r2, 5;\n";
  constant_loop.replace(constant_loop.find("$L:\n") + 4, 0,
                        "  sub.s64 %rd1, %in, %off;\n  ld.const.u32 %r5, [%rd1];\n"
                        "  add.s32 %r2, %r2, %r5;\n" +
                            body);
  for (const nlohmann::json& config : {preset(), preset("fermi-gtx480"), slow_hits, constants}) {
    nlohmann::json linked = config;
    linked["core"]["fast_icache_hits"] = false;
    for (const auto& [snippet, threads] :
         {std::pair{alu_loop(100), 256u}, std::pair{load_or_compute(), 64u},
          std::pair{constant_loop, 256u}}) {
      const Result fast = run(snippet, threads, config), slow = run(snippet, threads, linked);
      EXPECT_EQ(slow.idle_icache_hits, 0u) << config["name"];
      EXPECT_GT(fast.idle_icache_hits, 0u) << config["name"];
      expect_same_run(fast, slow, threads);
    }
  }
}

TEST(CorePipeline, ABarrierInDivergentCodeIsReportedAsAFault) {
  test::fresh_sc_kernel();
  gpu::Gpu gpu("gpu", gpu::GpuSpec::from_json(preset(), "test"));
  test::SnippetLaunch launch(
      "  setp.lt.u32 %q1, %tid, 16;\n  @%q1 bra $S;\n  bar.sync 0;\n$S:\n  mov.b64 %o, 1;",
      std::vector<Inputs>(32));
  try {
    gpu.run(*launch.bound, launch.launch);
    FAIL() << "completed";
  } catch (const func::KernelFault& f) {
    EXPECT_NE(std::string(f.what()).find("barrier 0 can never complete: 16 of 32 threads arrived"),
              std::string::npos)
        << f.what();
  }
}

}  // namespace
}  // namespace gputlm

namespace gputlm {
namespace {

TEST(Watchdog, AnEndlessLoopIsStoppedAsAFault) {
  test::fresh_sc_kernel();
  nlohmann::json cfg = preset();
  cfg["max_warp_instructions"] = 5000;
  cfg["watchdog_cycles"] = 1000;
  gpu::Gpu gpu("gpu", gpu::GpuSpec::from_json(cfg, "test"));
  test::SnippetLaunch launch("$SPIN:\n  bra $SPIN;", std::vector<test::Inputs>(32));
  try {
    gpu.run(*launch.bound, launch.launch);
    FAIL() << "completed";
  } catch (const func::KernelFault& f) {
    EXPECT_NE(std::string(f.what()).find("watchdog: more than 5000 warp instructions"),
              std::string::npos)
        << f.what();
  }
}

TEST(Watchdog, ARunThatStopsRetiringIsStoppedWithADumpOfTheCores) {
  test::fresh_sc_kernel();
  nlohmann::json cfg = preset();
  cfg["watchdog_cycles"] = 500;
  cfg["dram"]["latency"] = {{"row_hit", 100000}, {"row_conflict", 100000}, {"row_empty", 100000}};
  gpu::Gpu gpu("gpu", gpu::GpuSpec::from_json(cfg, "test"));
  test::SnippetLaunch launch("  ld.global.u32 %r1, [%in];\n  cvt.u64.u32 %o, %r1;",
                             std::vector<test::Inputs>(32));
  try {
    gpu.run(*launch.bound, launch.launch);
    FAIL() << "completed";
  } catch (const std::runtime_error& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("watchdog: no instruction retired in 500 cycles"), std::string::npos) << m;
    EXPECT_NE(m.find("gpu.core0: 1 CTAs resident"), std::string::npos) << m;
    EXPECT_NE(m.find("waiting for an I-cache line"), std::string::npos) << m;
    EXPECT_NE(m.find("gpu.dram0: 0 requests queued, 1 in the banks"), std::string::npos) << m;
  }
}

}  // namespace
}  // namespace gputlm
