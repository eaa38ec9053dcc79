// The link between the VGIW basic-block scheduler and the MT-CGRF fabric (models/vgiw/batch_link.h)
// driven directly by two tiny clocked modules, one rule of docs/design/time-model.md per test
// (rule 4 and "Registered links"): BatchIn queues every message and shows it from the receiver's
// first edge after the time it was sent, which is its clock's base time (the system's present)
// plus the sender's annotation, as the memory links read it.
#include <gtest/gtest.h>

#include <functional>
#include <systemc>
#include <tlm>
#include <vector>

#include "models/common/clock.h"
#include "models/common/shared_edges.h"
#include "models/vgiw/batch_link.h"
#include "support/clocked_probe.h"
#include "support/sc_kernel.h"

namespace gputlm::vgiw {
namespace {

using test::at_ps;
using test::in_ps;
using test::ps;
using test::Times;
using Edges = test::EdgesProbe;

// A clocked module in the shape of the real ones (rule 1), with both ends of a batch link; what it
// does at a run is the test's `on_run`. Clocks against a 1000 MHz reference (1000 ps at 1000 MHz).
struct Clocked : test::ClockedProbe {
  using ClockedProbe::ClockedProbe;
  // Sends a message naming `block`, annotated with `delay` (BatchOut::send annotates none).
  void send(uint32_t block, const sc_core::sc_time& delay = sc_core::SC_ZERO_TIME) {
    BatchMessage m;
    m.block = block;
    tlm::tlm_phase phase = tlm::BEGIN_REQ;
    sc_core::sc_time d = delay;
    completed.push_back(out.socket->nb_transport_fw(m, phase, d) == tlm::TLM_COMPLETED);
  }
  // Pops every message visible now, noting when and which.
  void receive() {
    while (!in.empty()) {
      seen.push_back(now_ps());
      blocks.push_back(in.pop().block);
    }
  }

  BatchIn in{"in", wake, clock};
  BatchOut out{"out"};
  Times seen;
  std::vector<uint32_t> blocks;
  std::vector<bool> completed;
};

// A scheduler at 1000 MHz (edges every 1000 ps) sending to a fabric at 400 MHz (every 2500 ps).
struct Pair {
  Pair() : scheduler("scheduler", 1000), fabric("fabric", 400) {
    scheduler.out.socket.bind(fabric.in.socket);
    fabric.out.socket.bind(scheduler.in.socket);
    fabric.on_run = [this] { fabric.receive(); };
  }
  Clocked scheduler, fabric;
};

// Rule 4, "Registered links": a message sent at t is seen by the receiver from its first edge
// after t, also when t is one of its edges; a receiver run in the time step of the send, after it,
// sees nothing.
TEST(BatchIn, AMessageIsSeenFromTheReceiversFirstEdgeAfterItIsSent) {
  test::fresh_sc_kernel();
  Pair p;
  p.scheduler.wake.at(at_ps(3000));   // between two fabric edges
  p.scheduler.wake.at(at_ps(10000));  // on one
  p.scheduler.on_run = [&] {
    p.scheduler.send(static_cast<uint32_t>(p.scheduler.now_ps() / 1000));
    p.fabric.wake.now();  // the receiver runs again in this time step, after the send
  };
  sc_core::sc_start();
  EXPECT_EQ(p.fabric.seen, (Times{5000, 12500}));
  EXPECT_EQ(p.fabric.blocks, (std::vector<uint32_t>{3, 10}));
}

// Rule 4, "Registered links": a message counts at the receiver's base time plus the sender's
// annotation (a sender running ahead of the system annotates its lead, as on the memory links).
TEST(BatchIn, AMessageCountsAtTheSystemsPresentPlusTheSendersAnnotation) {
  test::fresh_sc_kernel();
  Pair p;
  p.scheduler.wake.at(at_ps(1000));
  p.scheduler.on_run = [&] { p.scheduler.send(1, at_ps(3000)); };  // at 1000 ps, for 4000 ps
  sc_core::sc_start();
  EXPECT_EQ(p.fabric.seen, (Times{5000}));  // not 2500: the first edge after 1000 ps
}

// Rule 4, "Registered links": the link completes every message at once (no back-pressure) and
// queues them: several sent in one time step are all seen at the receiver's next edge, in order.
TEST(BatchIn, QueuesEveryMessageCompletedAtOnceAndShowsThemInOrder) {
  test::fresh_sc_kernel();
  Pair p;
  p.scheduler.wake.at(at_ps(1000));
  p.scheduler.on_run = [&] {
    for (uint32_t b : {7u, 8u, 9u}) p.scheduler.send(b);
  };
  sc_core::sc_start();
  EXPECT_EQ(p.scheduler.completed, (std::vector<bool>{true, true, true}));
  EXPECT_EQ(p.fabric.seen, (Times{2500, 2500, 2500}));
  EXPECT_EQ(p.fabric.blocks, (std::vector<uint32_t>{7, 8, 9}));
}

// Rule 2, "Three presents" and "The GPU runs ahead of the kernel": the receiver reads its clock's
// base time, the system's present, so a link whose two modules shared edges run ahead of the kernel
// shows them what it shows them in step, both ways, from fewer kernel time steps.
TEST(BatchIn, AheadOfTheKernelTheReceiverReadsTheSystemsPresent) {
  struct Run {
    Times to_fabric, to_scheduler;
    int dispatches;
  };
  auto run = [](bool ahead) {
    test::fresh_sc_kernel();
    Edges e("edges");
    Pair p;
    p.scheduler.join(e.edges);
    p.fabric.join(e.edges);
    const uint64_t horizon = ~0ull;
    e.edges.run_ahead_while([ahead] { return ahead; }, &horizon);
    p.scheduler.wake.at(at_ps(1000));
    p.scheduler.wake.at(at_ps(6000));
    // The scheduler sends at 1000 and 6000 ps; the fabric answers each message when it sees it.
    p.scheduler.on_run = [&] {
      p.scheduler.receive();
      const uint64_t t = p.scheduler.now_ps();
      if (t == 1000 || t == 6000) p.scheduler.send(1);
    };
    p.fabric.on_run = [&] {
      const size_t before = p.fabric.seen.size();
      p.fabric.receive();
      for (size_t i = before; i < p.fabric.seen.size(); ++i) p.fabric.send(2);
    };
    sc_core::sc_start();
    return Run{p.fabric.seen, p.scheduler.seen, e.dispatches};
  };
  const Run in_step = run(false), ahead = run(true);
  EXPECT_EQ(in_step.to_fabric, (Times{2500, 7500}));
  EXPECT_EQ(in_step.to_scheduler, (Times{3000, 8000}));
  EXPECT_EQ(ahead.to_fabric, in_step.to_fabric);
  EXPECT_EQ(ahead.to_scheduler, in_step.to_scheduler);
  EXPECT_LT(ahead.dispatches, in_step.dispatches);  // it did run ahead
}

}  // namespace
}  // namespace gputlm::vgiw
