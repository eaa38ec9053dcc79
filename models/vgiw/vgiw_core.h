// The VGIW core (Voitsechov & Etsion, Sec. 3, Fig. 4) in the GPU's core socket: the basic-block
// scheduler with its control vector table, the MT-CGRF fabric, a banked write-back L1 reached by
// the load/store units, and the live value cache reached by the live-value units (backed by L2
// through port 0, where the SIMT core has its I-cache). When a kernel is loaded the mapper
// (mapper/kernel_map.h) partitions it into blocks and segments with live-value IDs; each
// segment's placement is built when the fabric first needs it. The core runs CTAs in tiles: it
// takes as many consecutive CTAs as the control vector table holds (Sec. 3.2's tile-size rule),
// runs them until every thread has exited, reports them done, and takes the next tile.
// With `sgmf` it is the SGMF core the VGIW paper compares against (mapper/sgmf_map.h): the same
// fabric, caches and scheduler, but the whole kernel is one configuration, loaded once, that every
// thread flows through; the scheduler sees a single block, and no live value cache is used.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "models/core/core_module.h"
#include "models/mem/cache/cache.h"
#include "models/vgiw/basic_block_scheduler.h"
#include "models/vgiw/cgrf/mt_cgrf.h"

namespace gputlm::vgiw {

// A kernel as a fabric core runs it: VGIW's blocks and segments, and for SGMF the one graph
// (null when the kernel runs as VGIW blocks: a VGIW core, or vgiw.sgmf_unmapped = vgiw).
struct FabricMapping {
  KernelMap map;  // SGMF: its per-block segments (sgmf->blocks)
  std::unique_ptr<SgmfMap> sgmf;
  // Blocks the basic-block scheduler sees: SGMF's one configuration, or VGIW's segments.
  uint32_t scheduled_blocks() const {
    return sgmf ? 1 : static_cast<uint32_t>(map.segments.size());
  }
};
// "SGMF" or "VGIW", as messages name the core.
inline const char* fabric_core_name(bool sgmf) { return sgmf ? "SGMF" : "VGIW"; }
// Throws InputError naming the kernel and the core when it cannot map (checked before a run starts
// too: app/timing_run.cpp). `warn`: where an SGMF kernel that runs as VGIW blocks is reported.
FabricMapping map_for_core(const isa::Kernel& kernel, const VgiwSpec& spec, bool sgmf,
                           const std::function<void(const std::string&)>& warn = {});

class VgiwCore : public core::CoreModule {
 public:
  SC_HAS_PROCESS(VgiwCore);
  VgiwCore(sc_core::sc_module_name name, const VgiwSpec& spec, uint32_t core_id,
           double reference_mhz, bool sgmf = false);

  // Throws InputError when the kernel cannot map onto the fabric or a CTA does not fit a tile.
  bool can_take(const func::Launch& launch) const override;
  void check_kernel(const isa::Kernel& kernel) const override { mapped(kernel); }
  // A cluster's CTAs run as any others: the fabric compiler refuses the cluster instructions
  // (barrier.cluster, mapa, getctarank), so its CTAs never meet.
  void start_cta(const func::BoundKernel& kernel, const func::Launch& launch, uint64_t cta_id,
                 std::shared_ptr<func::ClusterState> cluster) override;
  bool idle() const override { return !m_tile && m_forming.empty(); }
  const std::string& fault() const override { return m_fault; }
  void report_fault(const std::string& message) override;
  std::string dump() const override;
  const core::CoreCounters& counters() const override { return m_counters; }
  uint64_t progress() const override { return m_counters.thread_instructions; }
  mem::InitiatorEnd& memory_port(uint32_t i) override {
    return i == 0 ? m_lvc->downstream : m_l1d->downstream;
  }

  // The mapping of a kernel (made on first use).
  const KernelMap& kernel_map(const isa::Kernel& kernel) const;
  // CTAs of `launch` a tile holds.
  uint32_t ctas_per_tile(const func::Launch& launch) const;

  void declare_waves(WaveList&) const override {}  // its scheduler and fabric have the waves

 private:
  struct Mapped : FabricMapping {
    std::vector<std::unique_ptr<BlockConfig>> configs;  // by segment, built on first use
  };
  Mapped& mapped(const isa::Kernel& kernel) const;  // made on first use
  void start_tile();
  void tile_done();
  const BlockConfig& config(uint32_t segment);

  VgiwSpec m_spec;
  uint32_t m_id;
  bool m_sgmf;
  Fabric m_fabric;
  std::unique_ptr<BasicBlockScheduler> m_bbs;
  std::unique_ptr<MtCgrf> m_cgrf;
  std::unique_ptr<mem::Cache> m_l1d, m_lvc;
  mutable std::map<const isa::Kernel*, std::unique_ptr<Mapped>> m_mapped;
  sc_core::sc_event m_start;

  const func::BoundKernel* m_kernel = nullptr;
  const func::Launch* m_launch = nullptr;
  Mapped* m_current = nullptr;
  std::vector<uint64_t> m_forming;  // CTAs of the next tile
  std::unique_ptr<Tile> m_tile;
  std::vector<uint64_t> m_tile_ctas;
  Cycle m_tile_start = 0;
  ClockDomain m_clock;
  std::string m_fault;
  core::CoreCounters m_counters;
  uint64_t m_tiles = 0, m_ctas = 0, m_tiles_as_vgiw = 0;
};

}  // namespace gputlm::vgiw
