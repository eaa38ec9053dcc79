// SharedEdges: the timed wake-ups of several modules run from one process, each member exactly
// when one of its times is due, members due together in the order they joined (whatever the
// order they asked in), a time asked for twice run once, and a member's delta wake-ups on its own
// process; run ahead of the kernel, the same runs at the same times (as the members' clocks read
// them) with fewer kernel time steps, never past another process's activity nor to the horizon,
// never while a member is traced, joined before or after; next_due() for a member that would run
// ahead by itself. One rule of docs/design/time-model.md per test.
#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <systemc>
#include <utility>
#include <vector>

#include "models/common/clock.h"
#include "models/common/shared_edges.h"
#include "support/clocked_probe.h"
#include "support/sc_kernel.h"

namespace gputlm {
namespace {

using Edges = test::EdgesProbe;

using Log = std::vector<std::pair<uint64_t, std::string>>;  // (time in ns, member) per run

// A clocked module in the shape of the real ones: an SC_METHOD sensitive to its Wakeup's event
// (delta wake-ups), joined to shared edges for its timed ones, that ends each run with
// sleep_until. At each run it logs itself and does what its script says for that time (1 ns
// cycles); `next` is the cycle it sleeps until.
struct Member : sc_core::sc_module {
  SC_HAS_PROCESS(Member);
  Member(sc_core::sc_module_name name, Log& log) : sc_module(name), m_log(log) {
    SC_METHOD(tick);
    sensitive << wake.event();
    dont_initialize();
  }
  void tick() {
    const uint64_t now = clock.now();  // the shared edges' time, ahead of the kernel's or not
    m_log.push_back({now, name()});
    next = kNever;
    if (auto it = script.find(now); it != script.end()) {
      auto action = std::move(it->second);
      script.erase(it);  // once: a second run in the same time step does nothing
      action();
    }
    sleep_until(clock, next, wake);
  }
  Wakeup wake;
  ClockDomain clock{1000, 1000};
  Cycle next = kNever;
  std::map<uint64_t, std::function<void()>> script;

 private:
  Log& m_log;
};

// A process of its own (a testbench's, the GPU's watchdog): runs at `at` and logs what it sees.
struct Other : sc_core::sc_module {
  SC_HAS_PROCESS(Other);
  Other(sc_core::sc_module_name name, double at_ns) : sc_module(name) {
    SC_METHOD(run);
    sensitive << m_event;
    dont_initialize();
    m_event.notify(sc_core::sc_time(at_ns, sc_core::SC_NS));
  }
  void run() { seen = observe(); }
  std::function<int()> observe;
  int seen = -1;

 private:
  sc_core::sc_event m_event;
};

sc_core::sc_time ns(double n) { return sc_core::sc_time(n, sc_core::SC_NS); }

TEST(SharedEdges, RunsEachDueMemberOnceInJoinOrder) {
  test::fresh_sc_kernel();
  Log log;
  Edges e("edges");
  Member b("b", log), a("a", log), c("c", log);
  for (Member* m : {&b, &a, &c}) e.edges.join(m->wake, m->clock, [m] { m->tick(); });
  // Asked in the order c, a, b for 5 ns, a twice; a at 3 ns asks for c at 4 ns and for itself at 5.
  c.wake.at(ns(5));
  a.wake.at(ns(3));
  a.wake.at(ns(5));
  b.wake.at(ns(5));
  a.wake.at(ns(5));
  a.script[3] = [&] {
    c.wake.at(ns(4));
    a.wake.at(ns(5));
  };
  // b at 5 ns wakes a in the same time step (a delta wake-up: a's own process runs it again).
  b.script[5] = [&] { a.wake.now(); };
  sc_core::sc_start();
  const Log want{{3, "a"}, {4, "c"}, {5, "b"}, {5, "a"}, {5, "c"}, {5, "a"}};
  ASSERT_EQ(log.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(log[i].first, want[i].first) << "run " << i;
    EXPECT_EQ(log[i].second.substr(log[i].second.rfind('.') + 1), want[i].second) << "run " << i;
  }
}

// A time asked for while the dispatch runs, earlier than anything pending, still wakes its member;
// so does one asked in a delta run (outside the dispatch) that is earlier than the one armed, and
// a member's wait of zero cycles at the end of its run.
TEST(SharedEdges, ArmsTheEarliestTimeAskedForFromAnyRun) {
  test::fresh_sc_kernel();
  Log log;
  Edges e("edges");
  Member a("a", log), b("b", log);
  for (Member* m : {&a, &b}) e.edges.join(m->wake, m->clock, [m] { m->tick(); });
  a.wake.at(ns(2));
  b.wake.at(ns(100));
  a.script[2] = [&] {
    b.wake.at(ns(10));  // earlier than b's 100 ns, inside the dispatch
    a.wake.now();       // a runs again at 2 ns on its own process ...
    a.script[2] = [&] {
      b.wake.at(ns(6));
    };  // ... and asks for b at 6 ns, earlier than the 10 armed
  };
  b.script[10] = [&] {
    a.wake.at(ns(17));
    b.next = 10;  // a zero-cycle wait: b runs again now (a delta later, through the shared edges)
    b.script[10] = [] {};
  };
  sc_core::sc_start();
  std::vector<std::pair<uint64_t, char>> got;
  for (const auto& [t, n] : log) got.push_back({t, n.back()});
  const std::vector<std::pair<uint64_t, char>> want{{2, 'a'},  {2, 'a'},  {6, 'b'},  {10, 'b'},
                                                    {10, 'b'}, {17, 'a'}, {100, 'b'}};
  EXPECT_EQ(got, want);
}

// Members that ask for 3, 4, 5, 8, 9 ns (a chain: each run asks for the next) and another process
// at 7 ns. Run ahead, the members run at the same times in the same order, but from two kernel time
// steps instead of five: 3-5 ahead of the kernel (at 3 ns), then the other process at 7 ns, which
// sees the members' work up to 5 ns and none after; then 8-9. Held back by the check, they run as
// the kernel wakes them; with the horizon at 8 ns, ahead only before it (4 and 5).
TEST(SharedEdges, RunsAheadOfTheKernelWhileNothingElseIsPending) {
  struct Case {
    bool check;
    uint64_t horizon_ns;
    int dispatches;
  };
  for (const Case& k :
       {Case{true, ~0ull / 1000, 2}, Case{false, ~0ull / 1000, 5}, Case{true, 8, 3}}) {
    test::fresh_sc_kernel();
    Log log;
    Edges e("edges");
    Member a("a", log), b("b", log);
    Other other("other", 7);
    for (Member* m : {&a, &b}) e.edges.join(m->wake, m->clock, [m] { m->tick(); });
    const uint64_t horizon =
        sc_core::sc_time(static_cast<double>(k.horizon_ns), sc_core::SC_NS).value();
    e.edges.run_ahead_while([&] { return k.check; }, &horizon);
    int work = 0;
    other.observe = [&] { return work; };
    a.wake.at(ns(3));
    a.script[3] = [&] {
      ++work;
      b.wake.at(ns(4));
      a.next = 5;
    };
    b.script[4] = [&] { ++work; };
    a.script[5] = [&] {
      ++work;
      b.wake.at(ns(8));
      b.wake.at(ns(9));
    };
    b.script[8] = [&] { work += 10; };
    b.script[9] = [&] { work += 10; };
    sc_core::sc_start();
    std::vector<std::pair<uint64_t, char>> got;
    for (const auto& [t, n] : log) got.push_back({t, n.back()});
    const std::vector<std::pair<uint64_t, char>> want{
        {3, 'a'}, {4, 'b'}, {5, 'a'}, {8, 'b'}, {9, 'b'}};
    EXPECT_EQ(got, want) << "check " << k.check << ", horizon " << k.horizon_ns;
    EXPECT_EQ(other.seen, 3) << "check " << k.check << ", horizon " << k.horizon_ns;
    EXPECT_EQ(work, 23);
    EXPECT_EQ(e.dispatches, k.dispatches) << "check " << k.check << ", horizon " << k.horizon_ns;
    EXPECT_FALSE(e.edges.time().ahead());
  }
}

// A member running ahead of the kernel that asks to run again now (Wakeup::now) runs again at the
// edges' time, not the kernel's (the dispatch returns to the kernel and runs it when the kernel
// gets there); a traced member (keep_in_step) keeps every member in step.
TEST(SharedEdges, RunsAheadWithDeltaWakeUpsAtItsOwnTimeAndNotWhenTraced) {
  for (bool traced : {false, true}) {
    test::fresh_sc_kernel();
    Log log;
    Edges e("edges");
    Member a("a", log), b("b", log);
    for (Member* m : {&a, &b}) e.edges.join(m->wake, m->clock, [m] { m->tick(); });
    if (traced) b.wake.keep_in_step();
    const uint64_t horizon = ~0ull;
    e.edges.run_ahead_while([] { return true; }, &horizon);
    a.wake.at(ns(2));
    a.script[2] = [&] { a.next = 6; };
    a.script[6] = [&] {
      a.wake.now();
      a.script[6] = [&] { b.wake.at(ns(8)); };
    };
    sc_core::sc_start();
    std::vector<std::pair<uint64_t, char>> got;
    for (const auto& [t, n] : log) got.push_back({t, n.back()});
    const std::vector<std::pair<uint64_t, char>> want{{2, 'a'}, {6, 'a'}, {6, 'a'}, {8, 'b'}};
    EXPECT_EQ(got, want) << "traced " << traced;
    EXPECT_EQ(e.dispatches, traced ? 3 : 2) << "traced " << traced;
  }
}

// Rule 7: a member traced before it joins (its Wakeup already keeps in step) keeps the shared
// edges in step as one traced after it joined does: the same runs as
// RunsAheadWithDeltaWakeUpsAtItsOwnTimeAndNotWhenTraced, from the in-step count of dispatches.
TEST(SharedEdges, AMemberTracedBeforeItJoinsKeepsEveryMemberInStep) {
  test::fresh_sc_kernel();
  Log log;
  Edges e("edges");
  Member a("a", log), b("b", log);
  b.wake.keep_in_step();
  for (Member* m : {&a, &b}) e.edges.join(m->wake, m->clock, [m] { m->tick(); });
  const uint64_t horizon = ~0ull;
  e.edges.run_ahead_while([] { return true; }, &horizon);
  a.wake.at(ns(2));
  a.script[2] = [&] { a.next = 6; };
  a.script[6] = [&] { b.wake.at(ns(8)); };
  sc_core::sc_start();
  std::vector<std::pair<uint64_t, char>> got;
  for (const auto& [t, n] : log) got.push_back({t, n.back()});
  const std::vector<std::pair<uint64_t, char>> want{{2, 'a'}, {6, 'a'}, {8, 'b'}};
  EXPECT_EQ(got, want);
  EXPECT_EQ(e.dispatches, 3);  // ahead of the kernel it would be 1
}

// Rule 8, "A core runs ahead of the other modules": a member that would run cycles ahead by itself
// asks next_due() first. While members due at the present are still to run after it, that is the
// present; for the last of them, the earliest time any member asked for, including what the members
// run before it in this pass asked for; with nothing asked for, none.
TEST(SharedEdges, NextDueIsThePresentWhileMembersDueNowAreStillToRun) {
  test::fresh_sc_kernel();
  Log log;
  Edges e("edges");
  Member a("a", log), b("b", log), c("c", log);
  for (Member* m : {&a, &b, &c}) e.edges.join(m->wake, m->clock, [m] { m->tick(); });
  std::vector<std::pair<char, uint64_t>> seen;  // (member, next_due in ns) at each run
  auto note = [&](char m) {
    const uint64_t d = e.edges.next_due();
    seen.push_back({m, d == ~0ull ? ~0ull : d / ns(1).value()});
  };
  a.wake.at(ns(5));
  c.wake.at(ns(5));
  b.wake.at(ns(9));
  a.script[5] = [&] {
    note('a');
    a.wake.at(ns(7));
  };
  c.script[5] = [&] { note('c'); };
  a.script[7] = [&] { note('a'); };
  b.script[9] = [&] { note('b'); };
  sc_core::sc_start();
  const std::vector<std::pair<char, uint64_t>> want{{'a', 5}, {'c', 7}, {'a', 9}, {'b', ~0ull}};
  EXPECT_EQ(seen, want);
}

// Rule 8: nothing runs ahead of the kernel to or past the horizon (where the running sc_start
// returns): a member due exactly at the horizon runs when the kernel gets there.
TEST(SharedEdges, AMemberDueAtTheHorizonRunsInTheKernelsTime) {
  test::fresh_sc_kernel();
  Log log;
  Edges e("edges");
  Member a("a", log);
  e.edges.join(a.wake, a.clock, [&a] { a.tick(); });
  const uint64_t horizon = ns(5).value();
  e.edges.run_ahead_while([] { return true; }, &horizon);
  std::vector<std::pair<uint64_t, uint64_t>> runs;  // (the member's present, the kernel's), ns
  for (uint64_t t : {3, 4, 5, 6}) {
    a.script[t] = [&a, &runs, t] {
      runs.push_back({a.clock.now(), sim_now().value() / ns(1).value()});
      if (t < 6) a.next = t + 1;
    };
  }
  a.wake.at(ns(3));
  sc_core::sc_start();
  const std::vector<std::pair<uint64_t, uint64_t>> want{{3, 3}, {4, 3}, {5, 5}, {6, 6}};
  EXPECT_EQ(runs, want);
  EXPECT_EQ(e.dispatches, 3);
}

}  // namespace
}  // namespace gputlm
