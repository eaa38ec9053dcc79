// The helpers of the system tests that run the CUDA test programs (tests/cuda) under `gputlm cuda`
// from the source directory: a run's exit status, stdout and stderr apart, and scratch files.
// Used by test_cuda_programs.cpp and test_cuda_run_limits.cpp.
#pragma once

#include <unistd.h>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "support/files.h"
#include "support/shell.h"

namespace gputlm::test::cuda_run {

struct ProgramRun {
  int exit_code;
  std::string out, err;  // the program's stdout; stderr (gputlm's summary, the program's errors)
};

inline std::string scratch(const std::string& name) { return scratch_file("cuda_test", name); }

inline std::string read(const std::string& path) { return read_text(path); }

// gputlm <args> from the source directory, stderr kept apart.
inline ProgramRun run_gputlm(const std::string& args) {
  const std::string err = scratch("stderr.txt");
  const gputlm::test::ShellResult r = gputlm::test::shell(
      "cd '" GPUTLM_SOURCE_DIR "' && '" GPUTLM_BINARY "' " + args + " 2> '" + err + "'");
  return {r.exit_code, r.out, read(err)};
}

inline std::string program(const std::string& name) {
  return std::string(GPUTLM_CUDA_PROGRAMS_DIR) + "/" + name;
}

// `gputlm cuda --config configs/<config>.json <options> -- <program> <args>`
inline ProgramRun cuda(const std::string& name, const std::string& options = "",
                       const std::string& args = "", const std::string& config = "fermi-gtx480") {
  return run_gputlm("cuda --config configs/" + config + ".json " + options + " -- '" +
                    program(name) + "' " + args);
}

inline bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

}  // namespace gputlm::test::cuda_run
