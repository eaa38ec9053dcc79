// Files of the tests: a scratch directory per test executable and process (or per test), and a
// file's whole text.
#pragma once

#include <unistd.h>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace gputlm::test {

// <temp>/gputlm_<suite>_<pid>/<name>; the directory exists.
inline std::string scratch_file(const std::string& suite, const std::string& name) {
  const auto dir =
      std::filesystem::temp_directory_path() / ("gputlm_" + suite + "_" + std::to_string(getpid()));
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

// A directory of one test's own (<temp>/gputlm_<tag>_<pid>), removed with it; write() makes a file
// (and the folders its name has) there and returns its path.
class ScratchDir {
 public:
  explicit ScratchDir(const std::string& tag)
      : m_dir(std::filesystem::temp_directory_path() /
              ("gputlm_" + tag + "_" + std::to_string(getpid()))) {
    std::filesystem::create_directories(m_dir);
  }
  ~ScratchDir() {
    std::error_code ec;
    std::filesystem::remove_all(m_dir, ec);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  const std::filesystem::path& path() const { return m_dir; }
  std::string write(const std::string& name, const std::string& text) const {
    const std::filesystem::path p = m_dir / name;
    std::filesystem::create_directories(p.parent_path());
    std::ofstream(p) << text;
    return p.string();
  }

 private:
  std::filesystem::path m_dir;
};

}  // namespace gputlm::test
