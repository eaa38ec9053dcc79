// SystemC's own reports in gputlm's executables: what SystemC displays goes to stderr, never into
// the summary or JSON on stdout; the harmless notices of a stopped simulation ("Simulation stopped
// by user", W545 "sc_stop has already been called") and SystemC's other infos are not shown, so
// gputlm's own message is the one a user reads. Warnings and errors are still shown (on stderr).
#pragma once

namespace gputlm::app {

void route_systemc_reports();

}  // namespace gputlm::app
