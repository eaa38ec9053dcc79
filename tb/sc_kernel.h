// SystemC allows one elaboration per kernel. Tests that build and simulate modules start with
// fresh_sc_kernel(), which installs a new simulation context, so every test in a file can
// elaborate and run its own simulation from time zero (the old context is left alone; its
// modules must be gone, as they are when each test owns its modules).
#pragma once

#include <systemc>

namespace gputlm::tb {

inline void fresh_sc_kernel() {
  sc_core::sc_curr_simcontext = new sc_core::sc_simcontext();
  sc_core::sc_default_global_context = sc_core::sc_curr_simcontext;
}

}  // namespace gputlm::tb
