// The two ends of a memory link (models/mem/tlm_ends.h) driven directly by two tiny clocked
// modules, one rule of docs/design/time-model.md per test ("Registered links" under Mechanisms,
// rule 4): when the target sees a request (its first edge after the send, the sender's lead
// counted), when the sender may send the next one (END_REQ at once, at the target's take, one a
// time step), when the initiator sees a response, and that both ends read the system's present
// while shared edges run them ahead of the kernel. The sender and the target mostly run in two
// clock domains, so that "the sender's edge" and "the target's edge" differ.
#include <gtest/gtest.h>

#include <array>
#include <functional>
#include <systemc>
#include <tlm>
#include <vector>

#include "models/common/clock.h"
#include "models/common/shared_edges.h"
#include "models/mem/tlm_ends.h"
#include "support/clocked_probe.h"
#include "support/sc_kernel.h"

namespace gputlm::mem {
namespace {

using test::at_ps;
using test::in_ps;
using test::ps;
using test::Times;
using Edges = test::EdgesProbe;
using Clocked = test::ClockedProbe;

// The sending side: up to four requests, each sent at its first run at or after its time in
// `not_before` at which the end lets it send.
struct Sender : Clocked {
  Sender(sc_core::sc_module_name name, double mhz) : Clocked(name, mhz) {}
  bool try_send() {
    if (sent.size() == not_before.size() || not_before[sent.size()] > now_ps() || !down.can_send())
      return false;
    down.send(requests[sent.size()]);
    sent.push_back(now_ps());
    return true;
  }
  void collect() {
    for (; down.has_response(); down.pop_response()) responses.push_back(now_ps());
  }

  InitiatorEnd down{"down", wake, clock};
  std::array<tlm::tlm_generic_payload, 4> requests;
  Times not_before;
  Times sent;       // when each request was sent
  Times responses;  // when each response was first seen
};

// The receiving side: notes when it first sees each request (peek).
struct Receiver : Clocked {
  Receiver(sc_core::sc_module_name name, double mhz) : Clocked(name, mhz) {}
  tlm::tlm_generic_payload* look() {
    tlm::tlm_generic_payload* p = up.peek();
    if (p && p != m_last) {
      m_last = p;
      seen.push_back(now_ps());
    }
    return p;
  }

  TargetEnd up{"up", wake, clock};
  Times seen;  // when each request was first seen

 private:
  tlm::tlm_generic_payload* m_last = nullptr;
};

// Rule 4, "Registered links": a request sent at t is seen by the target from its first edge after
// t, also when t is one of its edges; a target run in the time step of the send, after it, does not
// see it.
TEST(TargetEnd, ARequestIsSeenFromTheTargetsFirstEdgeAfterItIsSent) {
  test::fresh_sc_kernel();
  Sender s("s", 1000);   // edges every 1000 ps
  Receiver r("r", 400);  // every 2500 ps
  s.down.socket.bind(r.up.socket);
  s.not_before = {3000, 10000};  // between two target edges, then on one
  s.wake.at(at_ps(3000));
  s.wake.at(at_ps(10000));
  s.on_run = [&] {
    if (s.try_send()) r.wake.now();  // the target runs again in this time step, after the send
  };
  r.on_run = [&] {
    if (r.look()) r.up.take();
  };
  sc_core::sc_start();
  EXPECT_EQ(s.sent, (Times{3000, 10000}));
  EXPECT_EQ(r.seen, (Times{5000, 12500}));
}

// Rules 4 and 8, "Registered links" and "A core runs ahead of the other modules": a request sent by
// a module that runs a cycle ahead of the system (ClockDomain::run_ahead) carries its lead as TLM
// delay and counts at the system's present plus that lead: the target sees it from its first edge
// after that time, and the sender may send again from its own first edge after it.
TEST(InitiatorEnd, ARequestSentAheadCountsAtTheSystemsPresentPlusTheLead) {
  test::fresh_sc_kernel();
  Sender s("s", 1000);
  Receiver r("r", 400);  // edges every 2500 ps
  s.down.socket.bind(r.up.socket);
  s.not_before = {0, 0};
  s.wake.at(at_ps(1000));
  s.on_run = [&] {
    if (!s.sent.empty()) {
      s.try_send();
      return;
    }
    s.clock.run_ahead(4);  // at 1000 ps the sender runs its cycle 4 (4000 ps), as Core::tick does
    s.try_send();
    s.clock.catch_up();
  };
  r.on_run = [&] {
    if (r.look()) r.up.take();
  };
  sc_core::sc_start();
  EXPECT_EQ(s.sent, (Times{4000, 5000}));
  EXPECT_EQ(r.seen, (Times{5000, 7500}));  // not 2500: the first target edge after 1000 ps
}

// Rule 4, "Registered links": END_REQ comes back at once when the register is free, yet the sender
// sends no second request in the same time step: to a target that takes one a cycle, one a cycle.
TEST(InitiatorEnd, SendsAtMostOneRequestATimeStep) {
  test::fresh_sc_kernel();
  Sender s("s", 1000);
  Receiver r("r", 1000);
  s.down.socket.bind(r.up.socket);
  s.not_before = {0, 0, 0, 0};
  s.wake.at(at_ps(1000));
  s.on_run = [&] {
    while (s.try_send()) {}
  };
  r.on_run = [&] {
    if (r.look()) r.up.take();
  };
  sc_core::sc_start();
  EXPECT_EQ(s.sent, (Times{1000, 2000, 3000, 4000}));
  EXPECT_EQ(r.seen, (Times{2000, 3000, 4000, 5000}));
}

// Rule 4, "Registered links", the taken-at rule: a request that finds the target's register full
// waits at the socket without END_REQ (the sender may not send); it enters the register when the
// target takes the one before, seen from the target's next edge, and its END_REQ is annotated to
// that edge: the sender sends again from its first edge at or after it.
TEST(TargetEnd, ARequestThatFindsTheRegisterFullWaitsForTheTakeAndEndReqCountsFromTheNextEdge) {
  test::fresh_sc_kernel();
  Sender s("s", 1000);
  Receiver r("r", 500);  // edges every 2000 ps: its next edge after the take is a sender edge
  s.down.socket.bind(r.up.socket);
  s.not_before = {0, 0, 0};
  s.wake.at(at_ps(1000));
  s.wake.at(at_ps(3000));
  bool could_send_at_3000 = true;
  Cycle next_send_at_3000 = 0;
  s.on_run = [&] {
    s.try_send();
    if (s.now_ps() == 3000) {
      could_send_at_3000 = s.down.can_send();
      next_send_at_3000 = s.down.next_send_cycle();
    }
  };
  r.wake.at(at_ps(4000));
  r.on_run = [&] {
    r.look();
    if (r.now_ps() == 4000) r.up.take();
  };
  sc_core::sc_start();
  EXPECT_FALSE(could_send_at_3000);
  EXPECT_EQ(next_send_at_3000, kNever);          // until END_REQ comes
  EXPECT_EQ(s.sent, (Times{1000, 2000, 6000}));  // the second waits from 2000 to the take at 4000
  EXPECT_EQ(r.seen, (Times{2000, 6000}));
}

// Rule 4, "Registered links", the taken-at rule: when the target empties its register in the time
// step a request arrives, the request's END_REQ counts from the target's next edge whether the take
// or the send ran first, so the sender's next send does not depend on the order of the processes.
TEST(TargetEnd, EndReqCountsFromTheTargetsNextEdgeWhetherTheTakeOrTheSendRanFirst) {
  for (bool take_first : {true, false}) {
    test::fresh_sc_kernel();
    Sender s("s", 1000);
    Receiver r("r", 500);  // edges every 2000 ps
    s.down.socket.bind(r.up.socket);
    s.not_before = {0, 4000, 4000};
    s.wake.at(at_ps(1000));
    if (take_first) {
      r.wake.at(at_ps(4000));
      s.on_run = [&] { s.try_send(); };
      r.on_run = [&] {
        r.look();
        if (r.now_ps() != 4000) return;
        r.up.take();
        s.wake.now();  // the sender sends a delta after the take
      };
    } else {
      s.wake.at(at_ps(4000));
      s.on_run = [&] {
        if (s.try_send() && s.now_ps() == 4000) r.wake.now();  // the take a delta after the send
      };
      r.on_run = [&] {
        r.look();
        if (r.now_ps() == 4000) r.up.take();
      };
    }
    sc_core::sc_start();
    EXPECT_EQ(s.sent, (Times{1000, 4000, 6000})) << (take_first ? "take first" : "send first");
    EXPECT_EQ(r.seen, (Times{2000, 6000})) << (take_first ? "take first" : "send first");
  }
}

// Rule 4, "Registered links": the target responds with no delay and the initiator sees the response
// from its own first edge after, not in the time step of the response (it runs then, and sees
// none).
TEST(InitiatorEnd, AResponseIsSeenFromTheInitiatorsFirstEdgeAfterItIsSent) {
  test::fresh_sc_kernel();
  Sender s("s", 1000);
  Receiver r("r", 400);  // edges every 2500 ps: 5000 is a sender edge, 7500 is not
  s.down.socket.bind(r.up.socket);
  s.not_before = {3000, 7000};
  s.wake.at(at_ps(3000));
  s.wake.at(at_ps(7000));
  s.on_run = [&] {
    s.collect();
    s.try_send();
  };
  r.on_run = [&] {
    if (tlm::tlm_generic_payload* p = r.look()) {
      r.up.take();
      r.up.respond(*p);
      s.wake.now();  // the initiator runs again in this time step, after the response
    }
  };
  sc_core::sc_start();
  EXPECT_EQ(r.seen, (Times{5000, 7500}));
  EXPECT_EQ(s.responses, (Times{6000, 8000}));
}

// Rule 2, "Three presents" and "The GPU runs ahead of the kernel": both ends read the system's
// present (the sender its clock's time, the target and its takes base_time), so a link whose two
// modules shared edges run ahead of the kernel shows them what it shows them in step: the same
// sends, waits, takes and responses at the same times, from fewer kernel time steps.
TEST(MemLink, AheadOfTheKernelBothEndsSeeWhatTheySeeInStep) {
  struct Run {
    Times sent, seen, responses;
    int dispatches;
  };
  auto run = [](bool ahead) {
    test::fresh_sc_kernel();
    Edges e("edges");
    Sender s("s", 1000);
    Receiver r("r", 500);  // edges every 2000 ps
    s.down.socket.bind(r.up.socket);
    s.join(e.edges);
    r.join(e.edges);
    const uint64_t horizon = ~0ull;
    e.edges.run_ahead_while([ahead] { return ahead; }, &horizon);
    s.not_before = {0, 0, 0, 10000};
    s.wake.at(at_ps(1000));
    s.wake.at(at_ps(10000));
    r.wake.at(at_ps(4000));
    s.on_run = [&] {
      s.collect();
      s.try_send();
    };
    // From 4000 ps the target takes and answers what it sees: the first request, then the one
    // that waited (END_REQ at 6000), then the third, sent in the time step of that take, then the
    // fourth, sent at 10000 ps into an empty register.
    r.on_run = [&] {
      tlm::tlm_generic_payload* p = r.look();
      if (p && r.now_ps() >= 4000) {
        r.up.take();
        r.up.respond(*p);
      }
    };
    sc_core::sc_start();
    return Run{s.sent, r.seen, s.responses, e.dispatches};
  };
  const Run in_step = run(false), ahead = run(true);
  EXPECT_EQ(in_step.sent, (Times{1000, 2000, 6000, 10000}));
  EXPECT_EQ(in_step.seen, (Times{2000, 6000, 8000, 12000}));
  EXPECT_EQ(in_step.responses, (Times{5000, 7000, 9000, 13000}));
  EXPECT_EQ(ahead.sent, in_step.sent);
  EXPECT_EQ(ahead.seen, in_step.seen);
  EXPECT_EQ(ahead.responses, in_step.responses);
  EXPECT_LT(ahead.dispatches, in_step.dispatches);  // it did run ahead
}

}  // namespace
}  // namespace gputlm::mem
