// SystemC allows one elaboration per kernel. Tests that build and simulate modules start with
// fresh_sc_kernel(), which installs a new simulation context, so every test in a file can
// elaborate and run its own simulation from time zero. Contexts this function installed before
// are deleted as soon as no module of theirs is left (a test may still hold an earlier bench
// while it builds the next), so a test process frees them instead of leaking one per test; the
// installed one and any still in use stay reachable until exit. SystemC's own first context
// stays SystemC's.
#pragma once

#include <algorithm>
#include <systemc>
#include <vector>

namespace gputlm::tb {

inline void fresh_sc_kernel() {
  // Contexts this function installed that are no longer installed and not yet deleted.
  static std::vector<sc_core::sc_simcontext*> retired;
  static sc_core::sc_simcontext* installed = nullptr;
  if (installed) retired.push_back(installed);
  installed = new sc_core::sc_simcontext();
  sc_core::sc_curr_simcontext = installed;
  sc_core::sc_default_global_context = installed;
  // Those whose modules are all gone move to the back, then are deleted.
  const auto in_use = std::partition(retired.begin(), retired.end(), [](sc_core::sc_simcontext* c) { return !c->get_child_objects().empty(); });
  for (auto it = in_use; it != retired.end(); ++it) delete *it;
  retired.erase(in_use, retired.end());
}

}  // namespace gputlm::tb
