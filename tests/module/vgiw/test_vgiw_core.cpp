// The VGIW core on PTX snippets (one CTA, one core): results match the functional engine, and the
// basic-block scheduler's runs follow the blocks, not the control paths (Voitsechov & Etsion,
// Sec. 2: "the number of reconfiguration depends on the number of basic blocks rather than the
// number of diverging control paths").
#include <gtest/gtest.h>

#include <map>

#include "support/core_run.h"

namespace gputlm {
namespace {

nlohmann::json one_vgiw_core() {
  nlohmann::json c = test::preset("vgiw");
  c["cores"] = 1;
  return c;
}

uint64_t stat(const test::CoreRun& r, const std::string& module, const std::string& key) {
  return r.modules.at("gpu.core0." + module).at(key).get<uint64_t>();
}

// Fig. 1a's shape: BB1 splits into BB2 and BB3, BB3 into BB4 and BB5, all meet in BB6.
const char* const kNested = R"(
  and.b32 %r1, %ra, 3;
  setp.eq.u32 %q1, %r1, 0;
  @%q1 bra $BB2;
  setp.eq.u32 %q2, %r1, 1;
  @%q2 bra $BB4;
  add.u32 %r2, %ra, 500;
  bra $BB6;
$BB4:
  add.u32 %r2, %ra, 400;
  bra $BB6;
$BB2:
  add.u32 %r2, %ra, 200;
$BB6:
  cvt.u64.u32 %o, %r2;
)";

uint64_t nested_ref(uint64_t a) {
  return (a + ((a & 3) == 0 ? 200 : (a & 3) == 1 ? 400 : 500)) & 0xffffffffu;
}

TEST(VgiwCore, ADivergentKernelRunsEachBlockOncePerThreadVector) {
  // Every warp of 32 takes all three paths; the VGIW core still runs each block once.
  const test::CoreRun r = test::run_core(kNested, 256, one_vgiw_core());
  for (unsigned i = 0; i < 256; ++i) ASSERT_EQ(r.out[i].o, nested_ref(i)) << "thread " << i;
  const uint64_t runs = stat(r, "bbs", "block_runs");
  EXPECT_EQ(stat(r, "bbs", "reconfigurations"), runs);  // no block ran twice in a row
  // Uniform threads (all take BB2) skip BB3-BB5: three block runs fewer, not a factor fewer.
  const test::CoreRun uniform =
      test::run_core(kNested, 256, one_vgiw_core(), [](unsigned i) { return uint64_t{i} * 4; });
  EXPECT_EQ(stat(uniform, "bbs", "block_runs"), runs - 3);
  // Four times the threads (four times the divergent warps) run the same blocks the same number of
  // times.
  const test::CoreRun more = test::run_core(kNested, 1024, one_vgiw_core());
  EXPECT_EQ(stat(more, "bbs", "block_runs"), runs);
  EXPECT_EQ(stat(more, "cgrf", "threads_started"), stat(more, "bbs", "threads_sent"));
  EXPECT_EQ(stat(more, "cgrf", "threads_finished"), stat(more, "cgrf", "threads_started"));
}

// A loop runs its body once per iteration for every thread still looping: the body's runs follow
// the longest trip count, whatever mix of trip counts the threads have.
const char* const kLoop = R"(
  and.b32 %r1, %ra, 7;
  mov.u32 %r2, 0;
  setp.eq.u32 %q1, %r1, 0;
  @%q1 bra $DONE;
$LOOP:
  add.u32 %r2, %r2, 3;
  sub.u32 %r1, %r1, 1;
  setp.ne.u32 %q1, %r1, 0;
  @%q1 bra $LOOP;
$DONE:
  cvt.u64.u32 %o, %r2;
)";

TEST(VgiwCore, ALoopBodyRunsOncePerIterationForAllThreadsStillLooping) {
  const test::CoreRun r = test::run_core(kLoop, 256, one_vgiw_core());  // trip counts 0..7
  for (unsigned i = 0; i < 256; ++i) ASSERT_EQ(r.out[i].o, 3u * (i & 7)) << "thread " << i;
  const test::CoreRun once = test::run_core(kLoop, 256, one_vgiw_core(),
                                            [](unsigned i) { return uint64_t{i & 1}; });  // 0 or 1
  EXPECT_EQ(stat(r, "bbs", "block_runs") - stat(once, "bbs", "block_runs"), 6u);
  // The body follows itself: it stays configured, so its repeated runs cost no reconfiguration.
  EXPECT_EQ(stat(r, "bbs", "reconfigurations"), stat(once, "bbs", "reconfigurations"));
}

// Live values go through the live value cache: one store per value leaving a block and one load
// per value entering one, per thread.
TEST(VgiwCore, ValuesCrossingBlocksGoThroughTheLiveValueCache) {
  const test::CoreRun r = test::run_core(kNested, 256, one_vgiw_core());
  EXPECT_GT(stat(r, "cgrf", "live_value_stores"), 0u);
  EXPECT_EQ(stat(r, "lvc", "accesses"),
            stat(r, "cgrf", "live_value_loads") + stat(r, "cgrf", "live_value_stores"));
  EXPECT_EQ(stat(r, "lvc", "fills"),
            0u);  // written before read (write-validate installs), and it fits
}

// Kernel parameters are configuration constants and %tid, %ntid the initiator's (Sec. 3.5): read in
// one block and used in the next, they cost the live value cache nothing, and ld.param no
// load/store unit. The old reading ("static_operands": "units") loads each parameter on a
// load/store unit, and every value used in a later block takes a live-value store and load.
TEST(VgiwCore, ParametersAndCoordinatesNeverGoThroughTheLiveValueCache) {
  const std::string head =
      "  ld.param.u64 %rd1, [pout];\n  mov.u32 %r1, %ntid.x;\n  mov.u32 %r2, %tid.x;\n";
  const std::string branch = "  setp.eq.u32 %q1, %ra, 7;\n  @%q1 bra $NEXT;\n$NEXT:\n";
  const std::string use =
      "  setp.ne.u64 %q2, %rd1, 0;\n  selp.u32 %r3, 1, 0, %q2;\n  add.u32 %r3, %r3, %r1;\n"
      "  add.u32 %r3, %r3, %r2;\n  cvt.u64.u32 %o, %r3;\n";
  const unsigned threads = 256;
  auto run = [&](bool used_later, const char* reading) {
    nlohmann::json c = one_vgiw_core();
    c["vgiw"]["static_operands"] = reading;
    const test::CoreRun r =
        test::run_core(used_later ? head + branch + use : branch + head + use, threads, c);
    for (unsigned i = 0; i < threads; ++i)
      EXPECT_EQ(r.out[i].o, i + threads + 1) << reading << ", thread " << i;
    return r;
  };
  auto lvc = [](const test::CoreRun& r) {
    return stat(r, "cgrf", "live_value_loads") + stat(r, "cgrf", "live_value_stores");
  };
  const test::CoreRun later = run(true, "configuration"), same = run(false, "configuration");
  const test::CoreRun later_units = run(true, "units"), same_units = run(false, "units");
  EXPECT_EQ(lvc(later), lvc(same)) << "no live values for parameters and coordinates";
  EXPECT_EQ(lvc(later_units) - lvc(same_units), 3u * 2 * threads)
      << "%rd1, %r1, %r2: a store and a load each, per thread";
  // The harness's two parameters and this one: a load/store unit firing each, per thread.
  EXPECT_EQ(
      stat(later_units, "cgrf", "firings_load_store") - stat(later, "cgrf", "firings_load_store"),
      3u * threads);
}

// A thread waiting on a miss waits in the load/store unit's reservation buffer while others pass:
// 256 threads missing on 48 lines take a few times one thread's time (measured 5.6: each replica
// holds virtual_channels threads), far from 48 times.
TEST(VgiwCore, ThreadsPassThoseWaitingOnMisses) {
  const char* const kLoad = R"(
  ld.global.u32 %r1, [%in+16];
  cvt.u64.u32 %o, %r1;
)";
  const test::CoreRun one = test::run_core(kLoad, 1, one_vgiw_core());
  const test::CoreRun many = test::run_core(kLoad, 256, one_vgiw_core());
  EXPECT_GT(stat(many, "l1d", "fills"), 40u);
  EXPECT_LT(many.cycles, one.cycles * 12) << "one thread " << one.cycles << " cycles";
}

// The fabric's streaming cycles, by phase, with the reconfiguration cycles make up the core's
// active cycles (less a cycle or so a block run: the pick and the drain message). Threads that
// miss fill every virtual channel of a one-channel fabric; with 256 channels they never do.
TEST(VgiwCore, ActiveCyclesSplitIntoReconfigurationAndFabricPhases) {
  const char* const kLoad = R"(
  ld.global.u32 %r1, [%in+16];
  cvt.u64.u32 %o, %r1;
)";
  auto phases = [](const test::CoreRun& r) {
    std::map<std::string, uint64_t> p;
    uint64_t sum = r.counters.fabric.reconfiguration_cycles;
    for (size_t i = 0; i < core::kFabricPhases; ++i) {
      const std::string n = core::fabric_phase_name(static_cast<core::FabricPhase>(i));
      p[n] = r.counters.fabric.fabric_cycles[i];
      EXPECT_EQ(p[n], stat(r, "cgrf", "cycles_" + n));
      sum += p[n];
    }
    EXPECT_LE(sum, r.counters.active_cycles);
    EXPECT_GE(sum + 2 * r.counters.fabric.block_runs, r.counters.active_cycles);
    return p;
  };
  nlohmann::json narrow = one_vgiw_core(), wide = one_vgiw_core();
  narrow["vgiw"]["virtual_channels"] = 1;
  wide["vgiw"]["virtual_channels"] = 256;
  const auto n = phases(test::run_core(kLoad, 256, narrow));
  const auto w = phases(test::run_core(kLoad, 256, wide));
  EXPECT_GT(n.at("channels_full"), n.at("injecting"));
  EXPECT_EQ(w.at("channels_full"), 0u);
  EXPECT_GT(w.at("draining"), 0u);          // the last misses come back after every thread started
  EXPECT_GE(w.at("injecting"), 256u / 16);  // at most one thread a cycle per replica
}

}  // namespace
}  // namespace gputlm
