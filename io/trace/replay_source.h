// What gputlm's trace replay and the Accel-Sim replay share: the first mismatch or bad line met
// while replaying stops the simulation (once) and is kept, so the run can report it as the
// error instead of the unfinished CTAs it leaves.
#pragma once

#include <string>
#include <systemc>

#include "models/func/launch.h"

namespace gputlm::trace {

class ReplaySource : public func::InstructionSource {
 public:
  // The first error met while replaying (empty: none).
  const std::string& error() const { return m_error; }

 protected:
  void stop(const std::string& message) {
    if (!m_error.empty()) return;
    m_error = message;
    sc_core::sc_stop();
  }

 private:
  std::string m_error;
};

}  // namespace gputlm::trace
