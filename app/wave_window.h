// Tracing only inside the --vcd-window while the run goes on. SystemC's VCD writer compares every
// traced value at the end of every time step of the simulation; WaveWindow keeps the trace file
// registered with the simulation kernel only while that is wanted, so a run pays for its waves
// only inside the window (outside it the kernel has nothing to trace, and does not call the file):
//   time 0        registered (SystemC's own registration at creation): the header and the
//                 initial values are written, so even a run that ends before the window has them;
//   1 ps later    unregistered, when the window starts after the first cycle;
//   cycle `from`  registered again: the writer compares against what it last wrote, so the first
//                 time step it sees writes every value that changed since, at that time;
//   cycle to + 1  unregistered (the window's last cycle is written whole).
// close() registers the file again before SystemC closes it (its destructor unregisters it), and
// VcdFile::close then clips the small file to [from, to] as before. Times are reference cycles
// (1 ns each, see ClockDomain).
#pragma once

#include <cstdint>
#include <systemc>
#include <vector>

namespace gputlm::app {

class WaveWindow : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(WaveWindow);
  // `tf` was just created (registered); [from, to] in reference cycles, to = ~0: to the end.
  WaveWindow(sc_core::sc_module_name name, sc_core::sc_trace_file* tf, uint64_t from, uint64_t to);
  ~WaveWindow() override { release(); }
  // Registers the file again if it is not (before it is closed).
  void release();

 private:
  struct Step {
    sc_core::sc_time at;
    bool attach;
  };
  void step();
  void attach(bool on);

  sc_core::sc_trace_file* m_tf;
  bool m_attached = true;
  std::vector<Step> m_steps;  // in time order
  size_t m_next = 0;
  sc_core::sc_event m_event;
};

}  // namespace gputlm::app
