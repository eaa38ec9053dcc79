// The whole GPU, built from a GpuSpec: N cores of the configured type (SIMT cores with their
// I-cache and L1 data cache, or VGIW cores with their live value cache and L1), the
// interconnect (two input ports per core), the memory partitions (an L2 slice if configured, and a
// DRAM channel), a CTA dispatcher that places CTAs on cores within their thread, warp, register,
// shared-memory and CTA-count limits (round-robin over cores, as many as fit, or one a core every
// cta_dispatch_interval cycles; the first after launch_latency cycles), and a watchdog that
// stops a run which has retired nothing for watchdog_cycles and reports what each module holds.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <systemc>
#include <vector>

#include "models/common/shared_edges.h"
#include "models/common/stats.h"
#include "models/core/core_module.h"
#include "models/gpu/gpu_spec.h"
#include "models/mem/cache/cache.h"
#include "models/mem/dram/dram_controller.h"
#include "models/mem/xbar/xbar.h"

namespace gputlm::gpu {

struct LaunchTiming {
  Cycle start = 0;
  Cycle cycles = 0;  // first CTA dispatched to last CTA finished, in core cycles
  Cycle end = 0;  // the core edge the launch ended at (its requests drained): the next one's start
  bool stopped =
      false;  // the stop check ended the launch early: cycles up to the stop, CTAs unfinished
};

class Gpu : public sc_core::sc_module, public StatProvider {
 public:
  SC_HAS_PROCESS(Gpu);
  Gpu(sc_core::sc_module_name name, const GpuSpec& spec);
  ~Gpu() override;

  // Runs one launch to completion (simulation time continues across launches). Throws
  // func::KernelFault if the kernel faults and std::runtime_error if the run stops making progress.
  // A launch ends at the first core edge after its last CTA finished at which no module has a
  // request out (mem::RequestMaker: the stores and write-backs still on their way have drained);
  // the next launch starts there. Looked for between single core cycles of simulation, when no
  // process runs, so no module's extra wake-up (one with nothing to do, which polled runs make
  // more of) can move it; those still pending run in the next launch, with nothing to do there
  // either.
  LaunchTiming run(const func::BoundKernel& kernel, const func::Launch& launch);
  // Asked every kStopCheckCycles of simulated time during run(): true ends the launch there
  // (LaunchTiming::stopped); the GPU then holds unfinished CTAs and cannot run another launch.
  // The simulation runs in slices of that length, which changes no process's order or timing.
  void set_stop_check(std::function<bool()> check) { m_stop_check = std::move(check); }
  static constexpr Cycle kStopCheckCycles = 4096;
  // Calls `sample(cycle)` between slices of simulation, at every multiple of `every` core cycles
  // while a launch has CTAs unfinished (every = 0: never). Nothing runs while it reads, so what it
  // reads does not depend on the order of processes; the slices change no process's order or
  // timing.
  void set_sampling(Cycle every, std::function<void(Cycle)> sample) {
    m_sample_every = every;
    m_sample = std::move(sample);
  }

  const GpuSpec& spec() const { return m_spec; }
  const std::vector<std::unique_ptr<core::CoreModule>>& cores() const { return m_cores; }
  const ClockDomain& clock() const { return m_clock; }
  // Every DRAM request served from now on is written to `log` (nullptr: none).
  void set_dram_log(mem::DramRequestLog* log) {
    for (uint32_t m = 0; m < m_dram.size(); ++m) m_dram[m]->set_request_log(log, m);
  }
  // What every core, cache and DRAM controller holds (the watchdog's dump).
  std::string dump() const;
  // Empties every cache (the cores' and the L2's) between launches, as Nsight Compute does
  // before each kernel it measures (--cache-control all, its default): the next launch starts
  // cold. Not while a launch runs.
  void flush_caches() {
    for (const auto& c : m_cores) c->flush_caches();
    for (const auto& l2 : m_l2) l2->flush();
  }

 private:
  // Runs the simulation (in slices when a stop check is set) until nothing is left to do; true
  // if the stop check ended it.
  bool simulate();
  // After the last CTA: core cycles until no request is out (drained()), or the watchdog's limit.
  void drain();
  bool drained() const;
  void dispatch();
  void dispatch_clusters();
  void watchdog();
  void run_edges() { m_edges.dispatch(); }
  uint64_t retired() const;

  GpuSpec m_spec;
  ClockDomain m_clock;
  SharedEdges m_edges;  // with several cores, every clocked module's timed wake-ups: one order for
                        // modules due together
  std::vector<std::unique_ptr<core::CoreModule>> m_cores;
  std::unique_ptr<mem::Xbar> m_xbar;
  std::vector<std::unique_ptr<mem::Cache>> m_l2;
  std::vector<std::unique_ptr<mem::DramController>> m_dram;
  std::vector<const mem::RequestMaker*> m_request_makers;  // every module below that makes requests
  sc_core::sc_event m_dispatch_event, m_watchdog_event;

  const func::BoundKernel* m_kernel = nullptr;
  const func::Launch* m_launch = nullptr;
  uint64_t m_next_cta = 0, m_ctas_done = 0, m_cta_count = 0;
  uint32_t m_next_core = 0;
  Cycle m_dispatch_from = 0;              // the launch's first dispatch (launch_latency)
  std::vector<Cycle> m_core_dispatch_at;  // per core: its next CTA's earliest start
  bool m_running = false;
  uint64_t m_horizon = 0;  // where the running sc_start ends (core::CoreModule::horizon)
  bool m_polling =
      false;  // spec.poll_every_cycle while a launch has CTAs unfinished (Pollable modules read it)
  Cycle m_last_done = 0;
  uint64_t m_watch_retired = 0;
  uint64_t m_launch_retired = 0;  // retired() when the launch began
  std::string m_stall;            // set by the watchdog
  std::function<bool()> m_stop_check;
  Cycle m_sample_every = 0;
  std::function<void(Cycle)> m_sample;

  uint64_t m_cycles = 0, m_launches = 0;
};

}  // namespace gputlm::gpu
