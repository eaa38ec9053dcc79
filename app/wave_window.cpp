#include "app/wave_window.h"

namespace gputlm::app {

WaveWindow::WaveWindow(sc_core::sc_module_name name, sc_core::sc_trace_file* tf, uint64_t from,
                       uint64_t to)
    : sc_module(name), m_tf(tf) {
  const sc_core::sc_time ns(1, sc_core::SC_NS);
  if (from > 1) {
    m_steps.push_back({sc_core::sc_time(1, sc_core::SC_PS), false});
    m_steps.push_back({ns * static_cast<double>(from), true});
  }
  if (to < ~0ull - 1) m_steps.push_back({ns * static_cast<double>(to + 1), false});
  SC_METHOD(step);
  sensitive << m_event;
  dont_initialize();
  if (!m_steps.empty()) m_event.notify(m_steps.front().at);
}

void WaveWindow::step() {
  const sc_core::sc_time now = sc_core::sc_time_stamp();
  while (m_next < m_steps.size() && m_steps[m_next].at <= now) attach(m_steps[m_next++].attach);
  if (m_next < m_steps.size()) m_event.notify(m_steps[m_next].at - now);
}

void WaveWindow::attach(bool on) {
  if (on == m_attached) return;
  m_attached = on;
  // SystemC removes a file it does not hold by erasing past the end of its list: only ever
  // remove what is registered.
  if (on)
    sc_core::sc_get_curr_simcontext()->add_trace_file(m_tf);
  else
    sc_core::sc_get_curr_simcontext()->remove_trace_file(m_tf);
}

void WaveWindow::release() { attach(true); }

}  // namespace gputlm::app
