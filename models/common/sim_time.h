// The current simulation time, read inline from the kernel's context. sc_core::sc_time_stamp()
// is a call into the SystemC library; the clocked modules ask for the time tens of millions of times
// a run (ClockDomain::now(), Wakeup), so they read it through this instead.
#pragma once

#include <systemc>

namespace gputlm {

inline const sc_core::sc_time& sim_now() { return sc_core::sc_get_curr_simcontext()->time_stamp(); }

}  // namespace gputlm
