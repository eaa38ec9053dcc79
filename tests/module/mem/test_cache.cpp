// The cache module between a scripted initiator and a fixed-latency memory: hit latency, MSHR
// merging and back-pressure, write-back of dirty victims, write-through without allocation.
#include <gtest/gtest.h>

#include "models/mem/cache/cache.h"
#include "support/sc_kernel.h"
#include "tb/mem/fixed_latency_memory.h"
#include "tb/mem/trace_player.h"

namespace gputlm::mem {
namespace {

constexpr Cycle kMemLatency = 50;
// Every link is registered (mem/tlm_ends.h): a request or response is seen one cycle after it
// is sent. A hit is seen hit_latency (2) after the request reached the cache, a hop after it was
// sent; a miss crosses four links (player -> cache -> memory and back).
constexpr Cycle kHop = 1;
constexpr Cycle kHit = 2 + kHop, kMiss = kMemLatency + 4 * kHop;
constexpr uint64_t kA = 0x10000;

tb::TraceRequest req(Cycle cycle, uint64_t address, bool write = false, uint32_t bytes = 4) {
  tb::TraceRequest r;
  r.cycle = cycle;
  r.address = address;
  r.write = write;
  r.bytes = bytes;
  return r;
}

// 1KB, 2-way, 128 B lines: 4 sets, so lines 512 bytes apart share a set.
CacheSpec small(const std::string& policy, uint32_t mshrs = 4, uint32_t merge = 8) {
  CacheSpec s;
  s.size_bytes = 1024;
  s.assoc = 2;
  s.line_bytes = 128;
  s.hit_latency = 2;
  s.mshrs = mshrs;
  s.mshr_merge = merge;
  s.write_policy = policy;
  return s;
}

struct Bench {
  Bench(const CacheSpec& spec, std::vector<tb::TraceRequest> script) {
    test::fresh_sc_kernel();
    const ClockDomain clock(1000, 1000);
    cache = std::make_unique<Cache>("l1", spec, 1000);
    memory = std::make_unique<tb::FixedLatencyMemory>("memory", kMemLatency, clock);
    auto requests = std::make_shared<std::vector<tb::TraceRequest>>(std::move(script));
    auto next = std::make_shared<size_t>(0);
    player = std::make_unique<tb::TracePlayer>(
        "core",
        [requests, next]() -> std::optional<tb::TraceRequest> {
          if (*next == requests->size()) return std::nullopt;
          return (*requests)[(*next)++];
        },
        spec.line_bytes, clock);
    player->keep_completions();
    player->downstream.socket.bind(cache->upstream.socket);
    cache->downstream.socket.bind(memory->upstream.socket);
    sc_core::sc_start();
    EXPECT_TRUE(player->finished());
  }
  const tb::TracePlayer::Completion& at(size_t i) const { return player->completions().at(i); }
  double stat(const char* name) const { return cache->stats().values().at(name).get<double>(); }

  std::unique_ptr<Cache> cache;
  std::unique_ptr<tb::FixedLatencyMemory> memory;
  std::unique_ptr<tb::TracePlayer> player;
};

TEST(Cache, AMissFillsTheLineAndALaterHitTakesTheHitLatency) {
  Bench b(small("write-through"), {req(0, kA), req(100, kA + 8)});
  EXPECT_EQ(b.at(0).responded, kMiss);  // the fill returns 50 cycles after the miss went down
  EXPECT_EQ(b.at(1).responded - b.at(1).sent, kHit);
  ASSERT_EQ(b.memory->log().size(), 1u);
  EXPECT_EQ(b.memory->log()[0].address, kA);
  EXPECT_EQ(b.memory->log()[0].bytes, 128u);
  EXPECT_EQ(b.stat("hits"), 1);
}

TEST(Cache, MissesToOneLineMergeIntoOneMshr) {
  Bench b(small("write-through"), {req(0, kA), req(1, kA + 4), req(2, kA + 64)});
  EXPECT_EQ(b.memory->log().size(), 1u);
  for (size_t i = 0; i < 3; ++i) EXPECT_EQ(b.at(i).responded, kMiss) << i;
  EXPECT_EQ(b.stat("mshr_merges"), 2);
}

TEST(Cache, AFullMergeListHoldsTheNextRequestBackUntilTheFill) {
  Bench b(small("write-through", 4, 2), {req(0, kA), req(1, kA + 4), req(2, kA + 8)});
  EXPECT_EQ(b.at(2).sent, 2u);
  EXPECT_EQ(b.at(2).responded, kMiss - kHop + 2);  // accepted when the fill arrives, then a hit
  EXPECT_EQ(b.memory->log().size(), 1u);
}

TEST(Cache, FullMshrsRefuseUntilAFillFreesOne) {
  Bench b(small("write-through", 2),
          {req(0, kA), req(1, kA + 128), req(2, kA + 256), req(3, kA + 384)});
  ASSERT_EQ(b.memory->log().size(), 4u);
  // The third miss waits for the first fill (seen by the cache at 3 hops + 50, sent on, 1 hop)...
  EXPECT_EQ(b.memory->log()[2].cycle, kMemLatency + 4 * kHop);
  // ...and the fourth waits at the cache's port (no END_REQ) until the second fill frees an MSHR.
  EXPECT_EQ(b.memory->log()[3].cycle, kMemLatency + 5 * kHop);
  EXPECT_GT(b.stat("mshr_full_stalls"), 0);
}

TEST(Cache, WriteBackWritesADirtyVictimBack) {
  // A is written (allocated dirty); B and C share its set; filling C evicts A, the LRU line.
  Bench b(small("write-back"), {req(0, kA, true), req(100, kA + 512), req(200, kA + 1024)});
  const auto& log = b.memory->log();
  ASSERT_EQ(log.size(), 4u);
  EXPECT_EQ(log[3].kind, AccessKind::Writeback);
  EXPECT_EQ(log[3].address, kA);
  EXPECT_EQ(log[3].bytes, 128u);
  EXPECT_EQ(b.stat("writebacks"), 1);
}

TEST(Cache, CleanVictimsAreDroppedSilently) {
  Bench b(small("write-back"), {req(0, kA), req(100, kA + 512), req(200, kA + 1024)});
  EXPECT_EQ(b.memory->log().size(), 3u);
  EXPECT_EQ(b.stat("writebacks"), 0);
}

// A store of a whole line that misses: "fetch" reads the line first, "install" takes it at once
// (dirty, no read below); a partial store fetches either way.
TEST(Cache, FullLineStoresFetchOrInstallByConfig) {
  for (const char* mode : {"fetch", "install"}) {
    CacheSpec s = small("write-back");
    s.full_line_stores = mode;
    Bench b(s, {req(0, kA, true, 128), req(100, kA + 128, true, 64), req(300, kA)});
    const bool install = std::string(mode) == "install";
    const auto& log = b.memory->log();
    ASSERT_EQ(log.size(), install ? 1u : 2u) << mode;
    EXPECT_EQ(log.back().address, kA + 128) << mode << ": the partial store fetches its line";
    EXPECT_EQ(b.at(0).responded, install ? kHit : kMiss) << mode;
    EXPECT_EQ(b.at(2).responded, 300u + kHit) << mode << ": the installed line hits";
  }
}

TEST(Cache, WriteThroughForwardsStoresAndDoesNotAllocate) {
  Bench b(small("write-through"), {req(0, kA, true), req(100, kA)});
  const auto& log = b.memory->log();
  ASSERT_EQ(log.size(), 2u);
  EXPECT_EQ(log[0].kind, AccessKind::Store);
  EXPECT_EQ(log[0].bytes, 4u);
  EXPECT_EQ(log[1].kind, AccessKind::Load);  // the store did not bring the line in
  EXPECT_EQ(b.at(0).responded, kMiss);       // acknowledged when the level below has it
}

TEST(Cache, APerfectCacheAnswersEveryAccessAtTheHitLatencyAndSendsNothingBelow) {
  for (const char* policy : {"write-through", "write-back"}) {
    CacheSpec s = small(policy);
    s.perfect = true;
    Bench b(s, {req(0, kA), req(10, kA + 4096, true), req(20, kA + 8192)});
    EXPECT_TRUE(b.memory->log().empty()) << policy;
    for (size_t i = 0; i < 3; ++i)
      EXPECT_EQ(b.at(i).responded - b.at(i).sent, kHit) << policy << " " << i;
    EXPECT_EQ(b.stat("hits"), 3) << policy;
  }
}

}  // namespace
}  // namespace gputlm::mem
