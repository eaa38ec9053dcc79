#include "app/interrupt.h"

#include <csignal>

#include "models/common/error.h"

namespace gputlm::app {

namespace {
// The one global of gputlm: a signal handler can only communicate through a volatile
// sig_atomic_t with static storage (C++17 [support.signal]), so the stop request lives here.
volatile std::sig_atomic_t g_stop_signal = 0;

extern "C" void on_stop_signal(int signal) {
  g_stop_signal = signal;
  std::signal(signal, SIG_DFL);  // async-signal-safe: the next one ends the process
}
}  // namespace

void install_stop_handlers() {
  std::signal(SIGINT, on_stop_signal);
  std::signal(SIGTERM, on_stop_signal);
}

void install_interrupting_stop_handlers() {
  struct sigaction action {};
  action.sa_handler = on_stop_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = 0;  // no SA_RESTART
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
}

int stop_signal() { return g_stop_signal; }

std::string signal_name(int signal) {
  if (signal == SIGINT) return "SIGINT";
  if (signal == SIGTERM) return "SIGTERM";
  return "signal " + std::to_string(signal);
}

int interrupted_exit_code(int signal) { return kExitInterrupted + signal; }

}  // namespace gputlm::app
