// The comparison points of the large-warps study in a one-core GPU: thread block compaction
// ("tbc") packs a block's diverged threads lane by lane and restores the original warps at the
// reconvergence point; dynamic warp formation ("dwf") merges the threads of different warps at
// the same PC; both keep vote results those of the 32-thread warps and pass barriers.
#include <gtest/gtest.h>

#include "support/core_run.h"

namespace gputlm {
namespace {

using test::CoreRun;

nlohmann::json dwf(const std::string& policy = "majority") {
  nlohmann::json c = test::preset("dwf");
  c["core"]["dwf"]["policy"] = policy;
  return c;
}

// Threads whose predicate fails run `n` adds, then every thread runs `after` more.
std::string path(const std::string& predicate, unsigned n, unsigned after = 0) {
  std::string s = predicate + "  mov.u32 %r2, 0;\n  @%q1 bra $SKIP;\n";
  for (unsigned i = 0; i < n; ++i) s += "  add.s32 %r2, %r2, 1;\n";
  s += "$SKIP:\n";
  for (unsigned i = 0; i < after; ++i) s += "  add.s32 %r2, %r2, 2;\n";
  return s + "  cvt.u64.u32 %o, %r2;";
}
// Warp instructions one add of the path costs, from runs with 20 and 10 adds.
double warps_per_add(const std::string& predicate, const nlohmann::json& config,
                     unsigned threads = 256) {
  const CoreRun a = test::run_core(path(predicate, 20), threads, config),
                b = test::run_core(path(predicate, 10), threads, config);
  const CoreRun base = test::run_core(path(predicate, 20), threads);
  for (unsigned i = 0; i < threads; ++i) EXPECT_EQ(a.out[i].o, base.out[i].o) << i;
  return double(a.counters.warp_instructions - b.counters.warp_instructions) / 10.0;
}
// Even rows (32-thread warps) take the path in lanes 0-15, odd rows in lanes 16-31.
const std::string kAlternating =
    "  shr.u32 %r1, %tid.x, 4;\n  shr.u32 %r3, %tid.x, 5;\n  xor.b32 %r1, %r1, %r3;\n  and.b32 "
    "%r1, %r1, 1;\n  setp.ne.u32 %q1, %r1, 0;\n";
// Every row takes the path in its even lanes.
const std::string kSameLanes = "  and.b32 %r1, %tid.x, 1;\n  setp.ne.u32 %q1, %r1, 0;\n";

TEST(ThreadBlockCompaction, DivergedThreadsAreCompactedWithinTheirLanes) {
  const nlohmann::json tbc = test::preset("tbc256");
  EXPECT_EQ(warps_per_add(kAlternating, test::preset()), 8.0);  // the baseline: 8 half-full warps
  EXPECT_EQ(warps_per_add(kAlternating, tbc), 4.0);             // rows pair up into full warps
  EXPECT_EQ(warps_per_add(kSameLanes, tbc), 8.0);  // one thread per lane: nothing to pack
}

TEST(ThreadBlockCompaction, TheOriginalWarpsComeBackAtTheReconvergencePoint) {
  // After the diverged path, 20 adds of all 256 threads cost 8 warps each, as in the baseline.
  const nlohmann::json tbc = test::preset("tbc256");
  const CoreRun a = test::run_core(path(kAlternating, 5, 30), 256, tbc),
                b = test::run_core(path(kAlternating, 5, 10), 256, tbc);
  EXPECT_EQ(a.counters.warp_instructions - b.counters.warp_instructions, 20u * 8);
  EXPECT_EQ(a.counters.thread_instructions - b.counters.thread_instructions, 20u * 256);
  for (unsigned t = 0; t < 256; ++t)
    EXPECT_EQ(a.out[t].o, 60u + (t / 16 % 2 == t / 32 % 2 ? 5u : 0u)) << t;
}

TEST(DynamicWarpFormation, ThreadsOfDifferentWarpsAtOnePcMerge) {
  // The half-full warps of the alternating pattern fit together lane by lane: under either issue
  // priority an add of the path costs fewer than the baseline's 8 warps.
  EXPECT_LT(warps_per_add(kAlternating, dwf("majority")), 8.0);
  EXPECT_LT(warps_per_add(kAlternating, dwf("pdom")), 8.0);
  EXPECT_EQ(warps_per_add(kSameLanes, dwf("majority")), 8.0);
}

// A ballot on a diverged path, then a barrier: under every formation each logical 32-thread
// warp's ballot sees only its own threads on the path, and the barrier holds all threads.
TEST(Compaction, VotesActOnTheLogicalWarpsAndBarriersHold) {
  const std::string s = test::diverged_ballot("  bar.sync 0;\n");
  const CoreRun base = test::run_core(s, 256);
  for (const nlohmann::json& c : {test::preset("tbc256"), dwf("majority"), dwf("pdom")}) {
    const CoreRun r = test::run_core(s, 256, c);
    for (unsigned t = 0; t < 256; ++t)
      EXPECT_EQ(r.out[t].o, base.out[t].o) << c["name"] << " thread " << t;
  }
}

TEST(Compaction, ABlockSizeThatIsNotWholeRowsIsRefused) {
  nlohmann::json c = test::preset("tbc256");
  c["core"]["tbc"]["block_size"] = 100;
  const std::string error = test::config_error(c);
  EXPECT_NE(error.find("core.tbc.block_size"), std::string::npos) << error;
}

}  // namespace
}  // namespace gputlm
