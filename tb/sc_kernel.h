// SystemC allows one elaboration per kernel. Tests that build and simulate modules start with
// fresh_sc_kernel(), which installs a new simulation context, so every test in a file can
// elaborate and run its own simulation from time zero. The context the previous call installed
// is deleted then (its modules must be gone, as they are when each test owns its modules), so a
// test process holds one context at a time. The last one stays installed (SystemC's globals
// point to it until exit) and SystemC's own first context stays SystemC's.
#pragma once

#include <systemc>

namespace gputlm::tb {

inline void fresh_sc_kernel() {
  static sc_core::sc_simcontext* made_last = nullptr;  // the context this function installed last
  sc_core::sc_simcontext* const previous = made_last;
  made_last = new sc_core::sc_simcontext();
  sc_core::sc_curr_simcontext = made_last;
  sc_core::sc_default_global_context = made_last;
  delete previous;
}

}  // namespace gputlm::tb
