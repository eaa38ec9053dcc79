#include "models/gpu/gpu.h"

#include <algorithm>
#include <sstream>
#include <stdexcept>

#include "models/common/error.h"
#include "models/func/kernel_fault.h"
#include "models/sm/core.h"
#include "models/vgiw/vgiw_core.h"

namespace gputlm::gpu {
namespace {
// Hands `flag` and `edges` (if any) to every Pollable module below `obj`: they join the edges in
// the order of the hierarchy (a module before the modules inside it).
void share_below(sc_core::sc_object& obj, const bool* flag, SharedEdges* edges) {
  for (sc_core::sc_object* child : obj.get_child_objects()) {
    if (auto* p = dynamic_cast<Pollable*>(child)) {
      p->poll_while(flag);
      if (edges) p->share_edges(*edges);
    }
    share_below(*child, flag, edges);
  }
}

void request_makers_below(const sc_core::sc_object& obj,
                          std::vector<const mem::RequestMaker*>& makers) {
  for (const sc_core::sc_object* child : obj.get_child_objects()) {
    if (auto* m = dynamic_cast<const mem::RequestMaker*>(child)) makers.push_back(m);
    request_makers_below(*child, makers);
  }
}
}  // namespace

Gpu::Gpu(sc_core::sc_module_name name, const GpuSpec& spec)
    : sc_module(name), m_spec(spec), m_clock(spec.core_clock_mhz(), spec.core_clock_mhz()) {
  const double ref = spec.core_clock_mhz();
  for (uint32_t c = 0; c < spec.cores; ++c) {
    const std::string n = "core" + std::to_string(c);
    if (spec.fabric_core())
      m_cores.push_back(
          std::make_unique<vgiw::VgiwCore>(n.c_str(), spec.vgiw, c, ref, spec.sgmf()));
    else
      m_cores.push_back(std::make_unique<sm::Core>(n.c_str(), spec.core, c, ref));
    m_cores.back()->horizon = &m_horizon;
    m_cores.back()->on_cta_done = [this](uint32_t) {
      ++m_ctas_done;
      m_last_done = m_clock.now();
      if (m_ctas_done == m_cta_count) {
        m_polling = false;
        for (auto& c : m_cores) c->end_launch();
        m_watchdog_event.cancel();  // the drain has its own limit
        sc_core::sc_pause();        // simulate() drains the launch's requests, a cycle at a time
      }
      m_dispatch_event.notify(sc_core::SC_ZERO_TIME);
    };
  }
  m_xbar = std::make_unique<mem::Xbar>(
      "xbar", spec.xbar, core::CoreModule::kMemoryPorts * spec.cores, spec.partitions, ref);
  for (uint32_t c = 0; c < spec.cores; ++c) {
    for (uint32_t p = 0; p < core::CoreModule::kMemoryPorts; ++p)
      m_cores[c]->memory_port(p).socket.bind(
          m_xbar->upstream(core::CoreModule::kMemoryPorts * c + p).socket);
  }
  for (uint32_t m = 0; m < spec.partitions; ++m) {
    if (spec.l2) {
      mem::CacheSpec l2 = *spec.l2;  // a slice of it: set_index "slice" needs the interleaving
      l2.slices = spec.partitions;
      l2.slice_run_bytes = spec.xbar.interleave_bytes;
      m_l2.push_back(std::make_unique<mem::Cache>(("l2_" + std::to_string(m)).c_str(), l2, ref));
    }
    mem::DramSpec dram = spec.dram;  // a channel of them: address_space "channel" needs them
    dram.channels = spec.partitions;
    dram.channel_run_bytes = spec.xbar.interleave_bytes;
    m_dram.push_back(
        std::make_unique<mem::DramController>(("dram" + std::to_string(m)).c_str(), dram, ref));
    if (spec.l2) {
      m_xbar->downstream(m).socket.bind(m_l2.back()->upstream.socket);
      m_l2.back()->downstream.socket.bind(m_dram.back()->upstream.socket);
    } else {
      m_xbar->downstream(m).socket.bind(m_dram.back()->upstream.socket);
    }
  }
  // Several cores due in one cycle must run in one order (see SharedEdges). The shared edges also
  // run every clocked module ahead of the kernel while nothing else can happen before, which
  // makes a simulated time step cost no kernel event: on one core too.
  share_below(*this, &m_polling, &m_edges);
  request_makers_below(*this, m_request_makers);
  m_clock.follow(m_edges.time());
  m_edges.run_ahead_while(
      [this] {
        if (m_polling) return false;  // polled runs stay in step with the kernel: the reference
        for (const auto& c : m_cores)
          if (!c->lets_system_run_ahead()) return false;
        return true;
      },
      &m_horizon);
  SC_METHOD(dispatch);
  sensitive << m_dispatch_event;
  dont_initialize();
  SC_METHOD(watchdog);
  sensitive << m_watchdog_event;
  dont_initialize();
  SC_METHOD(run_edges);
  sensitive << m_edges.event();
  dont_initialize();
  m_stats.counter("cycles", m_cycles, "cycles",
                  "core cycles of all launches (first CTA dispatched to last CTA finished)");
  m_stats.counter("launches", m_launches, "count", "kernel launches run");
}

// The modules go newest first: SystemC's port and export registries look for the one to remove
// from the newest end, so this order costs a step a port, where the members' own order (the first
// core first) searched past every later port: 94 M of the 3.3 G host instructions of a 132-SM
// hopper-h100 run (vecadd at study size).
Gpu::~Gpu() {
  for (size_t m = std::max(m_l2.size(), m_dram.size()); m-- > 0;) {
    if (m < m_dram.size()) m_dram[m].reset();
    if (m < m_l2.size()) m_l2[m].reset();
  }
  m_xbar.reset();
  while (!m_cores.empty()) m_cores.pop_back();
}

LaunchTiming Gpu::run(const func::BoundKernel& kernel, const func::Launch& launch) {
  for (const auto& c : m_cores) c->check_kernel(*launch.kernel);
  for (const auto& c : m_cores) c->prepare_launch(launch, m_spec.cores);
  bool fits = false;
  uint64_t room = 0;
  for (const auto& c : m_cores) fits |= c->can_take(launch), room += c->room(launch);
  if (!fits)
    throw InputError("kernel '" + launch.kernel->name + "': a CTA of " +
                     std::to_string(launch.threads_per_cta()) + " threads and " +
                     std::to_string(launch.shared_bytes()) +
                     " bytes of shared memory does not fit a core of '" + m_spec.name + "'");
  if (room < launch.cluster.count())
    throw InputError("kernel '" + launch.kernel->name + "': a cluster of " +
                     std::to_string(launch.cluster.count()) + " CTAs does not fit the cores of '" +
                     m_spec.name + "' at once (" + std::to_string(room) + " CTAs do)");
  m_kernel = &kernel;
  m_launch = &launch;
  m_next_cta = m_ctas_done = 0;
  m_cta_count = launch.grid.count();
  m_running = true;
  m_polling = m_spec.poll_every_cycle && m_cta_count > 0;
  m_stall.clear();
  LaunchTiming t;
  t.start = m_clock.now();
  m_last_done = t.start;
  for (auto& c : m_cores) c->begin_launch();
  m_watch_retired = m_launch_retired = retired();
  m_dispatch_from = t.start + m_spec.launch_latency;
  m_core_dispatch_at.assign(m_cores.size(), 0);
  // After an earlier launch the kernel stands at the edge that launch ended at, with that edge's
  // processes due and not yet run (some with nothing to do, more of them in a polled run): the
  // first CTAs start before any of them runs, as at an edge where nothing else is due.
  if (m_spec.launch_latency)
    m_dispatch_event.notify(m_clock.until(m_dispatch_from));
  else if (sc_core::sc_get_status() == sc_core::SC_PAUSED)
    dispatch();
  else
    m_dispatch_event.notify(sc_core::SC_ZERO_TIME);
  m_watchdog_event.notify(m_clock.period() * static_cast<double>(m_spec.watchdog_cycles));
  t.stopped = simulate();
  m_running = false;
  m_polling = false;
  m_watchdog_event.cancel();
  t.end = m_clock.now();
  if (t.stopped) {
    t.cycles = m_clock.now() - t.start;
    return t;
  }
  for (const auto& c : m_cores)
    if (!c->fault().empty()) throw func::KernelFault(c->fault());
  if (!m_stall.empty()) throw std::runtime_error(m_stall);
  if (m_ctas_done != m_cta_count)
    throw std::runtime_error("the simulation ran out of events with " +
                             std::to_string(m_cta_count - m_ctas_done) + " CTAs unfinished\n" +
                             dump());
  if (!drained())
    throw std::runtime_error(
        "the simulation ran out of events with memory requests out after "
        "the last CTA finished\n" +
        dump());
  t.cycles = m_last_done - t.start;
  m_cycles += t.cycles;
  ++m_launches;
  return t;
}

void Gpu::dispatch() {
  if (!m_running) return;
  const Cycle now = m_clock.now();
  if (now < m_dispatch_from) return;  // a CTA finishing cannot come first: none has started
  if (m_launch->clustered()) return dispatch_clusters();
  // Round-robin over cores, one CTA per core per pass, until nothing more fits (or, with an
  // interval, each core whose turn has come takes one).
  const uint64_t interval = m_spec.cta_dispatch_interval;
  Cycle wait = kNever;  // the earliest turn of a core that has room but not yet its turn
  bool placed = true;
  while (placed && m_next_cta < m_cta_count) {
    placed = false;
    for (uint32_t k = 0; k < m_cores.size() && m_next_cta < m_cta_count; ++k) {
      const uint32_t c = (m_next_core + k) % m_cores.size();
      core::CoreModule& core = *m_cores[c];
      if (!core.can_take(*m_launch)) continue;
      if (m_core_dispatch_at[c] > now) {
        wait = std::min(wait, m_core_dispatch_at[c]);
        continue;
      }
      core.start_cta(*m_kernel, *m_launch, m_next_cta++, nullptr);
      if (interval) m_core_dispatch_at[c] = now + interval;
      placed = true;
    }
    m_next_core = (m_next_core + 1) % m_cores.size();
  }
  if (m_next_cta < m_cta_count && wait != kNever) m_dispatch_event.notify(m_clock.until(wait));
}

// A cluster's CTAs start together, all resident at once as its barrier and shared memory need,
// spread over the cores as other CTAs are (round-robin, one per core per pass); a cluster that does
// not fit now waits for CTAs to finish. Clusters start in order, each one's CTAs by rank.
void Gpu::dispatch_clusters() {
  const uint32_t n = static_cast<uint32_t>(m_launch->cluster.count());
  std::vector<uint32_t> room(m_cores.size());
  while (m_next_cta < m_cta_count) {
    uint64_t total = 0;
    for (size_t k = 0; k < m_cores.size(); ++k) total += room[k] = m_cores[k]->room(*m_launch);
    if (total < n) return;
    auto cluster = std::make_shared<func::ClusterState>(n, n * m_launch->threads_per_cta());
    for (uint32_t placed = 0; placed < n; m_next_core = (m_next_core + 1) % m_cores.size()) {
      for (uint32_t k = 0; k < m_cores.size() && placed < n; ++k) {
        const uint32_t c = (m_next_core + k) % m_cores.size();
        if (!room[c]) continue;
        --room[c];
        m_cores[c]->start_cta(*m_kernel, *m_launch, m_launch->cta_in_order(m_next_cta++), cluster);
        ++placed;
      }
    }
  }
}

uint64_t Gpu::retired() const {
  uint64_t n = 0;
  for (const auto& c : m_cores) n += c->progress();
  return n;
}

void Gpu::watchdog() {
  if (!m_running || m_ctas_done == m_cta_count) return;
  const uint64_t now = retired();
  if (now - m_launch_retired > m_spec.max_warp_instructions) {
    for (const auto& c : m_cores)
      if (!c->idle()) {
        const std::string waits = c->intra_warp_wait();
        c->report_fault("kernel fault in '" + m_launch->kernel->name + "': watchdog: more than " +
                        std::to_string(m_spec.max_warp_instructions) +
                        (waits.empty() ? " warp instructions (thread instructions on VGIW) in one "
                                         "launch (endless loop?)\n"
                                       : " warp instructions in one launch: " + waits + "\n") +
                        dump());
        return;
      }
  }
  if (now == m_watch_retired) {
    m_stall = "watchdog: no instruction retired in " + std::to_string(m_spec.watchdog_cycles) +
              " cycles (cycle " + std::to_string(m_clock.now()) + ", " +
              std::to_string(m_cta_count - m_ctas_done) + " CTAs unfinished)\n" + dump();
    sc_core::sc_stop();
    return;
  }
  m_watch_retired = now;
  m_watchdog_event.notify(m_clock.period() * static_cast<double>(m_spec.watchdog_cycles));
}

bool Gpu::simulate() {
  auto more = [] {
    return sc_core::sc_get_status() != sc_core::SC_STOPPED && sc_core::sc_pending_activity();
  };
  auto running = [this] { return m_ctas_done < m_cta_count; };
  const bool sampling = m_sample_every && m_sample;
  if (!m_stop_check && !sampling) {
    m_horizon = sc_core::sc_max_time().value();
    if (running()) sc_core::sc_start();  // to the last CTA's end (which pauses it), or a stop
  } else {
    const sc_core::sc_time stop_slice = m_clock.period() * static_cast<double>(kStopCheckCycles);
    while (running()) {
      if (sampling) {  // up to the next multiple of the interval, then sample there
        const Cycle next = (m_clock.now() / m_sample_every + 1) * m_sample_every;
        const sc_core::sc_time slice = std::min(stop_slice, m_clock.until(next));
        m_horizon = (sim_now() + slice).value();
        // Nothing happens before the slice's end but something after it: move time there (no
        // process sees that); else run the slice, ending early where the activity ends, as
        // without sampling.
        sc_core::sc_start(slice, sc_core::sc_time_to_pending_activity() > slice
                                     ? sc_core::SC_RUN_TO_TIME
                                     : sc_core::SC_EXIT_ON_STARVATION);
        if (running() && m_clock.at_edge() && m_clock.now() % m_sample_every == 0)
          m_sample(m_clock.now());
      } else {  // a slice, or up to the next activity if that is later (time never passes the
                // last event)
        const sc_core::sc_time slice = std::max(stop_slice, sc_core::sc_time_to_pending_activity());
        m_horizon = (sim_now() + slice).value();
        sc_core::sc_start(slice, sc_core::SC_EXIT_ON_STARVATION);
      }
      if (!running() || !more()) break;
      if (m_stop_check && m_stop_check()) return true;
    }
  }
  if (!running() && sc_core::sc_get_status() != sc_core::SC_STOPPED) drain();
  return false;  // run() says why if the launch did not end
}

// The state between two core cycles of simulation, where no process runs: whether the launch's
// requests have drained. Every module's outcome is cycle-exact and the same however often it was
// woken, so this is the same in every run of the launch.
bool Gpu::drained() const {
  if (m_ctas_done < m_cta_count) return false;
  for (const auto& c : m_cores)
    if (!c->idle()) return false;
  for (const mem::RequestMaker* m : m_request_makers)
    if (m->requests_out()) return false;
  return true;
}

// From where the last CTA finished (on_cta_done paused the kernel there, mid-step) to the first
// core edge with nothing out: at least the next edge. The kernel stops at each edge before any of
// that edge's processes run (they are due, and run first in the next sc_start); from an edge with
// nothing due it moves on to the first edge at or after the next activity. Not cut short by the
// stop check: a drain lasts a few hundred cycles, and the launch is complete.
void Gpu::drain() {
  const Cycle from = m_clock.now();
  do {
    if (m_clock.now() - from > m_spec.watchdog_cycles) {
      m_stall = "watchdog: memory requests still out " + std::to_string(m_spec.watchdog_cycles) +
                " cycles after the last CTA finished (cycle " + std::to_string(m_clock.now()) +
                ")\n" + dump();
      return;
    }
    if (!sc_core::sc_pending_activity()) return;  // run() reports what is stuck
    const sc_core::sc_time to_activity = sc_core::sc_time_to_pending_activity();
    const Cycle next =
        std::max(m_clock.now() + 1, m_clock.cycle_at(m_clock.edge_from(sim_now() + to_activity)));
    const sc_core::sc_time step = m_clock.until(next);
    m_horizon = (sim_now() + step).value();
    sc_core::sc_start(step, sc_core::SC_RUN_TO_TIME);
  } while (sc_core::sc_get_status() != sc_core::SC_STOPPED && !drained());
}

std::string Gpu::dump() const {
  std::ostringstream os;
  for (const auto& c : m_cores) os << c->dump();
  for (const auto& l : m_l2) os << l->name() << ": " << l->dump() << "\n";
  for (const auto& d : m_dram) os << d->name() << ": " << d->dump() << "\n";
  return os.str();
}

}  // namespace gputlm::gpu
