// Runs a workload on the functional engine only and verifies it: the `gputlm run --functional`
// job. With a VCD path the launches are stepped one warp instruction per cycle inside a SystemC
// testbench (FuncStepper) so the waves show each warp's PC, active mask and stack depth.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "app/interrupt.h"
#include "io/workload/workload.h"
#include "models/func/func_stats.h"
#include "models/func/reference_executor.h"

namespace gputlm::app {

struct LaunchRecord {
  std::string kernel;
  func::Dim3 grid, block;
  func::FuncStats stats;
};

struct FunctionalRun {
  std::string workload;
  std::string size;
  std::vector<LaunchRecord> launches;
  func::FuncStats total;
  workload::VerifyReport verify;
  std::vector<workload::OutputBuffer>
      outputs;  // with FunctionalOptions::keep_outputs, of a complete run
  bool self_checked =
      false;  // a CUDA program's launches (gputlm cuda): the program checks its own outputs
  double host_seconds = 0.0;
  std::string stopped_by;  // the signal that stopped the run ("SIGINT"); empty: complete
};

struct FunctionalOptions {
  func::ReferenceOptions reference;
  std::string vcd_path;       // empty: no waves, no SystemC simulation
  bool keep_outputs = false;  // keep the output buffers' final contents (FunctionalRun::outputs)
  // Asked before each CTA (each instruction with waves): a signal number stops the run there; the
  // statistics so far are reported, marked incomplete, and the outputs are not checked.
  std::function<int()> stop_signal = app::stop_signal;
};

// Throws func::KernelFault if a kernel faults and InputError on bad input.
FunctionalRun run_functional(workload::Workload& w, const FunctionalOptions& options);

}  // namespace gputlm::app
