// The cache module between a scripted initiator and a fixed-latency memory: hit latency, MSHR
// merging and back-pressure, write-back of dirty victims, write-through without allocation,
// sectored lines (fills, sector misses, per-sector merging and write-back) and the .cg bypass.
#include <gtest/gtest.h>

#include <functional>

#include "models/common/error.h"
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

tb::TraceRequest req(Cycle cycle, uint64_t address, bool write = false, uint32_t bytes = 4,
                     bool cache_global = false) {
  tb::TraceRequest r;
  r.cache_global = cache_global;
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
  // `setup` (if any) sees the cache before the simulation starts.
  Bench(const CacheSpec& spec, std::vector<tb::TraceRequest> script,
        const std::function<void(Cache&)>& setup = nullptr) {
    test::fresh_sc_kernel();
    const ClockDomain clock(1000, 1000);
    cache = std::make_unique<Cache>("l1", spec, 1000);
    if (setup) setup(*cache);
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

// prefetch_lines (Huerta et al. 2025's instruction stream buffer, in the cache): a miss of line A
// also fetches A+1 .. A+n, so the next lines hit once their fills are in; a request for a line
// still on its way merges into the prefetch's MSHR; at most n prefetches are out, in MSHRs beyond
// `mshrs`.
tb::TraceRequest fetch(Cycle cycle, uint64_t address) {
  tb::TraceRequest r = req(cycle, address);
  r.fetch = true;
  return r;
}

CacheSpec prefetching(uint32_t lines, uint32_t mshrs = 4) {
  CacheSpec s = small("write-through", mshrs);
  s.size_bytes = 4096;  // 16 sets: the prefetched lines evict nothing
  s.prefetch_lines = lines;
  return s;
}

TEST(Cache, AMissPrefetchesTheNextLinesAndTheyHitOnceFilled) {
  Bench b(prefetching(3), {fetch(0, kA), fetch(100, kA + 128), fetch(101, kA + 256),
                           fetch(102, kA + 384), fetch(103, kA + 512)});
  const auto& log = b.memory->log();
  ASSERT_EQ(log.size(), 8u);  // A, its three prefetches, the miss of A+4 lines and its three
  for (uint64_t i = 1; i <= 3; ++i) {
    EXPECT_EQ(log[i].address, kA + 128 * i);
    EXPECT_EQ(b.at(i).responded - b.at(i).sent, kHit) << i;
  }
  EXPECT_EQ(b.at(4).responded - b.at(4).sent, kMiss);  // beyond the prefetched lines
  EXPECT_EQ(b.stat("prefetches"), 3 + 3);              // the last miss prefetches three more
  EXPECT_EQ(b.stat("hits"), 3);
}

TEST(Cache, ARequestForALineOnItsWayFromAPrefetchWaitsForThatFill) {
  Bench b(prefetching(2), {fetch(0, kA), fetch(5, kA + 128)});
  ASSERT_EQ(b.memory->log().size(), 3u);                // no second fetch of A + 128
  EXPECT_EQ(b.at(1).responded, b.at(0).responded + 1);  // its fill went down a cycle after A's
  EXPECT_EQ(b.stat("prefetch_merges"), 1);
  EXPECT_EQ(b.stat("misses"), 2);
}

TEST(Cache, PrefetchesTakeNoMshrADemandMissNeeds) {
  // One MSHR: the prefetches of A's miss use entries of their own, and the miss of B goes down
  // when A's fill frees the one MSHR, not later. B's miss prefetches nothing: the four entries are
  // still waiting for their fills.
  Bench with(prefetching(4, 1), {fetch(0, kA), fetch(1, kA + 2048)});
  Bench without(small("write-through", 1), {req(0, kA), req(1, kA + 2048)});
  EXPECT_EQ(with.memory->log().size(), 2u + 4u);
  EXPECT_EQ(with.at(1).responded, without.at(1).responded);
}

TEST(Cache, OnlyAnInstructionFetchsMissPrefetches) {
  Bench b(prefetching(3), {req(0, kA), fetch(100, kA + 1024)});
  ASSERT_EQ(b.memory->log().size(), 1u + 1u + 3u);  // the load's line alone, the fetch's and three
  EXPECT_EQ(b.memory->log()[1].address, kA + 1024);
  EXPECT_EQ(b.stat("prefetches"), 3);
}

// resident_fetches (the kernel's code resident in the L2): an instruction fetch that misses is
// answered as a hit, its line installed, nothing sent below; a load of the same line then hits,
// while a load of another line misses as usual.
TEST(Cache, AResidentFetchIsAHitThatInstallsItsLine) {
  CacheSpec s = small("write-back");
  s.resident_fetches = true;
  Bench b(s, {fetch(0, kA), req(10, kA), req(20, kA + 4096)});
  ASSERT_EQ(b.memory->log().size(), 1u);
  EXPECT_EQ(b.memory->log()[0].address, kA + 4096);
  EXPECT_EQ(b.at(0).responded - b.at(0).sent, kHit);
  EXPECT_EQ(b.at(1).responded - b.at(1).sent, kHit);
  EXPECT_EQ(b.at(2).responded - b.at(2).sent, kMiss);
  EXPECT_EQ(b.stat("hits"), 2);
}

TEST(Cache, AResidentFetchEvictsAsAFillWould) {
  // A dirty line A and a clean line B fill the set; the fetched line C evicts A, which is written
  // back: the code takes its place in the cache.
  CacheSpec s = small("write-back");
  s.resident_fetches = true;
  Bench b(s, {req(0, kA, true), req(100, kA + 512), fetch(200, kA + 1024)});
  const auto& log = b.memory->log();
  ASSERT_EQ(log.size(), 3u);  // A's fill, B's fill, A's write-back; no read of C
  EXPECT_EQ(log[2].kind, AccessKind::Writeback);
  EXPECT_EQ(log[2].address, kA);
}

TEST(Cache, NoPrefetchByDefault) {
  Bench b(small("write-through"), {req(0, kA)});
  EXPECT_EQ(b.memory->log().size(), 1u);
  EXPECT_EQ(b.cache->stats().values().count("prefetches"), 0u);
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

// max_dirty_ways: a 4-way set keeps at most 2 dirty lines. Whole-line stores install at once
// (no reads below), so the log holds only write-backs: the third dirty line writes back the one
// dirtied first (A), which stays valid (a load of it hits); re-dirtying A writes back the oldest
// dirty line then, A + 512. A store to a line already dirty writes nothing back.
TEST(Cache, AStoreOverMaxDirtyWaysWritesBackTheLineDirtiedFirstAndKeepsIt) {
  CacheSpec s = small("write-back");
  s.size_bytes = 2048;
  s.assoc = 4;  // 4 sets of 4 ways: lines 512 bytes apart share a set
  s.full_line_stores = "install";
  s.max_dirty_ways = 2;
  Bench b(s, {req(0, kA, true, 128), req(10, kA + 512, true, 128), req(20, kA + 1024, true, 128),
              req(30, kA + 1024, true, 128), req(100, kA), req(200, kA, true, 128),
              req(300, kA + 512)});
  const auto& log = b.memory->log();
  ASSERT_EQ(log.size(), 2u);
  EXPECT_EQ(log[0].kind, AccessKind::Writeback);
  EXPECT_EQ(log[0].address, kA);
  EXPECT_EQ(log[0].cycle, 20u + kHop + kHop);  // sent the cycle A + 1024's store was taken
  EXPECT_EQ(log[1].kind, AccessKind::Writeback);
  EXPECT_EQ(log[1].address, kA + 512);
  EXPECT_EQ(b.at(4).responded - b.at(4).sent, kHit);  // A, cleaned, is still there
  EXPECT_EQ(b.at(6).responded - b.at(6).sent, kHit);
  EXPECT_EQ(b.stat("early_writebacks"), 2);
  EXPECT_EQ(b.stat("writebacks"), 2);
  EXPECT_EQ(b.stat("hits"), 4);  // all but the first three stores
}

TEST(Cache, NoDirtyLimitByDefault) {
  CacheSpec s = small("write-back");
  s.full_line_stores = "install";
  Bench b(s, {req(0, kA, true, 128), req(10, kA + 512, true, 128)});
  EXPECT_EQ(b.memory->log().size(), 0u);
  EXPECT_EQ(b.cache->stats().values().count("early_writebacks"), 0u);
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

// The same cache with lines of four 32 B sectors (Volta's L1 and L2 geometry).
CacheSpec sectored(const std::string& policy, uint32_t mshrs = 4, uint32_t merge = 8) {
  CacheSpec s = small(policy, mshrs, merge);
  s.sector_bytes = 32;
  return s;
}

// A load needing one sector of an absent line fetches that sector (32 B); a load of another sector
// of the line is a sector miss that fetches only its sector, evicting nothing; a load of the first
// sector again hits.
TEST(SectoredCache, AMissFetchesOnlyItsSectorAndAnotherSectorIsASectorMiss) {
  Bench b(sectored("write-through"), {req(0, kA), req(100, kA + 32), req(200, kA + 4)});
  const auto& log = b.memory->log();
  ASSERT_EQ(log.size(), 2u);
  EXPECT_EQ(log[0].address, kA);
  EXPECT_EQ(log[0].bytes, 32u);
  EXPECT_EQ(log[1].address, kA + 32);
  EXPECT_EQ(log[1].bytes, 32u);
  EXPECT_EQ(b.at(0).responded, kMiss);
  EXPECT_EQ(b.at(1).responded, 100 + kMiss);
  EXPECT_EQ(b.at(2).responded - b.at(2).sent, kHit);
  EXPECT_EQ(b.stat("hits"), 1);
  EXPECT_EQ(b.stat("misses"), 2);
  EXPECT_EQ(b.stat("sector_only_misses"), 1);
  EXPECT_EQ(b.stat("sector_hits"), 1);
  EXPECT_EQ(b.stat("sector_misses"), 2);
  EXPECT_EQ(b.stat("read_sectors"), 3);
  EXPECT_EQ(b.stat("fills"), 2);
}

// A miss to a sector already being fetched merges; one to another sector of the line shares the
// line's MSHR and fetches its own sector (2 cycles later, as it was sent 2 cycles later).
TEST(SectoredCache, MissesMergePerSectorAndShareTheLinesMshr) {
  Bench b(sectored("write-through"), {req(0, kA), req(1, kA + 4), req(2, kA + 64)});
  const auto& log = b.memory->log();
  ASSERT_EQ(log.size(), 2u);
  EXPECT_EQ(log[0].address, kA);
  EXPECT_EQ(log[1].address, kA + 64);
  EXPECT_EQ(log[1].bytes, 32u);
  EXPECT_EQ(b.at(0).responded, kMiss);
  EXPECT_EQ(b.at(1).responded, kMiss);
  EXPECT_EQ(b.at(2).responded, 2 + kMiss);
  EXPECT_EQ(b.stat("mshr_merges"), 1);
  EXPECT_EQ(b.stat("max_mshrs_in_use"), 1);
}

// With one MSHR, a second sector of the missing line still goes out at once (memory sees it at
// cycle 3, a cycle after the first); a miss to another line waits for both sectors' fills.
TEST(SectoredCache, OneMshrHoldsEverySectorOfItsLine) {
  Bench b(sectored("write-through", 1), {req(0, kA), req(1, kA + 96), req(2, kA + 128)});
  const auto& log = b.memory->log();
  ASSERT_EQ(log.size(), 3u);
  EXPECT_EQ(log[0].cycle, 2u);
  EXPECT_EQ(log[1].cycle, 3u);
  EXPECT_EQ(log[2].cycle, kMemLatency + 5 * kHop);  // the fill of kA + 96 freed the MSHR
  EXPECT_GT(b.stat("mshr_full_stalls"), 0);
}

// A request for the whole line (128 B) misses all four sectors: four 32 B reads, one a cycle on
// the link below, and the answer when the last is back (3 cycles after a one-sector miss).
TEST(SectoredCache, AWholeLineMissFetchesFourSectors) {
  Bench b(sectored("write-through"), {req(0, kA, false, 128)});
  const auto& log = b.memory->log();
  ASSERT_EQ(log.size(), 4u);
  for (size_t s = 0; s < 4; ++s) {
    EXPECT_EQ(log[s].address, kA + 32 * s) << s;
    EXPECT_EQ(log[s].bytes, 32u) << s;
  }
  EXPECT_EQ(b.at(0).responded, kMiss + 3);
  EXPECT_EQ(b.stat("sector_misses"), 4);
}

// Write-back: a store writing sectors 1 and 2 whole installs them dirty without a read
// ("install"); the evicted line writes back those two sectors only, 32 B each.
TEST(SectoredCache, AWriteBackLineWritesBackItsDirtySectorsOnly) {
  CacheSpec s = sectored("write-back");
  s.full_line_stores = "install";
  Bench b(s, {req(0, kA + 32, true, 64), req(100, kA + 512), req(200, kA + 1024)});
  const auto& log = b.memory->log();
  ASSERT_EQ(log.size(), 4u);  // two sector reads, two sector write-backs
  EXPECT_EQ(log[2].kind, AccessKind::Writeback);
  EXPECT_EQ(log[2].address, kA + 32);
  EXPECT_EQ(log[2].bytes, 32u);
  EXPECT_EQ(log[3].kind, AccessKind::Writeback);
  EXPECT_EQ(log[3].address, kA + 64);
  EXPECT_EQ(b.at(0).responded, kHit);
  EXPECT_EQ(b.stat("writebacks"), 1);
  EXPECT_EQ(b.stat("writeback_sectors"), 2);
}

// A partial-sector store that misses fetches that sector only, and marks it dirty on the fill.
TEST(SectoredCache, APartialSectorStoreFetchesItsSector) {
  Bench b(sectored("write-back"),
          {req(0, kA + 40, true, 4), req(100, kA + 512), req(200, kA + 1024)});
  const auto& log = b.memory->log();
  ASSERT_EQ(log.size(), 4u);
  EXPECT_EQ(log[0].kind, AccessKind::Load);
  EXPECT_EQ(log[0].address, kA + 32);
  EXPECT_EQ(log[0].bytes, 32u);
  EXPECT_EQ(log[3].kind, AccessKind::Writeback);
  EXPECT_EQ(log[3].address, kA + 32);
  EXPECT_EQ(b.at(0).responded, kMiss);
}

// "lazy" (GPGPU-Sim's lazy fetch on read): a 4-byte store into an absent line installs its
// sector at once, dirty and partial, and reads nothing (it answers at the hit latency); a load
// of that sector then misses and fetches it (the fill completes it); a load of the sector again
// hits; a 32-byte store of another sector installs it whole, and a load of it hits. The evicted
// line writes back both dirty sectors.
TEST(SectoredCache, LazyStoresInstallAtOnceAndALoadFetchesAPartialSector) {
  CacheSpec s = sectored("write-back");
  s.full_line_stores = "lazy";
  Bench b(
      s, {req(0, kA + 40, true, 4), req(100, kA + 44), req(200, kA + 32),
          req(300, kA + 64, true, 32), req(400, kA + 64), req(500, kA + 512), req(600, kA + 1024)});
  const auto& log = b.memory->log();
  ASSERT_EQ(log.size(), 5u);  // the partial sector's fetch, two loads of other lines, 2 write-backs
  EXPECT_EQ(log[0].kind, AccessKind::Load);
  EXPECT_EQ(log[0].address, kA + 32);
  EXPECT_EQ(log[0].cycle, 100 + 2 * kHop);
  EXPECT_EQ(b.at(0).responded, kHit);
  EXPECT_EQ(b.at(1).responded, 100 + kMiss);
  EXPECT_EQ(b.at(2).responded - b.at(2).sent, kHit);
  EXPECT_EQ(b.at(3).responded - b.at(3).sent, kHit);
  EXPECT_EQ(b.at(4).responded - b.at(4).sent, kHit);
  EXPECT_EQ(log[3].kind, AccessKind::Writeback);
  EXPECT_EQ(log[3].address, kA + 32);
  EXPECT_EQ(log[4].kind, AccessKind::Writeback);
  EXPECT_EQ(log[4].address, kA + 64);
  EXPECT_EQ(b.stat("writeback_sectors"), 2);
}

// ld.global.cg with bypass_cg: the load goes below as it is, and nothing is allocated, so the
// next plain load of the line misses; without bypass_cg the .cg load allocates like any other.
TEST(Cache, BypassCgLoadsNeitherHitNorAllocate) {
  for (bool bypass : {true, false}) {
    CacheSpec s = small("write-through");
    s.bypass_cg = bypass;
    Bench b(s, {req(0, kA, false, 4, true), req(100, kA)});
    const auto& log = b.memory->log();
    ASSERT_EQ(log.size(), bypass ? 2u : 1u) << bypass;
    EXPECT_EQ(log[0].bytes, bypass ? 4u : 128u) << bypass;
    EXPECT_EQ(b.at(0).responded, kMiss) << bypass;
    EXPECT_EQ(b.at(1).responded, bypass ? 100 + kMiss : 100 + kHit) << bypass;
    EXPECT_EQ(b.stat("hits"), bypass ? 0 : 1) << bypass;
    if (bypass) {
      EXPECT_EQ(b.stat("bypassed"), 1);
    }
  }
}

// A unified L1/shared array's L1 (sm/carveout.h): 32 sets of 128 B lines (4 KB a way), made with
// 16 ways and given 32 (128 KB) or 8 (32 KB). A 64 KB working set read twice, a line at a time: the
// second pass hits every line in 128 KB and none in 32 KB (16 lines a set cycle through 8 LRU
// ways).
TEST(Cache, AResizedCacheHoldsWhatItsWaysHold) {
  CacheSpec spec = small("write-through");
  spec.size_bytes = 64 * 1024;
  spec.assoc = 16;
  std::vector<tb::TraceRequest> script;
  for (Cycle pass : {0, 20000})
    for (uint64_t i = 0; i < 512; ++i) script.push_back(req(pass + i, kA + i * 128));
  struct Outcome {
    uint64_t size, sets;
    double hits, misses;
  };
  auto run = [&](uint32_t ways) {
    const Bench b(spec, script, [ways](Cache& c) { c.set_ways(ways); });
    return Outcome{b.cache->spec().size_bytes, b.cache->spec().sets(), b.stat("hits"),
                   b.stat("misses")};
  };
  const Outcome whole = run(32), quarter = run(8);
  EXPECT_EQ(whole.size, 128u * 1024);
  EXPECT_EQ(quarter.size, 32u * 1024);
  EXPECT_EQ(quarter.sets, 32u);
  EXPECT_EQ(whole.hits, 512);
  EXPECT_EQ(whole.misses, 512);
  EXPECT_EQ(quarter.hits, 0);
  EXPECT_EQ(quarter.misses, 1024);
}

TEST(CacheSpec, SectorsMustDivideTheLineIntoAtMost32) {
  auto error = [](const std::string& text) {
    try {
      CacheSpec::from_json(nlohmann::json::parse(text), "c.json", "l2");
    } catch (const ConfigError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_EQ(error(R"({"sector_bytes": 32})"), "");
  EXPECT_NE(error(R"({"sector_bytes": 24})").find("key 'l2.sector_bytes'"), std::string::npos);
  EXPECT_NE(error(R"({"sector_bytes": 256})").find("key 'l2.sector_bytes'"), std::string::npos);
  EXPECT_NE(error(R"({"line_bytes": 2048, "sector_bytes": 32, "size_bytes": 65536})")
                .find("at most 32 sectors"),
            std::string::npos);
  const std::string wb = R"("write_policy": "write-back", "assoc": 4, "size_bytes": 2048)";
  EXPECT_EQ(error("{" + wb + R"(, "max_dirty_ways": 3})"), "");
  EXPECT_NE(error("{" + wb + R"(, "max_dirty_ways": 4})").find("key 'l2.max_dirty_ways'"),
            std::string::npos);
  EXPECT_NE(error(R"({"max_dirty_ways": 2})").find("needs write_policy write-back"),
            std::string::npos);
}

}  // namespace
}  // namespace gputlm::mem
