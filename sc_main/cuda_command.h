// gputlm cuda: runs an unmodified CUDA program (built with nvcc -cudart shared) on the simulator.
// The program is started as a child process with LD_LIBRARY_PATH leading to gputlm's
// libcudart.so.13 (runtime/), which holds the simulator and reads its options from GPUTLM_CUDA_*
// environment variables (runtime/program_run.h). The program's stdout and exit status pass
// through; the summary goes to stderr, the statistics to --stats.
#pragma once

#include <string>
#include <vector>

namespace gputlm {

// `args` are the command's arguments after "cuda"; `argv0` locates the library next to gputlm.
// Returns the program's exit status (128 + the signal number if a signal killed it).
int cmd_cuda(const std::vector<std::string>& args, const char* argv0);

}  // namespace gputlm
