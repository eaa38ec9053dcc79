// tb_sm: one SIMT core of a config with its memory system (interconnect, L2, DRAM) running a
// workload: the config's core count is set to 1. Statistics as JSON on stdout, optional waves.
#include <systemc>

#include "tb/timing_testbench.h"

int sc_main(int argc, char** argv) {
  return gputlm::tb::run_timing_testbench(argc, argv, "tb_sm", true);
}

int main(int argc, char** argv) {
  setenv("SC_COPYRIGHT_MESSAGE", "DISABLE", 0);
  return sc_core::sc_elab_and_sim(argc, argv);
}
