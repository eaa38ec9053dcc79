// SystemC allows one elaboration per kernel. Tests that build and simulate modules start with
// fresh_sc_kernel(), which installs a new simulation context, so every test in a file can
// elaborate and run its own simulation from time zero. The contexts it replaces are kept, owned
// here, for the life of the process: a test may still hold modules of an earlier context (a second
// bench built while the first lives), and deleting a used context leaves SystemC's process
// objects of it unreachable (LeakSanitizer reports them). Kept, they stay reachable: no leak, no
// use after free, a few kilobytes per test. SystemC's own first context stays SystemC's.
#pragma once

#include <systemc>
#include <vector>

namespace gputlm::test {

inline void fresh_sc_kernel() {
  // Every context made here. Never destroyed, not even at exit (static destructors run before
  // LeakSanitizer's check): held by a pointer in static storage, they stay reachable.
  static auto* const contexts = new std::vector<sc_core::sc_simcontext*>();
  contexts->push_back(new sc_core::sc_simcontext());
  sc_core::sc_curr_simcontext = contexts->back();
  sc_core::sc_default_global_context = contexts->back();
}

}  // namespace gputlm::test
