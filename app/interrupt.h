// SIGINT and SIGTERM as a request to stop a run cleanly. The handler only records the signal; the
// runs poll stop_signal() between slices of simulated time (gpu::Gpu), between CTAs (functional
// engine) or between instructions (trace record, the functional stepper), then write what they
// gathered, marked incomplete, and gputlm exits with interrupted_exit_code(). A second signal of
// the same kind ends the process at once (the default action is restored by the first).
#pragma once

#include <string>

namespace gputlm::app {

// Installs the handlers for SIGINT and SIGTERM (idempotent).
void install_stop_handlers();
// The same handlers, but a stop signal interrupts a blocking system call (waitpid returns EINTR)
// instead of restarting it: for a process that waits on children (gputlm sweep's pool).
void install_interrupting_stop_handlers();
// The signal that asked the run to stop (SIGINT, SIGTERM), 0 if none.
int stop_signal();
// Whether a stop was requested (for the models' stop checks).
inline bool stop_requested() { return stop_signal() != 0; }
// "SIGINT", "SIGTERM" (or "signal N").
std::string signal_name(int signal);
// The shell convention: 128 + the signal number (130 for SIGINT, 143 for SIGTERM).
int interrupted_exit_code(int signal);

}  // namespace gputlm::app
