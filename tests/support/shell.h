// Runs a shell command from a system test (the executables as a user runs them): its exit code
// and what it printed on stdout.
#pragma once

#include <sys/wait.h>
#include <cstdio>
#include <string>

namespace gputlm::test {

struct ShellResult {
  int exit_code;
  std::string out;
};

inline ShellResult shell(const std::string& command) {
  FILE* p = popen(command.c_str(), "r");
  std::string out;
  char buf[4096];
  while (size_t n = fread(buf, 1, sizeof buf, p)) out.append(buf, n);
  const int status = pclose(p);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

#if defined(GPUTLM_BINARY) && defined(GPUTLM_SOURCE_DIR)  // the system tests
struct CliResult {
  int exit_code;
  std::string output;  // stdout and stderr
};

// The built gputlm with `args`, run in `dir` (relative to the source directory).
inline CliResult gputlm_cli(const std::string& args, const std::string& dir = ".") {
  const ShellResult r =
      shell("cd '" GPUTLM_SOURCE_DIR "/" + dir + "' && '" GPUTLM_BINARY "' " + args + " 2>&1");
  return {r.exit_code, r.out};
}
#endif

}  // namespace gputlm::test
