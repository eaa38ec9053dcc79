// The time model's first rules (docs/design/time-model.md), one per test: a clock domain's period
// and cycle arithmetic (the memo of cycle_at against plain division, edges, the module's own
// present when it runs ahead and the system's when its shared edges do), a Wakeup that keeps
// every time asked for, align_to_edge running a module woken between edges at its next edge, and
// sleep_until under polling.
#include <gtest/gtest.h>

#include <random>
#include <systemc>
#include <utility>
#include <vector>

#include "models/common/clock.h"
#include "models/common/sim_time.h"
#include "support/sc_kernel.h"

namespace gputlm {
namespace {

uint64_t ps(uint64_t n) { return n * sc_core::sc_time(1, sc_core::SC_PS).value(); }
sc_core::sc_time at_ps(uint64_t n) { return time_from_value(ps(n)); }

TEST(ClockDomain, APeriodIsTheReferencePeriodScaledAndRoundedToAPicosecond) {
  test::fresh_sc_kernel();
  EXPECT_EQ(ClockDomain(1400, 1400).period(), at_ps(1000));  // the reference clock: 1 ns
  EXPECT_EQ(ClockDomain(700, 1400).period(), at_ps(2000));   // fermi-gtx480's L2
  EXPECT_EQ(ClockDomain(924, 1400).period(), at_ps(1515));   // its GDDR5: 1515.15 ps rounded
  EXPECT_EQ(ClockDomain(3000, 1000).period(), at_ps(333));
  EXPECT_EQ(ClockDomain(1e7, 1).period(), at_ps(1));  // never below one picosecond
}

// cycle_at answers from a memo when asked about the cycle it answered last or the next one; any
// order of questions (forward a little, forward far, backward) gives what division gives.
TEST(ClockDomain, CycleAtIsTheDivisionWhateverTheOrderOfQuestions) {
  test::fresh_sc_kernel();
  const ClockDomain clock(924, 1400);  // a period of 1515 ps
  std::mt19937_64 rng(7);
  uint64_t t = 0;
  for (int i = 0; i < 20000; ++i) {
    switch (rng() % 4) {
      case 0:
        t += rng() % 1515;
        break;  // the same cycle or the next
      case 1:
        t += 1515 + rng() % 1515;
        break;  // the next or the one after
      case 2:
        t += rng() % 10'000'000;
        break;  // far ahead
      default:
        t = rng() % (t + 1);
        break;  // back
    }
    ASSERT_EQ(clock.cycle_at(at_ps(t)), t / 1515) << "at " << t << " ps, question " << i;
  }
}

TEST(ClockDomain, EdgeAfterIsStrictlyLaterAndEdgeFromMayBeNow) {
  test::fresh_sc_kernel();
  const ClockDomain clock(700, 1400);  // edges every 2000 ps
  EXPECT_EQ(clock.edge_after(at_ps(4000)), at_ps(6000));
  EXPECT_EQ(clock.edge_after(at_ps(4001)), at_ps(6000));
  EXPECT_EQ(clock.edge_from(at_ps(4000)), at_ps(4000));
  EXPECT_EQ(clock.edge_from(at_ps(4001)), at_ps(6000));
  EXPECT_EQ(clock.time_of(3), at_ps(6000));
  EXPECT_EQ(clock.value_of(3), ps(6000));
  EXPECT_TRUE(clock.at_edge());  // time 0
  EXPECT_EQ(clock.until(2), at_ps(4000));
}

// A module running a cycle ahead of the kernel (the core: Core::activate) reads that cycle as its
// present; a link it sends on reads the system's present (base_time), which has not moved.
TEST(ClockDomain, RunningAheadMovesTheModulesPresentButNotTheBaseTime) {
  test::fresh_sc_kernel();
  ClockDomain clock(1000, 1000);
  clock.run_ahead(5);
  EXPECT_EQ(clock.now(), 5u);
  EXPECT_EQ(clock.time(), at_ps(5000));
  EXPECT_EQ(clock.base_time(), sc_core::SC_ZERO_TIME);
  EXPECT_EQ(clock.until(7), at_ps(2000));
  clock.catch_up();
  EXPECT_EQ(clock.now(), 0u);
  EXPECT_EQ(clock.time(), sc_core::SC_ZERO_TIME);
}

// A clock that follows its system's time (the GPU's shared edges) reads the time the shared
// edges run their modules at while they run ahead of the kernel, and the kernel's otherwise.
TEST(ClockDomain, AFollowingClockReadsItsSystemsTimeWhileTheSystemRunsAhead) {
  test::fresh_sc_kernel();
  SystemTime system;
  ClockDomain clock(700, 1400);
  clock.follow(system);
  system.run_ahead(ps(9000));
  EXPECT_EQ(clock.base_time(), at_ps(9000));
  EXPECT_EQ(clock.now(), 4u);  // 9000 ps is in the cycle that starts at 8000
  EXPECT_FALSE(clock.at_edge());
  system.catch_up();
  EXPECT_EQ(clock.now(), 0u);
  EXPECT_EQ(clock.base_time(), sc_core::SC_ZERO_TIME);
}

// A clocked module in the shape of the real ones (an SC_METHOD statically sensitive to its
// Wakeup, ending each run with sleep_until), with its own Wakeup (not shared edges). It logs the
// kernel's time of each run, in ps; `asks` are the wake-ups to ask for at a run (time in ps).
struct Sleeper : sc_core::sc_module {
  SC_HAS_PROCESS(Sleeper);
  Sleeper(sc_core::sc_module_name name, double mhz) : sc_module(name), clock(mhz, 1000) {
    SC_METHOD(tick);
    sensitive << wake.event();
    dont_initialize();
    wake.poll_while(&polled);
  }
  void tick() {
    if (aligned && !align_to_edge(clock)) return;
    runs.push_back(sim_now().value() / ps(1));
    if (runs.size() >= polled_runs) polled = false;
    for (auto it = asks.begin(); it != asks.end();) {
      if (it->first == runs.back()) {
        wake.at(at_ps(it->second));
        it = asks.erase(it);
      } else {
        ++it;
      }
    }
    sleep_until(clock, kNever, wake);
  }
  ClockDomain clock;
  Wakeup wake;
  std::vector<uint64_t> runs;
  std::vector<std::pair<uint64_t, uint64_t>> asks;  // (at run time, ask for time), ps
  bool polled = false;                              // the flag the Wakeup polls while it holds
  size_t polled_runs = 0;  // polled: the flag drops after this many runs (the run then ends)
  bool aligned = false;
};

// SystemC keeps one pending notification per event; a Wakeup keeps every time it was asked for
// and runs its owner once at each, a time asked twice once, an earlier time before a later one
// whatever the order of asking.
TEST(Wakeup, RunsItsOwnerOnceAtEveryTimeAskedFor) {
  test::fresh_sc_kernel();
  Sleeper s("s", 1000);
  s.wake.at(at_ps(9000));
  s.wake.at(at_ps(3000));
  s.wake.at(at_ps(5000));
  s.wake.at(at_ps(3000));
  s.asks = {
      {3000, 4000}, {5000, 9000}, {5000, 6000}};  // while running: one before 9, one again at 9
  sc_core::sc_start();
  EXPECT_EQ(s.runs, (std::vector<uint64_t>{3000, 4000, 5000, 6000, 9000}));
  EXPECT_EQ(s.wake.asks(), 7u);
}

// Woken between two of its edges (by a module of another clock domain), a module runs at its own
// next edge instead (align_to_edge), and only once.
TEST(AlignToEdge, AModuleWokenBetweenItsEdgesRunsAtTheNextOne) {
  test::fresh_sc_kernel();
  Sleeper s("s", 500);  // edges every 2000 ps
  s.aligned = true;
  s.wake.at(at_ps(2500));
  s.wake.at(at_ps(6000));
  sc_core::sc_start();
  EXPECT_EQ(s.runs, (std::vector<uint64_t>{4000, 6000}));
}

// Polled (Wakeup::poll_while), a module runs at every edge of its clock even when it asks for
// nothing; without polling it sleeps until what it asked for.
TEST(SleepUntil, APolledModuleRunsAtEveryEdgeAndASleepingOneOnlyWhenAsked) {
  for (bool polled : {false, true}) {
    test::fresh_sc_kernel();
    Sleeper s("s", 1000);
    s.polled = polled;
    s.polled_runs = 6;
    s.wake.at(at_ps(2000));
    s.asks = {{2000, 5000}};
    sc_core::sc_start();
    const std::vector<uint64_t> want =
        polled ? std::vector<uint64_t>{2000, 3000, 4000, 5000, 6000, 7000}
               : std::vector<uint64_t>{2000, 5000};
    EXPECT_EQ(s.runs, want) << (polled ? "polled" : "sleeping");
  }
}

}  // namespace
}  // namespace gputlm
