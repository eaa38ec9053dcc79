// A DRAM controller driven by a scripted trace player, for the controller's module tests.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "models/mem/dram/dram_controller.h"
#include "support/sc_kernel.h"
#include "tb/mem/trace_player.h"

namespace gputlm::mem {

inline tb::TraceRequest rd(Cycle cycle, uint64_t address) {
  tb::TraceRequest r;
  r.cycle = cycle;
  r.address = address;
  return r;
}

inline tb::TraceRequest hinted(Cycle cycle, uint64_t address) {
  tb::TraceRequest r = rd(cycle, address);
  r.hint = true;
  return r;
}
inline tb::TraceRequest wr(Cycle cycle, uint64_t address) {
  tb::TraceRequest r = rd(cycle, address);
  r.write = true;
  return r;
}

// One DRAM controller of `spec` fed by a player of `script` (128 B requests unless a request says).
struct DramBench {
  DramBench(std::vector<tb::TraceRequest> script, const DramSpec& spec) {
    test::fresh_sc_kernel();
    const ClockDomain clock(spec.clock_mhz, spec.clock_mhz);
    dram = std::make_unique<DramController>("dram", spec, spec.clock_mhz);
    auto requests = std::make_shared<std::vector<tb::TraceRequest>>(std::move(script));
    auto next = std::make_shared<size_t>(0);
    player = std::make_unique<tb::TracePlayer>(
        "player",
        [requests, next]() -> std::optional<tb::TraceRequest> {
          if (*next == requests->size()) return std::nullopt;
          return (*requests)[(*next)++];
        },
        128, clock);
    player->keep_completions();
    player->downstream.socket.bind(dram->upstream.socket);
    sc_core::sc_start();
    EXPECT_TRUE(player->finished());
  }
  // When the controller finished request i: the player sees it two links later than that minus
  // one: its request reaches the controller a cycle after it was sent, and the response the player
  // a cycle after it was sent (registered links, mem/tlm_ends.h).
  static constexpr Cycle kHops = 2;
  Cycle done(size_t i) const { return player->completions().at(i).responded - kHops; }
  Cycle latency(size_t i) const { return done(i) - player->completions().at(i).sent; }
  double stat(const char* name) const { return dram->stats().values().at(name).get<double>(); }

  std::unique_ptr<DramController> dram;
  std::unique_ptr<tb::TracePlayer> player;
};

}  // namespace gputlm::mem
