// The socket a core type plugs into (docs/design/architecture.md: a whole module is swappable where
// its structure differs): the SIMT core (sm::Core) and the VGIW core (vgiw::VgiwCore) are both a
// CoreModule, chosen by the config's "core". The GPU's CTA dispatcher asks a core whether a CTA
// fits and starts it there; the core reports each finished CTA. Every core has two memory ports
// toward the interconnect with fixed roles: port 0 the instruction side (the SIMT I-cache; the
// VGIW live value cache) and port 1 the data side (the L1 data cache).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <systemc>

#include "models/common/clock.h"
#include "models/common/stats.h"
#include "models/common/waves.h"
#include "models/core/core_counters.h"
#include "models/func/bound_kernel.h"
#include "models/func/cluster_state.h"
#include "models/mem/tlm_ends.h"

namespace gputlm::core {

class CoreModule : public sc_core::sc_module, public StatProvider, public WaveProvider {
 public:
  static constexpr uint32_t kMemoryPorts = 2;

  explicit CoreModule(sc_core::sc_module_name name) : sc_module(name) {}

  // Throws InputError naming what this core cannot run in `kernel` (asked before a launch
  // simulates, outside any SystemC process).
  virtual void check_kernel(const isa::Kernel& kernel) const { (void)kernel; }
  // Sets up what `launch` configures before its CTAs are placed, on a GPU of `cores` cores (the
  // SIMT core's L1/shared carve-out, sm/carveout.h): called first for each launch, before
  // can_take and room, while nothing of an earlier launch is in flight.
  virtual void prepare_launch(const func::Launch& launch, uint32_t cores) {
    (void)launch, (void)cores;
  }
  // Whether a CTA of `launch` can start now, and how many can (a cluster's CTAs start together).
  virtual bool can_take(const func::Launch& launch) const = 0;
  virtual uint32_t room(const func::Launch& launch) const { return can_take(launch) ? 1 : 0; }
  // Starts CTA `cta_id` of `launch` (can_take must hold), a CTA of `cluster` when the launch has
  // clusters (null otherwise).
  virtual void start_cta(const func::BoundKernel& kernel, const func::Launch& launch,
                         uint64_t cta_id, std::shared_ptr<func::ClusterState> cluster) = 0;
  // Called (with this core's id) whenever a CTA finishes.
  std::function<void(uint32_t core)> on_cta_done;
  // The kernel time (its value) at which the running sc_start returns, set by the GPU before each;
  // a core that runs cycles ahead of the kernel (sm::Core) stops short of it. Null: never ahead.
  const uint64_t* horizon = nullptr;
  virtual bool idle() const = 0;
  // Whether the GPU's clocked modules may run ahead of the kernel (SharedEdges) now: nothing of
  // the core's needs the kernel's time (no CTA about to finish, no fault, no waves).
  virtual bool lets_system_run_ahead() const { return false; }
  // Empties the core's caches (gpu::Gpu::flush_caches), between launches only.
  virtual void flush_caches() {}
  // A launch starts and ends now (for the counters that cover the cycles in between).
  virtual void begin_launch() {}
  virtual void end_launch() {}
  // The first kernel fault ("" if none); report_fault stops the simulation with one.
  virtual const std::string& fault() const = 0;
  virtual void report_fault(const std::string& message) = 0;
  // What the core holds, for the watchdog's dump.
  virtual std::string dump() const = 0;
  // For the watchdog: a warp whose lanes wait below its looping top path in the SIMT stack under
  // the "stack" reconvergence policy (func/intra_warp_wait.h), or "" (none, or no SIMT stacks).
  virtual std::string intra_warp_wait() const { return ""; }
  // The run-level counters (a core type without warps leaves the warp ones at zero).
  virtual const CoreCounters& counters() const = 0;
  // Adds the stall cycles before `now` not yet in counters().simt.stall_cycles (a core that sleeps
  // charges them when it wakes); for readings between slices of simulation (app::Sampler).
  virtual void add_uncharged_stalls(Cycle now, std::vector<uint64_t>& stalls) const {
    (void)now, (void)stalls;
  }
  // Instructions retired so far, in the core's own unit (warp instructions on the SIMT core,
  // thread instructions on VGIW): the watchdog's measure of progress.
  virtual uint64_t progress() const = 0;
  // Memory port `i` (< kMemoryPorts), bound by the GPU to the interconnect.
  virtual mem::InitiatorEnd& memory_port(uint32_t i) = 0;
};

}  // namespace gputlm::core
