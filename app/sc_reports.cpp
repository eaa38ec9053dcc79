#include "app/sc_reports.h"

#include <iostream>
#include <systemc>

namespace gputlm::app {

namespace {
void display_on_stderr(const sc_core::sc_report& report, const sc_core::sc_actions& actions) {
  if (actions & sc_core::SC_DISPLAY)
    std::cerr << sc_core::sc_report_compose_message(report) << std::endl;
  sc_core::sc_report_handler::default_handler(report, actions & ~sc_core::SC_DISPLAY);
}
}  // namespace

void route_systemc_reports() {
  using sc_core::sc_report_handler;
  sc_report_handler::set_handler(display_on_stderr);
  sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
  sc_report_handler::set_actions(sc_core::SC_ID_SIMULATION_STOP_CALLED_TWICE_,
                                 sc_core::SC_DO_NOTHING);
}

}  // namespace gputlm::app
