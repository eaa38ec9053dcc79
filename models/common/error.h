// Error types shared by every area. Bad user input (PTX, config, trace, workload description)
// raises an InputError whose message already names its location; the command-line front end
// prints it once and exits non-zero. Internal invariants use assert, never these types.
#pragma once

#include <stdexcept>
#include <string>

namespace gputlm {

// Exit codes of every gputlm executable (documented in README.md).
enum ExitCode : int {
  kExitOk = 0,
  kExitVerifyFailed = 1,  // the run finished but an output differs from the CPU reference
  kExitInputError = 2,    // bad PTX, config, trace, workload or command line
  kExitKernelFault = 3,   // the kernel faulted (bad address, misalignment, barrier deadlock)
  kExitInterrupted =
      128,  // plus the signal number (130 SIGINT, 143 SIGTERM): stopped early, outputs incomplete
};

class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// An error at a place in a text file: "file:line: message: `text`".
class SourceError : public InputError {
 public:
  SourceError(const std::string& file, int line, const std::string& message,
              const std::string& text = {})
      : InputError(file + ":" + std::to_string(line) + ": " + message +
                   (text.empty() ? std::string() : ": `" + text + "`")),
        m_file(file),
        m_line(line) {}
  const std::string& file() const { return m_file; }
  int line() const { return m_line; }

 private:
  std::string m_file;
  int m_line;
};

// An error in a JSON config or description: names the key path ("sizes.test.n").
class ConfigError : public InputError {
 public:
  ConfigError(const std::string& where, const std::string& key, const std::string& message)
      : InputError(where + ": key '" + key + "': " + message), m_key(key) {}
  const std::string& key() const { return m_key; }

 private:
  std::string m_key;
};

}  // namespace gputlm
