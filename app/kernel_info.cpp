#include "app/kernel_info.h"

#include <algorithm>
#include <filesystem>
#include <stdexcept>

#include "models/isa/kernel.h"
#include "models/isa/ptx_parser.h"
#include "models/vgiw/mapper/kernel_map.h"
#include "models/vgiw/mapper/sgmf_map.h"

namespace gputlm::app {

std::vector<KernelInfo> kernel_info(const std::string& workload_dir) {
  const auto module =
      isa::parse_ptx_file((std::filesystem::path(workload_dir) / "kernel.ptx").string());
  std::vector<KernelInfo> out;
  for (const auto& k : module->kernels) {
    KernelInfo i;
    i.name = k->name;
    i.instructions = k->code.size();
    i.basic_blocks = k->cfg.blocks.size();
    try {
      const vgiw::KernelMap m = vgiw::map_kernel(*k);
      i.segments = m.segments.size();
      i.live_values = m.live.count;
      i.static_instructions = m.static_instructions;
      i.min_replicas =
          m.replicas.empty() ? 0 : *std::min_element(m.replicas.begin(), m.replicas.end());
      std::vector<double> peaks;
      for (size_t s = 0; s < m.segments.size(); ++s) {
        if (const int t = vgiw::scarcest_unit(m.graphs[s].need); t >= 0)
          ++i.replicas_bound_by[vgiw::unit_type_name(static_cast<vgiw::UnitType>(t))];
        if (m.segments[s].end > m.segments[s].begin)
          peaks.push_back(double(m.segments[s].end - m.segments[s].begin) * m.replicas[s]);
      }
      if (!peaks.empty()) {
        std::sort(peaks.begin(), peaks.end());
        const size_t h = peaks.size() / 2;
        i.median_peak = peaks.size() % 2 ? peaks[h] : (peaks[h - 1] + peaks[h]) / 2;
      }
    } catch (const std::invalid_argument& e) {
      i.vgiw_error = e.what();
    }
    try {
      const vgiw::SgmfMap s = vgiw::map_kernel_sgmf(*k);
      i.sgmf_units = s.graph.nodes.size();
      i.sgmf_replicas = s.replicas;
    } catch (const std::invalid_argument& e) {
      i.sgmf_error = e.what();
    }
    out.push_back(i);
  }
  return out;
}

}  // namespace gputlm::app
