#include "app/func_stepper.h"

#include "models/common/error.h"

namespace gputlm::app {

using sc_core::SC_NS;

FuncStepper::FuncStepper(sc_core::sc_module_name name, uint32_t warp_slots,
                         const func::ReferenceOptions& options)
    : sc_module(name),
      m_options(options),
      m_pc(warp_slots, 0),
      m_mask(warp_slots, 0),
      m_depth(warp_slots, 0),
      m_status(warp_slots, 3) {
  SC_METHOD(tick);
  sensitive << m_start;
  dont_initialize();
}

func::FuncStats FuncStepper::run(const func::BoundKernel& kernel, const func::Launch& launch) {
  // The stepper shows one CTA at a time in its warp slots; a cooperative launch's CTAs and a
  // cluster's must run interleaved (grid.sync(), barrier.cluster), which only the reference
  // executor and the timing model do.
  if (launch.grid_workspace || launch.clustered())
    throw InputError(
        "'" + launch.kernel->name + "' is a " +
        (launch.grid_workspace ? "cooperative launch" : "launch with thread block clusters") +
        ": its functional waves (--functional with a VCD) are not modelled; run it without --vcd, "
        "or timed");
  m_kernel = &kernel;
  m_launch = &launch;
  m_next_cta = 0;
  m_cta.reset();
  m_stats = {};
  m_fault.clear();
  ++m_launch_no;
  m_start.notify(1, SC_NS);
  sc_core::sc_start();
  if (!m_fault.empty()) throw func::KernelFault(m_fault);
  return m_stats;
}

void FuncStepper::tick() {
  if (m_options.stop && m_options.stop()) return;  // no further trigger: sc_start returns
  try {
    if (!m_cta || m_cta->done()) {
      if (m_next_cta == m_launch->grid.count()) {
        std::fill(m_status.begin(), m_status.end(), static_cast<uint32_t>(WaveWarpState::Done));
        return;  // launch finished: no further trigger, sc_start returns
      }
      m_cta = std::make_unique<func::CtaRunner>(*m_kernel, *m_launch, m_next_cta,
                                                m_options.reconvergence);
      m_cta_id = static_cast<uint32_t>(m_next_cta++);
      m_stats.ctas += 1;
      m_stats.warps += m_cta->warps().size();
    }
    m_issue_warp = m_cta->step(m_stats);
    m_issue_pc = m_cta->last_pc();
    m_issue_lanes = popcount(m_cta->last_active());
    if (m_stats.warp_instructions > m_options.max_warp_instructions)
      throw func::KernelFault(
          "kernel fault in '" + m_launch->kernel->name + "': watchdog: more than " +
          std::to_string(m_options.max_warp_instructions) + " warp instructions");
    sample();
    next_trigger(1, SC_NS);
  } catch (const func::KernelFault& f) {
    m_fault = f.what();
    sc_core::sc_stop();
  }
}

namespace {
// The functional engine's warp states in the VCDs' one encoding.
WaveWarpState wave_state(func::WarpState::Status s) {
  switch (s) {
    case func::WarpState::Status::Ready:
      return WaveWarpState::Ready;
    case func::WarpState::Status::Barrier:
    case func::WarpState::Status::ClusterWait:
      return WaveWarpState::Barrier;
    case func::WarpState::Status::Done:
      break;
  }
  return WaveWarpState::Done;
}
}  // namespace

void FuncStepper::sample() {
  const auto& warps = m_cta->warps();
  for (size_t i = 0; i < m_pc.size(); ++i) {
    if (i >= warps.size()) {
      m_status[i] = static_cast<uint32_t>(WaveWarpState::Free);
      continue;
    }
    const func::WarpState& w = warps[i];
    const bool done = w.stack.done();
    m_pc[i] = done ? 0 : w.stack.pc();
    m_mask[i] = done ? 0 : w.stack.mask();
    m_depth[i] = static_cast<uint32_t>(w.stack.depth());
    m_status[i] = static_cast<uint32_t>(wave_state(w.status));
  }
}

void FuncStepper::start_waves(sc_core::sc_trace_file* tf) {
  const std::string n = name();
  sc_core::sc_trace(tf, m_launch_no, n + ".launch");
  sc_core::sc_trace(tf, m_cta_id, n + ".cta");
  sc_core::sc_trace(tf, m_issue_warp, n + ".issue_warp");
  sc_core::sc_trace(tf, m_issue_pc, n + ".issue_pc");
  sc_core::sc_trace(tf, m_issue_lanes, n + ".issue_lanes");
  for (size_t i = 0; i < m_pc.size(); ++i) {
    const std::string w = n + ".warp" + std::to_string(i);
    sc_core::sc_trace(tf, m_pc[i], w + ".pc");
    sc_core::sc_trace(tf, m_mask[i], w + ".active_mask");
    sc_core::sc_trace(tf, m_depth[i], w + ".stack_depth");
    sc_core::sc_trace(tf, m_status[i], w + ".status");
  }
}

std::vector<WaveGroup> FuncStepper::save_file_groups() const {
  using F = WaveSignal::Format;
  const std::string n = name();
  std::vector<WaveGroup> groups{{"issue: launch, CTA, warp, PC and active lanes of each step",
                                 {{n + ".launch", 32, F::Dec},
                                  {n + ".cta", 32, F::Dec},
                                  {n + ".issue_warp", 32, F::Dec},
                                  {n + ".issue_pc", 32, F::Dec},
                                  {n + ".issue_lanes", 32, F::Dec}}}};
  for (size_t i = 0; i < m_pc.size(); ++i) {
    const std::string w = n + ".warp" + std::to_string(i);
    groups.push_back({"warp" + std::to_string(i) + ": PC, active mask, stack depth, state",
                      {{w + ".pc", 32, F::Hex},
                       {w + ".active_mask", 32, F::Hex},
                       {w + ".stack_depth", 32, F::Dec},
                       {w + ".status", 32, F::Dec, warp_state_names()}},
                      i < 4});
  }
  return groups;
}

}  // namespace gputlm::app
