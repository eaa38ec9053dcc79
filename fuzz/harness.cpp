#include "fuzz/harness.h"

#include <unistd.h>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <typeinfo>

#include "models/common/error.h"

namespace gputlm::fuzz {

int guarded(const uint8_t* data, size_t size, const std::function<void(const std::string&)>& read) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    read(text);
  } catch (const InputError&) {
    // bad input, reported cleanly: the expected outcome
  } catch (const std::exception& e) {
    std::fprintf(stderr, "fuzz finding: uncaught %s: %s\n", typeid(e).name(), e.what());
    std::abort();
  }
  return 0;
}

namespace {
// Owns the scratch directory: made on first use, removed at exit.
struct ScratchDir {
  ScratchDir() {
    path = (std::filesystem::temp_directory_path() / ("gputlm-fuzz-" + std::to_string(::getpid())))
               .string();
    std::filesystem::create_directories(path);
  }
  ~ScratchDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
  std::string path;
};
}  // namespace

const std::string& scratch_dir() {
  static const ScratchDir dir;
  return dir.path;
}

void write_file(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
}

}  // namespace gputlm::fuzz

// libsystemc, which the library links, calls sc_main from its own main(); a fuzz target's main
// is libFuzzer's, so this is never called but must exist.
extern "C" int sc_main(int, char**) { return 0; }
