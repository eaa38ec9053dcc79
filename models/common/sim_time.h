// The current simulation time, read inline from the kernel's context. sc_core::sc_time_stamp()
// is a call into the SystemC library; the clocked modules ask for the time tens of millions of
// times a run (ClockDomain::now(), Wakeup), so they read it through this instead.
#pragma once

#include <cstring>
#include <systemc>
#include <type_traits>

namespace gputlm {

inline const sc_core::sc_time& sim_now() { return sc_core::sc_get_curr_simcontext()->time_stamp(); }

// sc_core::sc_time::from_value(v) without the call into the library (tens of millions a run, each
// also marking the time resolution as fixed, which it is once any time exists). sc_time holds
// nothing but its value in time units.
inline sc_core::sc_time time_from_value(uint64_t v) {
  static_assert(sizeof(sc_core::sc_time) == sizeof(uint64_t) &&
                std::is_standard_layout_v<sc_core::sc_time>);
  sc_core::sc_time t;
  std::memcpy(static_cast<void*>(&t), &v, sizeof v);
  return t;
}

// The present of a system whose clocked modules run from one process (SharedEdges): the kernel's
// time, or, while that process runs them ahead of the kernel (nothing else can happen before),
// the time it runs them at. Their clock domains (ClockDomain::follow) and link ends read it.
class SystemTime {
 public:
  uint64_t value() const { return m_ahead ? m_value : sim_now().value(); }
  bool ahead() const { return m_ahead; }
  void run_ahead(uint64_t value) {
    m_ahead = true;
    m_value = value;
  }
  void catch_up() { m_ahead = false; }

 private:
  bool m_ahead = false;
  uint64_t m_value = 0;
};

}  // namespace gputlm
