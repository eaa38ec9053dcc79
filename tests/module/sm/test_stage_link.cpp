// The pipeline links between a core's stages (models/sm/stage_link.h) driven directly, one rule
// of docs/design/time-model.md per test (rule 4 and "Registered links", last point): unlike the
// memory links they are not registered; an instruction, or the END_REQ that frees its sender,
// moves within the cycle and pokes the stage at the other end, which the core runs again in the
// same cycle (Core::run_cycle: every stage last first, then each poked stage until none is). The
// link holds one instruction; its sender may not send the next before END_REQ.
#include <gtest/gtest.h>

#include <array>
#include <functional>
#include <stdexcept>
#include <systemc>
#include <vector>

#include "models/sm/stage_link.h"
#include "support/sc_kernel.h"

namespace gputlm::sm {
namespace {

using Cycles = std::vector<Cycle>;

// Two stages of a core, `up` sending into `down` over one link, and the core's cycle as
// Core::run_cycle runs it. `up` sends its instructions in order, each from its cycle in
// `send_from`, whenever the link lets it; `down` takes what the link holds at the cycles
// `may_take` allows.
struct Pipe : sc_core::sc_module {
  explicit Pipe(sc_core::sc_module_name name) : sc_module(name) { out.socket.bind(in.socket); }

  void run_up(Cycle now) {
    up_poked.lower();
    if (sent.size() < send_from.size() && send_from[sent.size()] <= now && out.can_send()) {
      out.send(instrs[sent.size()]);
      sent.push_back(now);
    }
  }
  void run_down(Cycle now) {
    down_poked.lower();
    if (in.peek() && may_take(now)) {
      in.take();
      taken.push_back(now);
    }
  }
  // Core::run_cycle: the stages last first, then each poked stage again until no link moves.
  void run_cycle(Cycle now) {
    run_down(now);
    run_up(now);
    for (int pass = 0; poked > 0; ++pass) {
      if (pass == 16) throw std::logic_error("the links did not settle");
      if (down_poked.raised()) run_down(now);
      if (up_poked.raised()) run_up(now);
    }
  }

  uint64_t poked = 0;  // CoreContext::poked_stages
  PokeFlag up_poked{poked, 1}, down_poked{poked, 2};
  StageOut out{"out", up_poked};
  StageIn in{"in", down_poked};
  std::array<WarpInstr, 4> instrs;
  Cycles send_from;
  std::function<bool(Cycle)> may_take = [](Cycle) { return true; };
  Cycles sent, taken;
};

// Binds the sockets (the end of elaboration) so that the ends can be called.
void elaborate() { sc_core::sc_start(sc_core::SC_ZERO_TIME); }

// Rule 4: an instruction a stage sends reaches the next stage within the cycle: the link pokes
// the receiver, which runs again in that cycle and takes it, although it ran first (last first).
TEST(StageLink, AnInstructionSentReachesTheNextStageInTheSameCycle) {
  test::fresh_sc_kernel();
  Pipe p("p");
  elaborate();
  p.send_from = {1, 3};
  for (Cycle c = 0; c < 5; ++c) p.run_cycle(c);
  EXPECT_EQ(p.sent, (Cycles{1, 3}));
  EXPECT_EQ(p.taken, (Cycles{1, 3}));
}

// Rule 4: the link holds one instruction; its sender may not send another until the receiver takes
// it (END_REQ): a stage that does not take stalls the one before it.
TEST(StageLink, TheSenderMaySendAgainOnlyOnceTheReceiverTakes) {
  test::fresh_sc_kernel();
  Pipe p("p");
  elaborate();
  p.send_from = {0, 0};
  p.may_take = [](Cycle now) { return now >= 3; };
  std::vector<bool> could_send;
  for (Cycle c = 0; c < 5; ++c) {
    p.run_cycle(c);
    could_send.push_back(p.out.can_send());
  }
  EXPECT_EQ(could_send, (std::vector<bool>{false, false, false, true, true}));
  EXPECT_EQ(p.sent, (Cycles{0, 3}));
  EXPECT_EQ(p.taken, (Cycles{3, 3}));
}

// Rule 4: END_REQ, too, moves within the cycle: the take pokes the sender, which runs again and
// sends its next instruction in the same cycle, although it ran before the take.
TEST(StageLink, ATakePokesTheSenderWhichSendsAgainInTheSameCycle) {
  test::fresh_sc_kernel();
  Pipe p("p");
  elaborate();
  p.send_from = {1, 1, 1};
  for (Cycle c = 0; c < 4; ++c) p.run_cycle(c);
  EXPECT_EQ(p.sent, (Cycles{1, 1, 1}));  // a take and a send per pass, in one cycle
  EXPECT_EQ(p.taken, (Cycles{1, 1, 1}));
}

// Rule 4: a second instruction sent before END_REQ breaks the base protocol's request exclusion:
// the link refuses it instead of overwriting the one it holds.
TEST(StageLink, ASecondInstructionBeforeEndReqIsAProtocolViolation) {
  test::fresh_sc_kernel();
  Pipe p("p");
  elaborate();
  p.out.send(p.instrs[0]);
  EXPECT_EQ(p.in.peek(), &p.instrs[0]);
  EXPECT_THROW(p.out.send(p.instrs[1]), std::logic_error);
  EXPECT_EQ(p.in.peek(), &p.instrs[0]);
}

// Rule 4, "Registered links", last point: the core runs poked stages again until none is poked,
// keeping them as bits of one mask (CoreContext::poked_stages): a stage poked twice before it runs
// is one bit, running it clears it, and the core's renumbering (PokeFlag::move_to, Core::Core)
// keeps a raised flag raised.
TEST(PokeFlag, AStagePokedTwiceIsOneBitUntilItRuns) {
  uint64_t poked = 0;
  PokeFlag a(poked, 1), b(poked, 4);
  a.raise();
  a.raise();
  b.raise();
  EXPECT_EQ(poked, 5u);
  a.lower();
  a.lower();
  EXPECT_EQ(poked, 4u);
  EXPECT_FALSE(a.raised());
  EXPECT_TRUE(b.raised());
  b.move_to(2);
  EXPECT_EQ(poked, 2u);
  EXPECT_TRUE(b.raised());
  a.move_to(8);
  EXPECT_EQ(poked, 2u);
  EXPECT_FALSE(a.raised());
}

}  // namespace
}  // namespace gputlm::sm
