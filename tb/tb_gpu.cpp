// tb_gpu: the whole GPU of a config (cores, interconnect, L2 slices, DRAM channels) running a
// workload; statistics as JSON on stdout, optional waves. The same run as `gputlm run --config`,
// as a testbench executable.
#include <systemc>

#include "tb/timing_testbench.h"

int sc_main(int argc, char** argv) {
  return gputlm::tb::run_timing_testbench(argc, argv, "tb_gpu", false);
}

int main(int argc, char** argv) {
  setenv("SC_COPYRIGHT_MESSAGE", "DISABLE", 0);
  return sc_core::sc_elab_and_sim(argc, argv);
}
