// Barriers on the SIMT core (PTX ISA: bar, barrier): bar.red's result is the same in timed runs as
// on the functional engine, for the static warps of the baseline, the scoreboard core and the
// regrouping formations (large warps, thread-block compaction); bar.arrive does not wait.
//
// Thread block clusters (sm_90; PTX ISA 9.7.13.3 barrier.cluster, 9.7.9.18 mapa): a cluster's CTAs
// start together across cores, a warp at barrier.cluster.wait polls without executing (the warp
// instructions match the functional engine's), a shared access that reaches a peer CTA costs
// cluster_shared_latency more, and a cluster larger than the GPU's room is refused before it runs.
#include <gtest/gtest.h>

#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "models/common/error.h"
#include "models/func/reference_executor.h"
#include "support/core_run.h"
#include "support/ptx_harness.h"

namespace gputlm {
namespace {

using test::Inputs;

// bar.red.popc over 96 threads whose predicate is a % 3 == 0 (32 of them), bar.red.or of a == 77.
const std::string kRed = R"(
  rem.u32 %r5, %ra, 3;
  setp.eq.u32 %q1, %r5, 0;
  bar.red.popc.u32 %r1, 0, %q1;
  setp.eq.u32 %q2, %ra, 77;
  bar.red.or.pred %q3, 3, %q2;
  selp.u32 %r2, 1, 0, %q3;
  mov.b64 %o, {%r1, %r2};)";

// Warp 0 arrives at barrier 1 and then waits at barrier 2, which the other warps reach first and
// leave for barrier 1: were bar.arrive to wait, no warp could move.
const std::string kArrive = R"(
  setp.lt.u32 %q1, %tid, 32;
  @!%q1 bra OTHERS;
  bar.arrive 1, 96;
  bar.sync 2, 96;
  bra DONE;
OTHERS:
  bar.sync 2, 96;
  bar.sync 1, 96;
  mov.b64 %o, 1;
DONE:)";

void expect_reductions(const std::vector<test::LaneOut>& out, const std::string& config) {
  ASSERT_EQ(out.size(), 96u) << config;
  for (unsigned t = 0; t < 96; ++t) {
    EXPECT_EQ(uint32_t(out[t].o), 32u) << config << ", thread " << t;  // 0, 3, ..., 93
    EXPECT_EQ(out[t].o >> 32, 1u) << config << ", thread " << t;       // thread 77 voted true
  }
}

// run_core with the fault (if any) as a test failure naming the config.
std::vector<test::LaneOut> timed(const std::string& snippet, const char* config) {
  try {
    const test::CoreRun r = test::run_core(snippet, 96, test::preset(config));
    EXPECT_GT(r.counters.simt.barrier_instructions, 0u) << config;
    return r.out;
  } catch (const std::exception& e) {
    ADD_FAILURE() << config << ": " << e.what();
    return {};
  }
}

TEST(CoreBarriers, BarRedResultIsTheFunctionalOneUnderEveryFormation) {
  std::vector<Inputs> in(96);
  for (unsigned i = 0; i < 96; ++i) in[i] = {i, 0, 0};
  expect_reductions(test::run_snippet(kRed, in), "functional");
  for (const char* config : {"narasiman-baseline", "fermi-gtx480", "lwm256", "tbc256"})
    expect_reductions(timed(kRed, config), config);
}

// Static warps only: large warps and block compaction make the 96 threads one warp, in which a
// barrier reached on divergent paths can never complete (as in a diverged 32-thread warp).
TEST(CoreBarriers, BarArriveDoesNotWait) {
  for (const char* config : {"narasiman-baseline", "fermi-gtx480"}) {
    const auto out = timed(kArrive, config);
    ASSERT_EQ(out.size(), 96u) << config;
    EXPECT_EQ(out[40].o, 1u) << config;
    EXPECT_EQ(out[0].o, 0u) << config;
  }
}

}  // namespace
}  // namespace gputlm

namespace gputlm::test {
namespace {

// Each CTA puts its rank + 5 in buf[0] and 0 in buf[1..], syncs the cluster, then chases `hops`
// pointers through the peer's (rank ^ 1) buf: each load's address depends on the previous load.
// %o = the rank it read + 1000 * the hops' sum (0).
std::string peer_chase(int hops) {
  std::string s =
      ".shared .align 8 .b32 buf[16];\n mov.u32 %r1, %cluster_ctarank;\n add.u32 %r2, %r1, 5;\n"
      "st.shared.u32 [buf], %r2;\n st.shared.u32 [buf+4], 0;\n barrier.cluster.arrive;\n "
      "barrier.cluster.wait;\n"
      "xor.b32 %r3, %r1, 1;\n mov.u32 %r4, buf;\n mapa.shared::cluster.u32 %r5, %r4, %r3;\n "
      "ld.shared::cluster.u32 %r6, [%r5];\n"
      "add.u32 %r7, %r5, 4;\n mov.u32 %r9, 0;\n";
  for (int i = 0; i < hops; ++i)
    s += "ld.shared::cluster.u32 %r8, [%r7];\n add.u32 %r9, %r9, %r8;\n add.u32 %r7, %r7, %r8;\n";
  return s +
         "mad.lo.u32 %r6, %r9, 1000, %r6;\n barrier.cluster.arrive;\n barrier.cluster.wait;\n "
         "cvt.u64.u32 %o, %r6;\n";
}

struct ClusterTimed {
  uint64_t cycles = 0, warp_instructions = 0, functional_warp_instructions = 0;
  uint64_t o = 0;
};

// Runs `snippet` on 2 CTAs of 32 threads in one cluster of 2 on a GPU made from `config`.
ClusterTimed run_cluster(const std::string& snippet, const nlohmann::json& config) {
  test::fresh_sc_kernel();
  const gpu::GpuSpec spec = gpu::GpuSpec::from_json(config, "test");
  gpu::Gpu gpu("gpu", spec);
  SnippetLaunch l(snippet, std::vector<Inputs>(32, Inputs{0, 0, 0}));
  l.launch.grid = {2, 1, 1};
  l.launch.cluster = {2, 1, 1};
  l.launch.explicit_cluster = true;
  ClusterTimed r;
  r.functional_warp_instructions = func::run_reference(*l.bound, l.launch).warp_instructions;
  r.cycles = gpu.run(*l.bound, l.launch).cycles;
  for (const auto& c : gpu.cores()) r.warp_instructions += c->counters().warp_instructions;
  r.o = l.outputs()[0].o;  // both CTAs write thread 0's slot: rank 1 read 5, rank 0 read 6
  return r;
}

nlohmann::json with(nlohmann::json c, const std::string& key, uint64_t value) {
  c["core"][key] = value;
  return c;
}

TEST(ClusterTiming, APeersSharedMemoryCostsTheClusterLatencyPerAccess) {
  const nlohmann::json base = preset();
  const ClusterTimed near = run_cluster(peer_chase(20), with(base, "cluster_shared_latency", 0));
  const ClusterTimed far = run_cluster(peer_chase(20), with(base, "cluster_shared_latency", 100));
  EXPECT_TRUE(near.o == 5 || near.o == 6) << near.o;
  EXPECT_EQ(near.warp_instructions, near.functional_warp_instructions);
  EXPECT_EQ(far.warp_instructions, far.functional_warp_instructions);
  // 21 dependent peer loads, 100 cycles more each (both CTAs' chases overlap).
  EXPECT_GE(far.cycles, near.cycles + 21 * 100 * 9 / 10)
      << "latency 0: " << near.cycles << ", 100: " << far.cycles;
  std::printf("21 peer loads: %llu cycles with cluster_shared_latency 0, %llu with 100\n",
              static_cast<unsigned long long>(near.cycles),
              static_cast<unsigned long long>(far.cycles));
}

TEST(ClusterTiming, AClusterSpansCoresThatHoldOneCtaEach) {
  nlohmann::json c = with(preset(), "max_ctas", 1);
  c["cores"] = 2;
  const ClusterTimed r = run_cluster(peer_chase(3), c);
  EXPECT_TRUE(r.o == 5 || r.o == 6) << r.o;
  EXPECT_EQ(r.warp_instructions, r.functional_warp_instructions);
}

TEST(ClusterTiming, FormationsThatRegroupThreadsRefuseTheClusterWait) {
  for (const std::string name : {"lwm256", "tbc256", "dwf"}) {
    try {
      run_cluster(peer_chase(1), preset(name));
      ADD_FAILURE() << name << " ran";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("does not support test.ptx:"), std::string::npos)
          << e.what();
      EXPECT_NE(std::string(e.what()).find("barrier.cluster.wait"), std::string::npos) << e.what();
    }
  }
}

TEST(ClusterTiming, AClusterLargerThanTheGpusRoomIsRefused) {
  nlohmann::json c = with(preset(), "max_ctas", 1);  // one core, one CTA
  try {
    run_cluster(peer_chase(1), c);
    FAIL() << "ran";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("a cluster of 2 CTAs does not fit the cores of"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace gputlm::test
