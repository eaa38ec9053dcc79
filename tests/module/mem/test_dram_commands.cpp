// The DRAM controller's command model driven by a scripted initiator, on the DDR4-2400 preset
// (tRCD = tCL = tRP = 16, tRAS 39, burst 4 cycles, 64 B a column command; refresh off unless a
// test turns it on), with exact expected cycles.
#include <random>

#include "tests/module/mem/dram_bench.h"

namespace gputlm::mem {
namespace {

// 16 banks (4 groups of 4) of 8 KB rows.
uint64_t addr(uint32_t bank, uint64_t row, uint64_t column = 0) {
  return (row << 17) | (uint64_t{bank} << 13) | column;
}

tb::TraceRequest line(tb::TraceRequest r) {
  r.bytes = 64;
  return r;
}

DramSpec ddr4(const std::string& scheduler = "fr-fcfs") {
  DramSpec s = *DramSpec::preset("ddr4-2400");
  s.clock_mhz = 1000;  // 1 ns a cycle, as the bench's player runs
  s.scheduler = scheduler;
  s.command.tREFI = 0;
  s.address_map = {{"column", 13}, {"bank", 4}};
  return s;
}

TEST(DramCommands, UnloadedLatenciesAreTheTimingParameters) {
  DramBench b({line(rd(0, addr(0, 1))), line(rd(100, addr(0, 1, 64))), line(rd(200, addr(0, 2)))},
              ddr4());
  EXPECT_EQ(b.latency(0), 16u + 16 + 4);       // empty: tRCD + tCL + burst
  EXPECT_EQ(b.latency(1), 16u + 4);            // hit: tCL + burst
  EXPECT_EQ(b.latency(2), 16u + 16 + 16 + 4);  // conflict: tRP + tRCD + tCL + burst
  EXPECT_EQ(b.stat("row_empties"), 1);
  EXPECT_EQ(b.stat("row_hits"), 1);
  EXPECT_EQ(b.stat("row_conflicts"), 1);
  EXPECT_EQ(b.stat("activates"), 2);
  EXPECT_EQ(b.stat("precharges"), 1);
  EXPECT_EQ(b.stat("average_read_latency"), (36.0 + 20 + 52) / 3);
}

TEST(DramCommands, ALineLargerThanABurstTakesAColumnCommandPerBurst) {
  DramBench b({rd(0, addr(0, 1))}, ddr4());  // 128 B: two column commands, tCCD_L apart in one bank
  EXPECT_EQ(b.latency(0), 16u + 6 + 16 + 4);
  EXPECT_EQ(b.stat("bus_busy_cycles"), 8);
}

TEST(DramCommands, LaterRequestsFillTheSlotsBehindAnEarlierConflict) {
  // Banks 0, 4, 8 and 12 (one in each bank group) have row 1 open; a conflict in bank 0 waits for
  // tRP + tRCD, and the hits to the other groups that arrive after it (tCCD_S apart) go meanwhile,
  // unaffected, even under fcfs.
  std::vector<tb::TraceRequest> s;
  for (uint32_t g = 0; g < 4; ++g) s.push_back(line(rd(g, addr(4 * g, 1))));
  s.push_back(line(rd(100, addr(0, 2))));
  for (uint32_t g = 1; g < 4; ++g) s.push_back(line(rd(101 + 4 * (g - 1), addr(4 * g, 1, 64))));
  DramBench b(s, ddr4("fcfs"));
  EXPECT_EQ(b.latency(4), 16u + 16 + 16 + 4);
  for (size_t i = 5; i < 8; ++i) EXPECT_EQ(b.latency(i), 16u + 4) << "hit " << i;
  EXPECT_LT(b.done(7), b.done(4));
}

TEST(DramCommands, WritesWaitInTheirQueueUntilNoReadWaitsOrTheHighWatermark) {
  // Reads to one open row arrive a cycle apart and are served tCCD_L (6) apart, so a read waits
  // until the last has issued; the four writes that come among them (requests 10-13) go only then.
  std::vector<tb::TraceRequest> s;
  for (Cycle i = 0; i < 34; ++i)
    s.push_back(line(i >= 10 && i < 14 ? wr(i, addr(8, 1, 64 * i)) : rd(i, addr(0, 1, 64 * i))));
  DramBench b(s, ddr4());
  for (size_t w = 10; w < 14; ++w) EXPECT_GT(b.done(w), b.done(33) - 4) << "write " << w;
  EXPECT_EQ(b.stat("write_drains"), 1);
  // A write queue of 4 with write_high 0.5: the third write passes the watermark and the writes
  // go ahead of the reads that still wait.
  DramSpec small = ddr4();
  small.write_queue_depth = 4;
  small.write_high = 0.5;
  DramBench early(s, small);
  EXPECT_LT(early.done(13), early.done(33) - 20);
}

TEST(DramCommands, RefreshComesEveryTRefiAndAnIdleControllerLetsTheSimulationEnd) {
  DramSpec s = ddr4();
  s.command.tREFI = 1000;
  s.command.tRFC = 100;
  // A read at 0, then nothing until 5000: the refreshes due at 1000 to 5000 went while the
  // controller was idle (the first closed the row), the last at 5000, so the read, reaching the
  // controller at 5001, waits for tRFC from 5000 and opens its row.
  DramBench b({line(rd(0, addr(0, 1))), line(rd(5000, addr(0, 1, 64)))}, s);
  EXPECT_EQ(b.stat("idle_refreshes"), 5);
  EXPECT_EQ(b.stat("refreshes"), 0);
  EXPECT_EQ(b.latency(1), 5000u + 100 + 16 + 16 + 4 - 5001);
  EXPECT_EQ(b.stat("row_empties"), 2);  // the refresh closed the row
}

TEST(DramCommands, RefreshWaitsForARowOpenedForARequestThenClosesEveryBank) {
  DramSpec s = ddr4();
  s.command.tREFI = 1000;
  s.command.tRFC = 100;
  std::vector<tb::TraceRequest> t;
  for (Cycle i = 0; i < 150; ++i)
    t.push_back(line(rd(i * 10, addr(i % 16, 1, 64 * (i / 16)))));  // busy to 1500
  DramBench b(t, s);
  EXPECT_EQ(b.stat("refreshes"), 1);  // due at 1000
  EXPECT_EQ(b.stat("activates"),
            32);  // every bank opened its row twice: before and after the refresh
}

TEST(DramCommands, TheHintHoldKeepsARowOpenForTheAnticipatedRequest) {
  // fr-fcfs-hold, threshold tRP + tRCD = 32: a hinted read to row 1 (data at 36, held to 68), a
  // conflict to row 2 at 10, the same-row request at 50: a hit; the conflict waits until it.
  DramBench b({line(hinted(0, addr(0, 1))), line(rd(10, addr(0, 2))), line(rd(50, addr(0, 1, 64)))},
              ddr4("fr-fcfs-hold"));
  EXPECT_EQ(b.latency(2), 16u + 4);
  EXPECT_EQ(b.stat("hold_hits"), 1);
  EXPECT_GT(b.done(1), b.done(2));
  // Without the hint, the conflict closes row 1 first (at tRAS) and the later request conflicts.
  DramBench plain({line(rd(0, addr(0, 1))), line(rd(10, addr(0, 2))), line(rd(50, addr(0, 1, 64)))},
                  ddr4("fr-fcfs"));
  EXPECT_EQ(plain.stat("row_hits"), 0);
  EXPECT_LT(plain.done(1), plain.done(2));
}

// A built-in policy that says it does not pick by kind: the command model then shows it every
// queued request, as it did before DramKindIndex.
class WholeQueue : public IDramScheduler {
 public:
  WholeQueue(const std::string& name, const DramSchedulerParams& p)
      : m_policy(make_dram_scheduler(name, p)) {}
  int pick(const std::vector<DramQueueEntry>& q, Cycle now) override {
    return m_policy->pick(q, now);
  }
  void on_issue(const DramQueueEntry& e, Cycle now, Cycle done) override {
    m_policy->on_issue(e, now, done);
  }
  bool holds_rows() const override { return m_policy->holds_rows(); }
  std::optional<DramHold> hold(uint32_t bank, Cycle now) const override {
    return m_policy->hold(bank, now);
  }

 private:
  std::unique_ptr<IDramScheduler> m_policy;
};
const DramSchedulerRegistration kWholeFrFcfs("test-whole-fr-fcfs",
                                             [](const DramSchedulerParams& p) {
                                               return std::make_unique<WholeQueue>("fr-fcfs", p);
                                             });
const DramSchedulerRegistration kWholeFcfs("test-whole-fcfs", [](const DramSchedulerParams& p) {
  return std::make_unique<WholeQueue>("fcfs", p);
});
const DramSchedulerRegistration kWholeHold("test-whole-fr-fcfs-hold",
                                           [](const DramSchedulerParams& p) {
                                             return std::make_unique<WholeQueue>("fr-fcfs-hold", p);
                                           });

TEST(DramCommands, APolicyShownTheOldestOfEachKindServesEveryRequestWhenItWouldShownAll) {
  // 3,000 reads and writes (every fifth, some hinted) to random rows of few banks, arriving faster
  // than they are served (full queues, drains, holds, refreshes): each policy shown only the
  // oldest request of each kind finishes every request in the cycle it does shown every one.
  std::mt19937_64 rng(42);
  std::vector<tb::TraceRequest> t;
  for (Cycle i = 0; i < 3000; ++i) {
    const uint64_t a = addr(static_cast<uint32_t>(rng() % 6), rng() % 5, 64 * (rng() % 8));
    tb::TraceRequest r = rng() % 5 == 0 ? wr(i * 3, a) : rd(i * 3, a);
    r.hint = rng() % 7 == 0;
    t.push_back(line(r));
  }
  for (const char* policy : {"fr-fcfs", "fcfs", "fr-fcfs-hold"}) {
    DramSpec s = ddr4(policy);
    s.command.tREFI = 2000;
    s.command.tRFC = 100;
    DramBench by_kind(t, s);
    s.scheduler = std::string("test-whole-") + policy;
    DramBench whole(t, s);
    for (size_t i = 0; i < t.size(); ++i)
      ASSERT_EQ(by_kind.done(i), whole.done(i)) << policy << ", request " << i;
    EXPECT_GT(by_kind.stat("row_hits"), 100) << policy;
    EXPECT_GT(by_kind.stat("row_conflicts"), 100) << policy;
    EXPECT_GT(by_kind.stat("refreshes"), 0) << policy;
  }
}

}  // namespace
}  // namespace gputlm::mem
