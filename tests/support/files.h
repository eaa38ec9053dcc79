// Files of the system tests: a scratch directory per test executable and process, and a file's
// whole text.
#pragma once

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>

namespace gputlm::test {

// <temp>/gputlm_<suite>_<pid>/<name>; the directory exists.
inline std::string scratch_file(const std::string& suite, const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() / ("gputlm_" + suite + "_" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  return (dir / name).string();
}

// The whole text of a file ("" if it cannot be read).
inline std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace gputlm::test
