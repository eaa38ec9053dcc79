#include "models/vgiw/vgiw_core.h"

#include <sstream>

#include "models/common/error.h"

namespace gputlm::vgiw {

VgiwCore::VgiwCore(sc_core::sc_module_name name, const VgiwSpec& spec, uint32_t core_id,
                   double reference_mhz, bool sgmf)
    : CoreModule(name),
      m_spec(spec),
      m_id(core_id),
      m_sgmf(sgmf),
      m_fabric(spec.grid_width, spec.grid_height, spec.units),
      m_clock(spec.clock_mhz, reference_mhz) {
  m_bbs = std::make_unique<BasicBlockScheduler>("bbs", spec, reference_mhz);
  m_cgrf = std::make_unique<MtCgrf>("cgrf", spec, m_fabric, core_id, reference_mhz);
  m_l1d = std::make_unique<mem::Cache>("l1d", spec.l1d, reference_mhz);
  m_lvc = std::make_unique<mem::Cache>("lvc", spec.lvc, reference_mhz);
  m_bbs->to_fabric.socket.bind(m_cgrf->from_scheduler.socket);
  m_cgrf->to_scheduler.socket.bind(m_bbs->from_fabric.socket);
  for (uint32_t i = 0; i < spec.l1d.ports; ++i)
    m_cgrf->l1_port(i).socket.bind(m_l1d->port(i).socket);
  for (uint32_t i = 0; i < spec.lvc.ports; ++i)
    m_cgrf->lvc_port(i).socket.bind(m_lvc->port(i).socket);
  m_bbs->on_tile_done = [this] { tile_done(); };
  m_bbs->reconfiguration_counter = &m_counters.fabric.reconfiguration_cycles;
  MtCgrf::Hooks h;
  h.config = [this](uint32_t s) -> const BlockConfig& { return config(s); };
  h.fault = [this](const std::string& m) { report_fault(m); };
  h.counters = &m_counters;
  m_cgrf->set_hooks(std::move(h));
  SC_METHOD(start_tile);
  sensitive << m_start;
  dont_initialize();
  m_stats.counter("tiles", m_tiles, "count", "tiles run on this core");
  m_stats.counter("ctas", m_ctas, "count", "CTAs run on this core");
  if (sgmf)
    m_stats.counter("tiles_as_vgiw", m_tiles_as_vgiw, "count",
                    "tiles of kernels SGMF could not map, run as VGIW blocks (vgiw.sgmf_unmapped)");
  m_stats.counter("thread_instructions", m_counters.thread_instructions, "count",
                  "instructions executed by threads (guard held)");
}

FabricMapping map_for_core(const isa::Kernel& kernel, const VgiwSpec& spec, bool sgmf,
                           const std::function<void(const std::string&)>& warn) {
  FabricMapping m;
  try {
    if (sgmf) {
      try {
        m.sgmf = std::make_unique<SgmfMap>(map_kernel_sgmf(kernel, spec.units, spec.statics));
        m.map = m.sgmf->blocks;
      } catch (const std::invalid_argument& e) {
        if (!spec.sgmf_unmapped_as_vgiw) throw;
        if (warn) warn(std::string(e.what()) + ": run as VGIW blocks (vgiw.sgmf_unmapped: vgiw)");
      }
    }
    if (!m.sgmf) m.map = map_kernel(kernel, spec.units, spec.statics);
  } catch (const std::invalid_argument& e) {
    throw InputError("kernel '" + kernel.name + "' cannot run on the " + fabric_core_name(sgmf) +
                     " core: " + e.what());
  }
  return m;
}

const KernelMap& VgiwCore::kernel_map(const isa::Kernel& kernel) const {
  return mapped(kernel).map;
}

VgiwCore::Mapped& VgiwCore::mapped(const isa::Kernel& kernel) const {
  auto it = m_mapped.find(&kernel);
  if (it != m_mapped.end()) return *it->second;
  auto m = std::make_unique<Mapped>();
  static_cast<FabricMapping&>(*m) =
      map_for_core(kernel, m_spec, m_sgmf, [this](const std::string& w) {
        if (m_id == 0) SC_REPORT_WARNING(name(), w.c_str());
      });
  m->configs.resize(m->scheduled_blocks());
  return *m_mapped.emplace(&kernel, std::move(m)).first->second;
}

uint32_t VgiwCore::ctas_per_tile(const func::Launch& launch) const {
  const Mapped& mapping = mapped(*launch.kernel);
  const KernelMap& map = mapping.map;
  const uint32_t per_cta = launch.threads_per_cta();
  const uint32_t blocks = mapping.scheduled_blocks();
  uint32_t tile;
  try {
    tile = tile_threads(m_spec.cvt_bits, blocks, launch.grid.count() * uint64_t{per_cta});
  } catch (const std::invalid_argument& e) {
    throw InputError("kernel '" + launch.kernel->name + "' on the " + fabric_core_name(m_sgmf) +
                     " core: " + e.what() + " (vgiw.cvt_bits)");
  }
  tile = std::min(tile, m_spec.max_threads_per_tile);
  if (m_spec.tile_fits_lvc) {
    uint64_t per_thread = 0;
    for (uint32_t w : map.live.bytes) per_thread += w;
    if (per_thread)
      tile = static_cast<uint32_t>(std::min<uint64_t>(
          tile, std::max<uint64_t>(m_spec.lvc.size_bytes / per_thread, per_cta)));
  }
  if (per_cta > tile)
    throw InputError(
        "kernel '" + launch.kernel->name + "' on the " + fabric_core_name(m_sgmf) +
        " core: a CTA of " + std::to_string(per_cta) + " threads does not fit a tile of " +
        std::to_string(tile) + " threads (" + std::to_string(blocks) +
        " blocks in a control vector table of vgiw.cvt_bits = " + std::to_string(m_spec.cvt_bits) +
        ")");
  return tile / per_cta;
}

bool VgiwCore::can_take(const func::Launch& launch) const {
  return !m_tile && m_forming.size() < ctas_per_tile(launch);
}

void VgiwCore::start_cta(const func::BoundKernel& kernel, const func::Launch& launch,
                         uint64_t cta_id, std::shared_ptr<func::ClusterState> /*cluster*/) {
  if (m_forming.empty())
    m_start.notify(sc_core::SC_ZERO_TIME);  // once the dispatcher's pass is over
  m_kernel = &kernel;
  m_launch = &launch;
  m_forming.push_back(cta_id);
}

void VgiwCore::start_tile() {
  if (m_forming.empty() || m_tile) return;
  Mapped* m = &mapped(m_kernel->kernel());
  if (m != m_current) m_bbs->forget_configuration();
  m_current = m;
  m_tile_ctas.swap(m_forming);  // m_forming takes the empty list tile_done left
  m_tile = std::make_unique<Tile>(*m_kernel, *m_launch, m_current->map, m_tile_ctas, m_id);
  m_cgrf->set_tile(m_tile.get());
  ++m_tiles;
  m_tiles_as_vgiw += m_sgmf && !m_current->sgmf;
  m_tile_start = m_clock.now();
  m_bbs->start_tile(m_current->scheduled_blocks(), m_tile->threads());
}

void VgiwCore::tile_done() {
  std::vector<uint64_t> done;
  done.swap(m_tile_ctas);
  m_tile.reset();
  m_counters.active_cycles += m_clock.now() - m_tile_start;
  for (size_t i = 0; i < done.size(); ++i) {
    ++m_counters.ctas_done;
    ++m_ctas;
    if (on_cta_done) on_cta_done(m_id);
  }
}

const BlockConfig& VgiwCore::config(uint32_t segment) {
  std::unique_ptr<BlockConfig>& c = m_current->configs.at(segment);
  if (!c)
    c = std::make_unique<BlockConfig>(
        m_current->sgmf
            ? configure_sgmf(m_kernel->kernel(), *m_current->sgmf, m_fabric, m_spec)
            : configure_block(m_kernel->kernel(), m_current->map, segment, m_fabric, m_spec));
  return *c;
}

void VgiwCore::report_fault(const std::string& message) {
  if (m_fault.empty()) m_fault = message;
  sc_core::sc_stop();
}

std::string VgiwCore::dump() const {
  std::ostringstream os;
  os << name() << ": "
     << (m_tile ? std::to_string(m_tile->threads()) + "-thread tile" : std::string("no tile"))
     << "; bbs " << m_bbs->dump() << "; cgrf " << m_cgrf->dump() << "; l1d " << m_l1d->dump()
     << "; lvc " << m_lvc->dump() << "\n";
  return os.str();
}

}  // namespace gputlm::vgiw
