// A VCD trace file whose time unit is one clock period (1 ns = 1 cycle in every gputlm
// simulation), plus the GTKWave save file written next to it: signals grouped per module, hex
// display, opened at a zoom where single cycles are readable.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "models/common/waves.h"

namespace sc_core {
class sc_trace_file;
}

namespace gputlm::tb {

using gputlm::WaveGroup;
using gputlm::WaveSignal;

class VcdFile {
 public:
  // `path` ends in .vcd; SystemC appends the extension itself, so it is stripped here.
  explicit VcdFile(const std::string& path);
  ~VcdFile();
  VcdFile(const VcdFile&) = delete;
  VcdFile& operator=(const VcdFile&) = delete;

  sc_core::sc_trace_file* file() const { return m_tf; }
  const std::string& path() const { return m_path; }
  // Writes <path without .vcd>.gtkw referring to the VCD by file name (no directories), opening
  // at time `start` with about `visible_cycles` cycles in view.
  void write_save_file(const std::vector<WaveGroup>& groups, unsigned visible_cycles = 80, uint64_t start = 0) const;

 private:
  std::string m_path;
  sc_core::sc_trace_file* m_tf = nullptr;
};

// Calls trace() on every module below the top-level objects that describes its waves
// (WaveProvider) and whose name starts with `scope` (all if empty); returns their groups for the
// save file.
std::vector<WaveGroup> trace_all(VcdFile& vcd, const std::string& scope = "");

// Keeps only the window [from, to] (in VCD time units, cycles) of a finished VCD file: the values
// at `from` are written as the initial dump, later changes up to `to` follow. Streams the file.
void clip_vcd(const std::string& path, uint64_t from, uint64_t to);

}  // namespace gputlm::tb
