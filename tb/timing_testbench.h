// The shared frame of tb_sm and tb_gpu: `--config --workload [--size] [--vcd] [--stats]`, a
// timing run, the statistics as JSON on stdout, one clear error and exit code for bad input.
#pragma once

#include <string>

namespace gputlm::tb {

// `one_core`: run on a single core of the config (tb_sm).
int run_timing_testbench(int argc, char** argv, const std::string& name, bool one_core);

}  // namespace gputlm::tb
