// The programs `gputlm validate` builds and runs: a JSON manifest, a list of objects
//   {"name": "vecadd", "sources": ["tests/cuda/vecadd.cu"], "nvcc_flags": ["-Itests/cuda"],
//    "args": ["4096"], "workdir": "."}
// `name` is the hardware CSV's Benchmark; sources, include folders in nvcc_flags and workdir are
// relative to the root (nvcc runs there). docs/user-guide/validation.md describes it.
#pragma once

#include <string>
#include <vector>

namespace gputlm::app {

struct ValidateProgram {
  std::string name;
  std::vector<std::string> sources;     // as written, relative to the root
  std::vector<std::string> nvcc_flags;  // extra flags, after -cudart shared -arch=sm_75
  std::vector<std::string> args;        // the program's arguments
  std::string workdir = ".";            // where it runs, relative to the root
};

// The programs of the manifest `text` read from `path`. InputError "<path>: ..." naming the
// program (by index and name) and the key for JSON that does not parse, a program that is not an
// object, a missing or empty name or sources, a name used twice or unfit for a file name, a key
// that is not one of the five, or a value of the wrong type.
std::vector<ValidateProgram> parse_manifest(const std::string& text, const std::string& path);

// The file at `path`, parsed; InputError when it cannot be read.
std::vector<ValidateProgram> read_manifest(const std::string& path);

}  // namespace gputlm::app
