// What the stages of one core share (no SystemC process of its own): the spec, warp and CTA
// slots, the formation and scheduler policies, the pool of in-flight instructions, the event
// that wakes the core's process, the core's counters and the first kernel fault.
#pragma once

#include <array>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <systemc>
#include <vector>

#include "models/common/clock.h"
#include "models/sm/core_spec.h"
#include "models/sm/formation/warp_formation.h"
#include "models/sm/scheduler/warp_scheduler.h"
#include "models/sm/warp_instr.h"

namespace gputlm::sm {

// Why the fetch stage did not fetch in a cycle (stall breakdown).
enum class StallCause : uint8_t { Idle, Pipeline, Memory, Barrier, ICache, Backpressure, kCount };
inline const char* stall_cause_name(StallCause c) {
  static const char* const kNames[] = {"idle",    "pipeline", "memory",
                                       "barrier", "icache",   "backpressure"};
  return kNames[static_cast<size_t>(c)];
}
// Every cause's name, in StallCause order (the labels of a histogram by cause).
inline std::vector<std::string> stall_cause_names() {
  std::vector<std::string> names;
  for (size_t i = 0; i < static_cast<size_t>(StallCause::kCount); ++i)
    names.push_back(stall_cause_name(static_cast<StallCause>(i)));
  return names;
}

// What a VGIW fabric's cycles went to while a block streamed (Voitsechov & Etsion Sec. 3.5; our
// breakdown): starting threads; holding threads with every virtual channel taken; waiting for
// the scheduler's next batch; draining the block's last threads.
enum class FabricPhase : uint8_t { Injecting, ChannelsFull, WaitingBatches, Draining, kCount };
inline const char* fabric_phase_name(FabricPhase p) {
  static const char* const kNames[] = {"injecting", "channels_full", "waiting_batches", "draining"};
  return kNames[static_cast<size_t>(p)];
}
constexpr size_t kFabricPhases = static_cast<size_t>(FabricPhase::kCount);

struct CoreCounters {
  uint64_t warp_instructions = 0;
  uint64_t thread_instructions = 0;
  uint64_t issue_cycles = 0;  // cycles in which the execute stage started an instruction
  uint64_t fetch_cycles =
      0;  // cycles in which fetch picked a warp (an instruction or an I-cache access)
  uint64_t first_issue_ns = ~0ull;  // simulated time of the first start (where the waves open)
  std::vector<uint64_t> simd_histogram =
      std::vector<uint64_t>(kWarpSize + 1, 0);  // k lanes started
  std::vector<uint64_t> stall_cycles =
      std::vector<uint64_t>(static_cast<size_t>(StallCause::kCount), 0);
  uint64_t ctas_done = 0;
  uint64_t line_requests = 0;
  uint64_t shared_bank_conflict_cycles = 0;
  uint64_t register_bank_conflict_cycles = 0;
  uint64_t subwarps = 0;  // units formed from large warps (sub-warps), bubbles excluded
  uint64_t subwarp_bubble_cycles = 0;   // cycles the sub-warp former waited for busy threads
  uint64_t resident_thread_cycles = 0;  // threads resident on the core, summed over cycles
  // The MWP/CWP model's memory classes (Hong & Kim Sec. 3.4.5, footnote 8): a global or local
  // memory warp instruction is coalesced when its lanes make ONE line request, uncoalesced
  // otherwise.
  uint64_t coalesced_memory_instructions = 0;
  uint64_t uncoalesced_memory_instructions = 0;
  uint64_t uncoalesced_line_requests = 0;  // line requests of the uncoalesced ones
  uint64_t barrier_instructions = 0;       // warp instructions that were barriers
  // Register-file accesses, one per register operand read or written by a warp instruction (an
  // access for the whole warp, as Voitsechov & Etsion count them for Fig. 3).
  uint64_t register_file_accesses = 0;
  uint64_t register_file_thread_accesses = 0;  // the same per thread (x active lanes)
  // The same split for the energy model (models/energy): operand reads and result writes, each
  // warp-wide; thread instructions by isa::InstrClass; shared-memory (and scratchpad private
  // memory) words accessed, one per active lane of a shared access.
  uint64_t register_reads = 0;
  uint64_t register_writes = 0;
  std::vector<uint64_t> class_thread_instructions = std::vector<uint64_t>(isa::kInstrClasses, 0);
  uint64_t shared_accesses = 0;
  // VGIW cores: live value cache accesses, cycles spent reconfiguring the fabric, and cycles the
  // core had a tile in flight.
  uint64_t live_value_accesses = 0;
  uint64_t reconfiguration_cycles = 0;
  uint64_t active_cycles = 0;
  uint64_t block_runs = 0;         // blocks (segments) streamed
  uint64_t block_run_threads = 0;  // threads those runs streamed (their thread vectors)
  std::array<uint64_t, kFabricPhases> fabric_cycles{};  // streaming cycles by FabricPhase
};

struct CoreContext {
  CoreContext(uint32_t core_id, const CoreSpec& spec, double reference_mhz)
      : id(core_id),
        spec(spec),
        clock(spec.clock_mhz, reference_mhz),
        warps(spec.max_warps),
        ctas(spec.max_ctas),
        formation(make_warp_formation(spec.formation, spec.formation_params)),
        scheduler(make_warp_scheduler(spec.scheduler, spec.scheduling.with_slots(spec.max_warps))),
        scoreboard(spec.issue == CoreSpec::Issue::Scoreboard),
        local_scratchpad(spec.local_memory == "scratchpad") {}

  uint32_t id;
  CoreSpec spec;
  ClockDomain clock;
  std::vector<WarpSlot> warps;
  std::vector<CtaSlot> ctas;
  std::unique_ptr<IWarpFormation> formation;
  std::unique_ptr<IWarpScheduler> scheduler;
  bool scoreboard;        // scoreboard issue (decided once: checked on every hot path)
  bool local_scratchpad;  // spec.local_memory == "scratchpad"
  Wakeup wake;  // runs the core's pipeline: a memory response, an END_REQ from a cache, a new CTA
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
  uint32_t poked_stages =
      0;                // stages whose links moved an instruction since they ran (Stage::poked)
  bool traced = false;  // the core's or a stage's waves are traced (the core then runs no cycle
                        // ahead of the kernel)
  CoreCounters counters;
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
  std::vector<std::unique_ptr<WarpInstr>> m_all;
  std::vector<WarpInstr*> m_free;
};

}  // namespace gputlm::sm
