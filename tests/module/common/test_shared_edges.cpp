// SharedEdges: the timed wake-ups of several modules run from one process, each member exactly
// when one of its times is due, members due together in the order they joined (whatever the
// order they asked in), a time asked for twice run once, and a member's delta wake-ups on its own
// process.
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
#include "tb/sc_kernel.h"

namespace gputlm {
namespace {

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
    const uint64_t now = static_cast<uint64_t>(sc_core::sc_time_stamp().to_seconds() * 1e9 + 0.5);
    m_log.push_back({now, name()});
    next = kNever;
    if (auto it = script.find(now); it != script.end()) {
      auto action = std::move(it->second);
      script.erase(it);  // once: a second run in the same time step does nothing
      action();
    }
    sleep_until(m_clock, next, wake);
  }
  Wakeup wake;
  Cycle next = kNever;
  std::map<uint64_t, std::function<void()>> script;

 private:
  Log& m_log;
  ClockDomain m_clock{1000, 1000};
};

struct Edges : sc_core::sc_module {
  SC_HAS_PROCESS(Edges);
  explicit Edges(sc_core::sc_module_name name) : sc_module(name) {
    SC_METHOD(run);
    sensitive << edges.event();
    dont_initialize();
  }
  void run() { edges.dispatch(); }
  SharedEdges edges;
};

sc_core::sc_time ns(double n) { return sc_core::sc_time(n, sc_core::SC_NS); }

TEST(SharedEdges, RunsEachDueMemberOnceInJoinOrder) {
  tb::fresh_sc_kernel();
  Log log;
  Edges e("edges");
  Member b("b", log), a("a", log), c("c", log);
  for (Member* m : {&b, &a, &c}) e.edges.join(m->wake, [m] { m->tick(); });
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
  tb::fresh_sc_kernel();
  Log log;
  Edges e("edges");
  Member a("a", log), b("b", log);
  for (Member* m : {&a, &b}) e.edges.join(m->wake, [m] { m->tick(); });
  a.wake.at(ns(2));
  b.wake.at(ns(100));
  a.script[2] = [&] {
    b.wake.at(ns(10));  // earlier than b's 100 ns, inside the dispatch
    a.wake.now();       // a runs again at 2 ns on its own process ...
    a.script[2] = [&] { b.wake.at(ns(6)); };  // ... and asks for b at 6 ns, earlier than the 10 armed
  };
  b.script[10] = [&] {
    a.wake.at(ns(17));
    b.next = 10;  // a zero-cycle wait: b runs again now (a delta later, through the shared edges)
    b.script[10] = [] {};
  };
  sc_core::sc_start();
  std::vector<std::pair<uint64_t, char>> got;
  for (const auto& [t, n] : log) got.push_back({t, n.back()});
  const std::vector<std::pair<uint64_t, char>> want{{2, 'a'}, {2, 'a'}, {6, 'b'}, {10, 'b'}, {10, 'b'}, {17, 'a'}, {100, 'b'}};
  EXPECT_EQ(got, want);
}

}  // namespace
}  // namespace gputlm
