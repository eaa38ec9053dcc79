// Progress of a long timing run on stderr (only when stderr is a terminal): simulated cycles,
// CTAs finished and the simulation rate, every few host seconds' worth of simulated cycles.
#pragma once

#include <chrono>
#include <systemc>

#include "models/gpu/gpu.h"

namespace gputlm::app {

class ProgressReporter : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(ProgressReporter);
  ProgressReporter(sc_core::sc_module_name name, const gpu::Gpu& gpu);
  // Starts reporting again (call before each launch).
  void rearm() { m_tick.notify(sc_core::SC_ZERO_TIME); }
  // Ends the progress line.
  void finish();

 private:
  void report();

  const gpu::Gpu& m_gpu;
  sc_core::sc_event m_tick;
  std::chrono::steady_clock::time_point m_start;
  bool m_printed = false;
};

}  // namespace gputlm::app
