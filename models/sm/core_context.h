// What the stages of one core share (no SystemC process of its own): the spec, warp and CTA
// slots, the formation and scheduler policies, the pool of in-flight instructions, the event
// that wakes the core's process, the core's counters and the first kernel fault.
#pragma once

#include <array>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <systemc>
#include <vector>

#include "models/common/clock.h"
#include "models/core/core_counters.h"
#include "models/sm/core_spec.h"
#include "models/sm/formation/warp_formation.h"
#include "models/sm/scheduler/warp_scheduler.h"
#include "models/sm/warp_instr.h"

namespace gputlm::sm {

struct CoreContext {
  // `clock` and `wake` are the core's (its ClockedModule shell's).
  CoreContext(uint32_t core_id, const CoreSpec& spec, ClockDomain& clock, Wakeup& wake)
      : id(core_id),
        spec(spec),
        clock(clock),
        warps(spec.max_warps),
        ctas(spec.max_ctas),
        formation(make_warp_formation(spec.formation, spec.formation_params)),
        schedulers(make_schedulers(spec)),
        scoreboard(spec.issue == CoreSpec::Issue::Scoreboard),
        local_scratchpad(spec.local_memory == "scratchpad"),
        wake(wake) {}

  uint32_t id;
  CoreSpec spec;
  ClockDomain& clock;
  std::vector<WarpSlot> warps;
  std::vector<CtaSlot> ctas;
  std::unique_ptr<IWarpFormation> formation;
  // One warp scheduler per processing block (CoreSpec::processing_blocks), each picking among the
  // block's own slots (slot % blocks == block) in the core's slot numbering.
  std::vector<std::unique_ptr<IWarpScheduler>> schedulers;
  uint32_t blocks() const { return static_cast<uint32_t>(schedulers.size()); }
  bool scoreboard;        // scoreboard issue (decided once: checked on every hot path)
  bool local_scratchpad;  // spec.local_memory == "scratchpad"
  Wakeup& wake;  // runs the core's pipeline: a memory response, an END_REQ from a cache, a new CTA
  std::function<void(uint32_t cta_slot)>
      cta_finished;  // set by the core: frees the CTA's resources
  std::function<void(uint32_t slot)>
      warp_changed;  // set by the core while tracing: a warp's PC or state changed
  // Slots whose status, in-flight count, PC or fetch cycle changed outside the fetch stage since
  // fetch last looked (it re-checks only these); touch() also updates the waves.
  std::vector<uint32_t> touched;
  void touch(uint32_t slot) {
    touched.push_back(slot);
    if (warp_changed) warp_changed(slot);
  }
  // Exit instructions in flight plus draining warps: while non-zero, a retire may finish a warp
  // and so a CTA, which the GPU hears of at once (the core does not run cycles ahead then).
  uint32_t ending = 0;
  // The stages whose links moved an instruction since they ran (Stage::poked), a bit each (the
  // core renumbers them in the order it runs them: Core::Core).
  uint64_t poked_stages = 0;
  uint32_t poke_bits = 0;  // bits handed out
  uint64_t new_poke_bit() {
    if (poke_bits == 64) throw std::logic_error("a core has more than 64 pipeline stages");
    return uint64_t{1} << poke_bits++;
  }
  bool traced = false;  // the core's or a stage's waves are traced (the core then runs no cycle
                        // ahead of the kernel)
  core::CoreCounters counters;
  Cycle issued_in =
      kNever;  // the last cycle an execute stage started an instruction (issue_cycles)
  uint64_t prioritized_group =
      0;              // the scheduler's prioritised fetch group after its last pick (waves)
  std::string fault;  // the first kernel fault (the simulation is stopped)

  WarpInstr& new_instr() {
    if (m_free.empty()) {
      m_all.push_back(std::make_unique<WarpInstr>());
      return *m_all.back();
    }
    WarpInstr* w = m_free.back();
    m_free.pop_back();
    w->reset();
    return *w;
  }
  void free_instr(WarpInstr& w) { m_free.push_back(&w); }
  const func::BoundKernel& kernel_of(const WarpSlot& w) const { return *ctas[w.cta_slot].kernel; }
  func::CtaState& cta_of(const WarpSlot& w) { return *ctas[w.cta_slot].state; }
  // A trace replay that decides the warp's next PC and lanes itself (func::InstructionSource), or
  // null.
  func::InstructionSource* control_source(const WarpSlot& w) const {
    func::InstructionSource* s = ctas[w.cta_slot].state->launch->replay;
    return s && s->drives_control() ? s : nullptr;
  }
  // Moves the warp to its next PC and lanes as the trace says (the stack empties when it has no
  // more).
  void follow_trace(func::InstructionSource& source, WarpSlot& w) {
    uint32_t pc = 0, lanes = 0;
    if (source.next_issue(*ctas[w.cta_slot].state, w.index_in_cta, pc, lanes))
      w.stack.reset(pc, lanes);
    else
      w.stack.reset(0, 0);
  }
  // Records a kernel fault and stops the simulation; the run reports it afterwards.
  void report_fault(const std::string& message) {
    if (fault.empty()) fault = message;
    sc_core::sc_stop();
  }

 private:
  static std::vector<std::unique_ptr<IWarpScheduler>> make_schedulers(const CoreSpec& spec) {
    std::vector<std::unique_ptr<IWarpScheduler>> v;
    for (uint32_t b = 0; b < spec.processing_blocks; ++b)
      v.push_back(make_warp_scheduler(spec.scheduler, spec.scheduling.with_slots(spec.max_warps)));
    return v;
  }
  std::vector<std::unique_ptr<WarpInstr>> m_all;
  std::vector<WarpInstr*> m_free;
};

}  // namespace gputlm::sm
