// The shell every clocked module of the GPU shares (docs/design/time-model.md, "Rules for a
// clocked module"): its clock domain, the Wakeup that runs it, its one SC_METHOD statically
// sensitive to that Wakeup (rule 1), polling and the shared edges (Pollable). A module derives from
// it and writes only what it does in a cycle: cycle(now) runs at an edge of its own clock (rule 3)
// and returns the next cycle it has work (rule 5); the shell aligns to the edge first and sleeps
// until that cycle after. `Module` is the SystemC base: sc_module, or an abstract module such as
// core::CoreModule.
#pragma once

#include <systemc>

#include "models/common/clock.h"
#include "models/common/shared_edges.h"
#include "models/common/wakeup.h"

namespace gputlm {

template <class Module = sc_core::sc_module>
class ClockedModule : public Module, public Pollable {
 public:
  void poll_while(const bool* flag) final { m_wake.poll_while(flag); }
  void share_edges(SharedEdges& edges) final {
    edges.join(m_wake, m_clock, [this] { activate(); });
  }
  const ClockDomain& clock() const { return m_clock; }

 protected:
  SC_HAS_PROCESS(ClockedModule);
  ClockedModule(sc_core::sc_module_name name, double clock_mhz, double reference_mhz)
      : Module(name), m_clock(clock_mhz, reference_mhz) {
    SC_METHOD(activate);
    this->sensitive << m_wake.event();  // delta wake-ups; timed ones too unless edges are shared
    this->dont_initialize();
  }

  // The module's work at edge `now` of its clock; returns the next cycle it has work (kNever:
  // none until something wakes it).
  virtual Cycle cycle(Cycle now) = 0;
  // One run of the module's process. A module that runs cycles ahead of the kernel (sm::Core)
  // replaces it; the others keep this one.
  virtual void activate() {
    if (!align_to_edge(m_clock)) return;
    sleep_until(m_clock, cycle(m_clock.now()), m_wake);
  }

  ClockDomain m_clock;
  Wakeup m_wake;
};

}  // namespace gputlm
