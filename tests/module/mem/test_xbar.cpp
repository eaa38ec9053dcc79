// The interconnect between scripted cores and fixed-latency slices: address interleaving, fair
// round-robin arbitration, link bandwidth in flits, latency.
#include <gtest/gtest.h>

#include "models/mem/mem_extension.h"
#include "models/mem/xbar/xbar.h"
#include "support/sc_kernel.h"
#include "tb/mem/fixed_latency_memory.h"
#include "tb/mem/trace_player.h"

namespace gputlm::mem {
namespace {

tb::TraceRequest req(Cycle cycle, uint64_t address, bool write = false) {
  tb::TraceRequest r;
  r.cycle = cycle;
  r.address = address;
  r.write = write;
  return r;
}

// Core `core` sending `script` in order, its completions kept.
std::unique_ptr<tb::TracePlayer> scripted_core(uint32_t core, std::vector<tb::TraceRequest> script,
                                               const ClockDomain& clock) {
  auto requests = std::make_shared<std::vector<tb::TraceRequest>>(std::move(script));
  for (auto& r : *requests) r.core = core;
  auto next = std::make_shared<size_t>(0);
  auto player =
      std::make_unique<tb::TracePlayer>(("core" + std::to_string(core)).c_str(),
                                        [requests, next]() -> std::optional<tb::TraceRequest> {
                                          if (*next == requests->size()) return std::nullopt;
                                          return (*requests)[(*next)++];
                                        },
                                        128, clock);
  player->keep_completions();
  return player;
}

struct Bench {
  Bench(uint32_t cores, uint32_t slices,
        const std::vector<std::vector<tb::TraceRequest>>& scripts) {
    test::fresh_sc_kernel();
    const ClockDomain clock(1000, 1000);
    XbarSpec spec;  // latency 4, 32 B flits, 8 B header, 256 B interleave
    xbar = std::make_unique<Xbar>("xbar", spec, cores, slices, 1000);
    for (uint32_t c = 0; c < cores; ++c) {
      players.push_back(scripted_core(c, scripts[c], clock));
      players.back()->downstream.socket.bind(xbar->upstream(c).socket);
    }
    for (uint32_t m = 0; m < slices; ++m) {
      slices_.push_back(std::make_unique<tb::FixedLatencyMemory>(
          ("slice" + std::to_string(m)).c_str(), 10, clock));
      xbar->downstream(m).socket.bind(slices_.back()->upstream.socket);
    }
    sc_core::sc_start();
    for (auto& p : players) EXPECT_TRUE(p->finished());
  }
  std::unique_ptr<Xbar> xbar;
  std::vector<std::unique_ptr<tb::TracePlayer>> players;
  std::vector<std::unique_ptr<tb::FixedLatencyMemory>> slices_;
};

TEST(Xbar, AddressesInterleaveOverTheSlices) {
  Bench b(1, 4, {{req(0, 0x0), req(1, 0x100), req(2, 0x200), req(3, 0x300), req(4, 0x400)}});
  EXPECT_EQ(b.slices_[0]->log().size(), 2u);
  for (uint32_t m = 1; m < 4; ++m) EXPECT_EQ(b.slices_[m]->log().size(), 1u) << m;
}

TEST(Xbar, ARequestArrivesAfterTheLatencyAndTheResponseComesBack) {
  Bench b(1, 1, {{req(0, 0x40)}});
  // Each link is registered (mem/tlm_ends.h): a message is seen a cycle after it is sent, and the
  // request crosses two links (core -> xbar -> slice), the response two more.
  constexpr Cycle kHop = 1;
  EXPECT_EQ(b.slices_[0]->log()[0].cycle, 4u + 2 * kHop);  // a read request is one flit: latency 4
  // Response: slice latency 10, then a 128 B line + header = 5 flits on the way back.
  EXPECT_EQ(b.players[0]->completions()[0].responded, 4u + 10 + 4 + 5 - 1 + 4 * kHop);
}

TEST(Xbar, CoresCompetingForOneSliceAreGrantedInTurn) {
  std::vector<std::vector<tb::TraceRequest>> s(3);
  for (uint32_t c = 0; c < 3; ++c)
    for (Cycle i = 0; i < 4; ++i)
      s[c].push_back(req(0, 0x1000 * i));  // all to slice 0, all at once
  Bench b(3, 1, s);
  const auto& log = b.slices_[0]->log();
  ASSERT_EQ(log.size(), 12u);
  for (size_t k = 0; k < log.size(); ++k) EXPECT_EQ(log[k].core, k % 3) << "grant " << k;
  // Each grant loses the other inputs with a request waiting: 2 a grant while all three have
  // requests left (9 grants), then 2, 1 and 0 as the inputs run out.
  EXPECT_EQ(b.xbar->stats().values().at("arbitration_conflicts").get<double>(), 9 * 2 + 2 + 1 + 0);
}

TEST(Xbar, WritesOccupyTheOutputLinkForTheirDataFlits) {
  std::vector<tb::TraceRequest> s;
  for (Cycle i = 0; i < 4; ++i) s.push_back(req(0, 0x0, true));
  Bench b(1, 1, {s});
  const auto& log = b.slices_[0]->log();
  ASSERT_EQ(log.size(), 4u);
  for (size_t k = 1; k < 4; ++k)
    EXPECT_EQ(log[k].cycle - log[k - 1].cycle, 5u);  // (8 + 128) B / 32 B
}

// A response finds its way back through nested crossbars: each pushes its input port on the
// request's route and pops it for the response (MemExtension::push_route).
TEST(Xbar, ResponsesCrossNestedCrossbarsBackToTheirCores) {
  test::fresh_sc_kernel();
  const ClockDomain clock(1000, 1000);
  XbarSpec spec;
  Xbar outer("outer", spec, 3, 1, 1000), inner("inner", spec, 1, 2, 1000);
  std::vector<std::unique_ptr<tb::TracePlayer>> players;
  for (uint32_t c = 0; c < 3; ++c) {
    std::vector<tb::TraceRequest> script;
    for (uint32_t i = 0; i <= c; ++i)
      script.push_back(req(i, 0x100 * (c + i)));  // core c: c + 1 requests
    players.push_back(scripted_core(c, script, clock));
    players.back()->downstream.socket.bind(outer.upstream(c).socket);
  }
  outer.downstream(0).socket.bind(inner.upstream(0).socket);
  tb::FixedLatencyMemory s0("slice0", 10, clock), s1("slice1", 10, clock);
  inner.downstream(0).socket.bind(s0.upstream.socket);
  inner.downstream(1).socket.bind(s1.upstream.socket);
  sc_core::sc_start();
  for (uint32_t c = 0; c < 3; ++c) {
    EXPECT_TRUE(players[c]->finished()) << c;
    EXPECT_EQ(players[c]->completions().size(), c + 1u) << c;
  }
  EXPECT_EQ(s0.log().size() + s1.log().size(), 6u);
  EXPECT_GT(s1.log().size(), 0u);
}

TEST(Xbar, ARouteHoldsFourCrossbarsAndPopsInnermostFirst) {
  MemExtension e;
  for (uint32_t port : {7u, 0u, 65535u, 3u}) EXPECT_TRUE(e.push_route(port));
  EXPECT_FALSE(e.push_route(1));  // a fifth: refused, nothing pushed
  for (uint32_t port : {3u, 65535u, 0u, 7u}) EXPECT_EQ(e.pop_route(), port);
  EXPECT_EQ(e.route_depth, 0u);
}

}  // namespace
}  // namespace gputlm::mem
