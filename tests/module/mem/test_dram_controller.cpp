// The DRAM controller module driven by a scripted initiator, with exact expected cycles for the
// papers' latency model (row hit 100, row empty 200, row conflict 300, 32 B/cycle, 128 B lines).
#include <gtest/gtest.h>

#include "models/common/error.h"
#include "tests/module/mem/dram_bench.h"

namespace gputlm::mem {
namespace {

uint64_t addr(uint32_t bank, uint64_t row, uint64_t column = 0) {
  return (row << 15) | (uint64_t{bank} << 12) | column;
}

// The papers' latency model with `scheduler` and `queue_depth`, 8 banks of 4 KB rows.
DramSpec papers(const std::string& scheduler = "fcfs", uint32_t queue_depth = 32) {
  DramSpec spec;
  spec.scheduler = scheduler;
  spec.queue_depth = queue_depth;
  spec.address_map = {{"column", 12}, {"bank", 3}};
  return spec;
}

struct Bench : DramBench {
  explicit Bench(std::vector<tb::TraceRequest> script, const std::string& scheduler = "fcfs",
                 uint32_t queue_depth = 32)
      : DramBench(std::move(script), papers(scheduler, queue_depth)) {}
};

TEST(DramController, SameRowRequestsPayTheRowHitLatency) {
  Bench b({rd(0, addr(0, 1)), rd(300, addr(0, 1, 128))});
  EXPECT_EQ(b.latency(0), 200u);  // the first access finds the bank closed
  EXPECT_EQ(b.latency(1), 100u);
  EXPECT_EQ(b.stat("row_hits"), 1);
  EXPECT_EQ(b.stat("row_empties"), 1);
}

// dram.controller_latency: each response waits that many cycles more; the bank is free at the
// access's own end, so the row hit that arrives at 300 still takes 100 cycles, then waits 30.
TEST(DramController, AControllerLatencyDelaysEveryResponseByItsCycles) {
  DramSpec spec = papers();
  spec.controller_latency = 30;
  DramBench b({rd(0, addr(0, 1)), rd(300, addr(0, 1, 128))}, spec);
  EXPECT_EQ(b.latency(0), 230u);
  EXPECT_EQ(b.latency(1), 130u);
  EXPECT_EQ(b.stat("row_hits"), 1);
}

TEST(DramController, AnotherRowInTheSameBankPaysTheConflictLatency) {
  Bench b({rd(0, addr(0, 1)), rd(300, addr(0, 2))});
  EXPECT_EQ(b.latency(1), 300u);
  EXPECT_EQ(b.stat("row_conflicts"), 1);
}

TEST(DramController, DifferentBanksOverlap) {
  Bench b({rd(0, addr(0, 1)), rd(0, addr(1, 1)), rd(0, addr(2, 1))});
  // One request a cycle; each bank opens its row in parallel: 200, 201, 202 (not 200, 400, 600).
  EXPECT_EQ(b.done(0), 200u);
  EXPECT_EQ(b.done(1), 201u + 4 - 1);  // the bus: the second line follows the first 4 cycles later
  EXPECT_EQ(b.done(2), 208u);
}

// Row 1 of bank 0 is opened first; then an older conflict (row 2) and a younger hit (row 1) wait.
std::vector<tb::TraceRequest> hit_behind_conflict() {
  return {rd(0, addr(0, 1)), rd(10, addr(0, 2)), rd(11, addr(0, 1, 128))};
}

TEST(DramController, FrFcfsServesAYoungerRowHitBeforeAnOlderConflict) {
  Bench b(hit_behind_conflict(), "fr-fcfs");
  EXPECT_EQ(b.done(2),
            204u);  // hit issued when the bank is ready (100), after the first line on the bus
  EXPECT_EQ(b.done(1), 401u);  // the conflict goes next (cycle 101)
  EXPECT_EQ(b.stat("row_hits"), 1);
}

TEST(DramController, FcfsServesTheOlderConflictFirst) {
  Bench b(hit_behind_conflict(), "fcfs");
  EXPECT_EQ(b.done(1), 400u);  // the conflict, issued at 100
  EXPECT_EQ(b.done(2), 600u);  // the former hit is now a conflict too (issued at 300)
  EXPECT_EQ(b.stat("row_hits"), 0);
}

// The row-buffer hint's hold (fr-fcfs-hold, threshold 300 - 100 = 200): a hinted read opens row 1
// of bank 0 (empty bank: issued at 0, data done at 200, so held until 400); a conflicting request
// to row 2 arrives at 10; the anticipated same-row request at `same_row_at`.

TEST(DramController, AHeldRowServesTheSameRowRequestInsideTheThreshold) {
  Bench b({hinted(0, addr(0, 1)), rd(10, addr(0, 2)), rd(300, addr(0, 1, 128))}, "fr-fcfs-hold");
  EXPECT_EQ(b.done(0), 200u);
  EXPECT_EQ(b.done(2), 400u);  // a row hit at 300, not a conflict
  EXPECT_EQ(b.done(1), 601u);  // the conflict waited for it, then goes (bank ready at 301)
  EXPECT_EQ(b.stat("row_hits"), 1);
  EXPECT_EQ(b.stat("holds"), 1);
  EXPECT_EQ(b.stat("hold_hits"), 1);
  // fr-fcfs without the hint closes the row at 100 for the conflict; the later request conflicts.
  Bench plain({rd(0, addr(0, 1)), rd(10, addr(0, 2)), rd(300, addr(0, 1, 128))}, "fr-fcfs");
  EXPECT_EQ(plain.done(1), 400u);
  EXPECT_EQ(plain.stat("row_hits"), 0);
}

TEST(DramController, AfterTheThresholdTheConflictProceeds) {
  Bench b({hinted(0, addr(0, 1)), rd(10, addr(0, 2)), rd(450, addr(0, 1, 128))}, "fr-fcfs-hold");
  EXPECT_EQ(b.done(1), 700u);  // held until 400, then issued: 400 + 300
  EXPECT_EQ(b.done(2),
            900u);  // the late request conflicts with row 2: issued when bank 0 is free (600)
  EXPECT_EQ(b.stat("hold_timeouts"), 1);
  EXPECT_EQ(b.stat("row_hits"), 0);
}

TEST(DramController, AHoldDoesNotBlockOtherBanks) {
  Bench b({hinted(0, addr(0, 1)), rd(10, addr(0, 2)), rd(20, addr(1, 1)), rd(300, addr(0, 1, 128))},
          "fr-fcfs-hold");
  EXPECT_EQ(b.done(2), 220u);  // bank 1 opens its row at 20 while bank 0 is held
  EXPECT_EQ(b.done(3), 400u);
}

TEST(DramController, TheBandwidthCapBoundsBackToBackLines) {
  std::vector<tb::TraceRequest> s;
  for (Cycle i = 0; i < 17; ++i) s.push_back(rd(i, addr(0, 1, 128 * i)));
  Bench b(s);
  for (size_t i = 1; i < 17; ++i)
    EXPECT_EQ(b.done(i) - b.done(i - 1), 4u) << "line " << i;  // 128 B / 32 B per cycle
  EXPECT_EQ(b.done(16), 200u + 16 * 4);
  EXPECT_NEAR(b.stat("bus_utilization"), 68.0 / (264 - 0), 1e-9);
}

TEST(DramController, AFullQueueRefusesAndTheSenderRetries) {
  // Queue of 2: request 0 issues at once; 1 and 2 wait for bank 0 (busy until 100). 3 sits in the
  // link's register, not taken while the queue is full; 4 waits at the socket (no END_REQ), so 5
  // cannot even be sent until request 1 issues (cycle 101 at the controller: a queue slot frees,
  // 3 is taken, 4 enters the register and its END_REQ is seen a cycle later).
  std::vector<tb::TraceRequest> s;
  for (Cycle i = 0; i < 6; ++i) s.push_back(rd(i, addr(0, 1 + i)));
  Bench b(s, "fcfs", 2);
  EXPECT_EQ(b.player->completions()[4].sent, 4u);
  EXPECT_EQ(b.player->completions()[5].sent, 102u);
  EXPECT_EQ(b.stat("max_queue_occupancy"), 2);
  EXPECT_GT(b.player->stats().values().at("held_back_cycles").get<double>(), 90);
}

TEST(DramController, EachTimingModelIsMadeByItsConfigNameAndAnUnknownNameListsThem) {
  test::fresh_sc_kernel();
  const DramSpec spec = papers();
  const ClockDomain clock(spec.clock_mhz, spec.clock_mhz);
  DramQueue queue(spec.banks);
  const std::unique_ptr<IDramScheduler> scheduler = make_dram_scheduler(spec.scheduler);
  DramCounters counters;
  DramWaves waves(clock, spec.banks, false);
  const DramTimingContext context{spec, clock, queue, *scheduler, counters, waves, "dram"};
  for (const auto& [name, model] : DramSpec::timing_model_names())
    EXPECT_NE(make_dram_timing(name, context), nullptr) << name;
  try {
    make_dram_timing("cycle", context);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(
        std::string(e.what()).find("unknown DRAM timing model 'cycle' (known: command, latency)"),
        std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace gputlm::mem
