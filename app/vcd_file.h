// A VCD trace file plus the GTKWave save file written next to it: signals grouped per module
// (the groups a user looks at first open, the rest collapsed to their titles), hex display, value
// names through translate filter files, opened at a zoom where single cycles are readable.
// Time: one reference-clock cycle is 1 ns of simulation time; the VCD's time unit is 1 ns when
// every clock edge falls on a whole nanosecond, else the largest of 100, 10 or 1 ps that holds
// every edge (vcd_unit_ps), so no change is ever written at a rounded time.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "models/common/waves.h"

namespace sc_core {
class sc_trace_file;
}

namespace gputlm::app {

using gputlm::WaveGroup;
using gputlm::WaveSignal;

class VcdFile {
 public:
  // `path` ends in .vcd; SystemC appends the extension itself, so it is stripped here. Creates
  // the file's directory; InputError when the file cannot be written.
  explicit VcdFile(const std::string& path, uint64_t unit_ps = 1000);
  ~VcdFile();
  VcdFile(const VcdFile&) = delete;
  VcdFile& operator=(const VcdFile&) = delete;

  sc_core::sc_trace_file* file() const { return m_tf; }
  const std::string& path() const { return m_path; }
  // VCD time units per reference cycle (1000 / unit_ps).
  uint64_t units_per_cycle() const { return 1000 / m_unit_ps; }
  // Writes <path without .vcd>.gtkw referring to the VCD by file name (no directories), opening
  // at cycle `start` with about `visible_cycles` cycles in view, and a translate filter file
  // <stem>.<names id>.txt beside it for each kind of named values the groups show.
  void write_save_file(const std::vector<WaveGroup>& groups, unsigned visible_cycles = 80,
                       uint64_t start = 0) const;
  // Closes the VCD and keeps only cycles [from, to] of it (to: the run's last cycle, or earlier);
  // the file then ends with the timestamp of `to`.
  void close(uint64_t from_cycle, uint64_t to_cycle);

 private:
  std::string m_path;
  uint64_t m_unit_ps;
  sc_core::sc_trace_file* m_tf = nullptr;
};

// The largest VCD time unit of 1000, 100, 10 and 1 ps that divides every clock period (ps).
uint64_t vcd_unit_ps(const std::vector<uint64_t>& periods_ps);

// Switches on the waves (start_waves) of every module below the top-level objects that describes
// them (WaveProvider) and whose name starts with `scope` (all if empty); returns their groups for
// the save file. InputError when a scope matches no module: the message lists the scopes there are.
std::vector<WaveGroup> trace_all(VcdFile& vcd, const std::string& scope = "");

// Keeps only the window [from, to] (in VCD time units) of a finished VCD file: the values at
// `from` are written as the initial dump, later changes up to `to` follow, and the file ends with
// the timestamp `to`. Streams the file.
void clip_vcd(const std::string& path, uint64_t from, uint64_t to);

}  // namespace gputlm::app
