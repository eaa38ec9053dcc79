// Test machinery for the time-model tests (docs/design/time-model.md): picosecond helpers, a
// clocked module in the shape of the real ones, and one process running shared edges.
#pragma once

#include <cstdint>
#include <functional>
#include <systemc>
#include <vector>

#include "models/common/clock.h"
#include "models/common/shared_edges.h"
#include "models/common/wakeup.h"

namespace gputlm::test {

using Times = std::vector<uint64_t>;  // in ps

inline uint64_t ps(uint64_t n) { return n * sc_core::sc_time(1, sc_core::SC_PS).value(); }
inline sc_core::sc_time at_ps(uint64_t n) { return time_from_value(ps(n)); }
inline uint64_t in_ps(const sc_core::sc_time& t) { return t.value() / ps(1); }

// A clocked module in the shape of the real ones (rule 1): one SC_METHOD statically sensitive to
// its Wakeup, ending each run with sleep_until; what it does at a run is the test's `on_run`.
// Clocks are measured against a 1000 MHz reference: 1000 MHz has edges every 1000 ps.
struct ClockedProbe : sc_core::sc_module {
  SC_HAS_PROCESS(ClockedProbe);
  ClockedProbe(sc_core::sc_module_name name, double mhz) : sc_module(name), clock(mhz, 1000) {
    SC_METHOD(tick);
    sensitive << wake.event();
    dont_initialize();
  }
  void tick() {
    if (on_run) on_run();
    sleep_until(clock, kNever, wake);
  }
  // Its timed wake-ups go through `edges` from now on (as a GPU's modules do).
  void join(SharedEdges& edges) {
    edges.join(wake, clock, [this] { tick(); });
  }
  uint64_t now_ps() const { return in_ps(clock.time()); }  // the module's present (rule 2)

  ClockDomain clock;
  Wakeup wake;
  std::function<void()> on_run;
};

// One SC_METHOD on shared edges, as the GPU's Gpu::run_edges.
struct EdgesProbe : sc_core::sc_module {
  SC_HAS_PROCESS(EdgesProbe);
  explicit EdgesProbe(sc_core::sc_module_name name) : sc_module(name) {
    SC_METHOD(run);
    sensitive << edges.event();
    dont_initialize();
  }
  void run() {
    ++dispatches;
    edges.dispatch();
  }
  SharedEdges edges;
  int dispatches = 0;  // kernel time steps (and deltas) the members ran in
};

}  // namespace gputlm::test
