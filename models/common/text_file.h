// A whole file read into a string: the one way every reader here (PTX, configs, launch
// descriptions, sweep records, hardware tables, manifests) takes its input, each then saying in
// its own words what could not be read.
#pragma once

#include <fstream>
#include <sstream>
#include <string>

namespace gputlm {

// The file at `path` into `text`; false (and `text` untouched) if it cannot be opened.
inline bool read_text_file(const std::string& path, std::string& text) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::stringstream s;
  s << in.rdbuf();
  text = s.str();
  return true;
}

}  // namespace gputlm
