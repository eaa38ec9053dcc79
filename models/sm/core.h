// A SIMT core (an NVIDIA SM / the papers' "GPU core"): warp and CTA slots, the pipeline stages
// fetch -> decode -> register read -> execute -> memory -> writeback as SC_MODULEs linked by TLM
// sockets with back-pressure (decode, read and execute once per processing block:
// processing_block.h), run by the core's one SC_METHOD (see activate), an I-cache and an L1
// data cache (mem::Cache modules) whose misses leave through two TLM sockets toward the
// interconnect. The GPU's CTA dispatcher asks whether a CTA fits (threads, warps, registers, shared
// memory, CTA slots) and starts it; the core reports when a CTA finishes.
#pragma once

#include <array>
#include <functional>
#include <memory>
#include <systemc>

#include "models/common/clocked_module.h"
#include "models/common/shared_edges.h"
#include "models/common/stats.h"
#include "models/common/waves.h"
#include "models/core/core_module.h"
#include "models/mem/cache/cache.h"
#include "models/sm/carveout.h"
#include "models/sm/core_context.h"
#include "models/sm/fetch/fetch_stage.h"
#include "models/sm/memory/memory_stage.h"
#include "models/sm/processing_block.h"
#include "models/sm/writeback/writeback_stage.h"

namespace gputlm::sm {

class Core : public ClockedModule<core::CoreModule> {
 public:
  Core(sc_core::sc_module_name name, const CoreSpec& spec, uint32_t core_id, double reference_mhz);

  // Whether a CTA of `launch` fits in the free resources now.
  void check_kernel(const isa::Kernel& kernel) const override;
  // A unified core (CoreSpec::unified_l1_shared_bytes) splits its array for the launch
  // (sm/carveout.h): the shared capacity room() allows and the L1's ways (set_ways).
  void prepare_launch(const func::Launch& launch, uint32_t cores) override;
  const Carveout& carveout() const { return m_carveout; }
  bool can_take(const func::Launch& launch) const override;
  uint32_t room(const func::Launch& launch) const override;
  void start_cta(const func::BoundKernel& kernel, const func::Launch& launch, uint64_t cta_id,
                 std::shared_ptr<func::ClusterState> cluster) override;
  bool idle() const override { return m_ctas_resident == 0; }
  bool lets_system_run_ahead() const override;
  // Its fetch and stall cycles count the cycles of a launch.
  void begin_launch() override { m_fetch->begin_accounting(m_ctx.clock.now()); }
  void end_launch() override { m_fetch->end_accounting(m_ctx.clock.now()); }
  const std::string& fault() const override { return m_ctx.fault; }
  void report_fault(const std::string& message) override { m_ctx.report_fault(message); }
  const CoreContext& context() const { return m_ctx; }
  std::string dump() const override;
  std::string intra_warp_wait() const override;
  const core::CoreCounters& counters() const override { return m_ctx.counters; }
  void add_uncharged_stalls(Cycle now, std::vector<uint64_t>& stalls) const override {
    m_fetch->add_uncharged(now, stalls);
  }
  uint64_t progress() const override { return m_ctx.counters.warp_instructions; }
  mem::InitiatorEnd& memory_port(uint32_t i) override {
    return i == 0 ? m_l1i->downstream : m_l1d->downstream;
  }

  // Cycles the core ran ahead of the kernel (Core::activate), over its life: a measure of the
  // speed-up, not a statistic.
  uint64_t cycles_run_ahead() const { return m_cycles_ahead; }
  // I-cache hits served without the link's round trip (FetchStage::take_idle_hits_from), likewise.
  uint64_t idle_icache_hits() const { return m_fetch->idle_hits(); }
  mem::Cache& l1i() { return *m_l1i; }
  mem::Cache& l1d() { return *m_l1d; }

  void prepare_waves() override;
  void declare_waves(WaveList& waves) const override;
  void flush_caches() override;  // the L1 data, instruction and constant caches

 private:
  // Runs cycles ahead of the kernel while it may (may_run_ahead), one cycle() each.
  void activate() override;
  Cycle cycle(Cycle now) override;  // one cycle of the pipeline; returns the next cycle it must run
  bool may_run_ahead(Cycle next);
  // Whether every stage runs every cycle (the verification aids run_every_cycle and
  // poll_every_cycle).
  bool polled() const {
    return (m_ctx.spec.run_every_cycle && m_ctas_resident > 0) || m_ctx.wake.polling();
  }
  void finish_cta(uint32_t slot);
  void sample_waves();

  CoreContext m_ctx;
  std::unique_ptr<FetchStage> m_fetch;
  std::unique_ptr<BlockStages> m_own_block;                       // one block: the core's stages
  std::vector<std::unique_ptr<ProcessingBlock>> m_block_modules;  // more: a module each
  std::vector<BlockStages*> m_blocks;                             // per block
  std::unique_ptr<MemoryStage> m_memory;
  std::unique_ptr<WritebackStage> m_writeback;
  std::unique_ptr<mem::Cache> m_l1i, m_l1d;
  std::vector<Stage*> m_stages;  // last stage first: the order cycle() runs them in
  // Per stage (as m_stages, whose order is also that of their bits in CoreContext::poked_stages):
  // the cycle its last run asked for and whether it is a news source; side by side, so that a
  // cycle's look at every stage touches a stage only when it runs.
  std::vector<Cycle> m_stage_due;
  std::vector<uint8_t> m_stage_news;
  Cycle m_next = kNever;  // the earliest cycle a stage asked to run again
  Cycle m_ran = kNever;   // the last cycle every stage ran in
  Carveout m_carveout;    // the split of the launch running (fixed when not unified)
  // The carve-out statistics (unified cores only): the launch's (over the run: the largest).
  uint64_t m_stat_shared_carveout = 0, m_stat_l1d_bytes = 0;
  uint32_t m_threads_used = 0, m_warps_used = 0, m_registers_used = 0, m_shared_used = 0,
           m_ctas_resident = 0;
  Cycle m_threads_since = 0;      // when m_threads_used last changed (for resident_thread_cycles)
  void count_resident_threads();  // adds m_threads_used x the cycles since it last changed
  uint64_t m_next_age = 0;
  uint32_t m_ctas_started = 0;  // CTAs started over the core's life ("rotate" warp placement)
  uint32_t free_warp_slot(uint32_t turn) const;  // see core.cpp
  uint32_t m_replay_ctas = 0;   // resident CTAs of a launch whose trace decides the warps' paths
  uint64_t m_cycles_ahead = 0;  // see cycles_run_ahead
  // may_run_ahead's memo of the kernel's pending activity: the time value of the earliest, as
  // asked in this run of activate() when the core's Wakeup had been asked m_pending_asks times.
  uint64_t m_pending_at = 0;
  uint64_t m_pending_asks = ~uint64_t{0};
  // Waves: per warp slot PC, active mask and state; sampled when warps change.
  std::vector<uint64_t> m_wave_pc, m_wave_mask, m_wave_state;  // m_wave_mask: rows() per slot
  size_t traced_slots() const;
  std::string mask_wave(size_t row) const;
};

}  // namespace gputlm::sm
