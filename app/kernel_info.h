// What `gputlm list --kernels` shows of a workload's kernels: basic blocks of the control flow
// graph, and how the VGIW mapper cuts and fits them (segments, live values, replicas), or why it
// cannot map one; with the VGIW core's default reading of kernel parameters and coordinates; and
// whether the whole kernel fits the grid as one SGMF graph.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace gputlm::app {

struct KernelInfo {
  std::string name;
  size_t instructions = 0;
  size_t basic_blocks = 0;
  // VGIW mapping (empty vgiw_error: mapped).
  size_t segments = 0, live_values = 0, min_replicas = 0;
  size_t static_instructions =
      0;  // kernel parameters and coordinates: no unit (mapper/static_operands.h)
  // Per unit type, the segments whose replicas it bounds (the type that runs out first).
  std::map<std::string, size_t> replicas_bound_by;
  // A segment's peak: its instructions x replicas, the thread instructions a cycle when every
  // initiator starts a thread each cycle; the median over segments with instructions.
  double median_peak = 0;
  std::string vgiw_error;
  // SGMF mapping (mapper/sgmf_map.h): the whole kernel's units and replicas, or why it does not
  // fit.
  size_t sgmf_units = 0, sgmf_replicas = 0;
  std::string sgmf_error;
};

// The kernels of <workload_dir>/kernel.ptx; throws InputError for bad PTX.
std::vector<KernelInfo> kernel_info(const std::string& workload_dir);

}  // namespace gputlm::app
