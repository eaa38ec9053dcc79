// Execute: the SIMD back end. An instruction issues to the functional unit of its class when the
// unit can start a new warp instruction (its initiation interval; a unit narrower than 32 lanes,
// such as the special-function units, takes 32/width passes), and the functional engine executes
// it at that moment for its active lanes, so every later stage sees its real results (branch
// outcome, addresses). It leaves the stage `latency` cycles after its last pass starts. Counts
// the SIMD utilisation histogram (lanes started per cycle). With processing blocks, each block
// has its own execute stage and so its own units (CoreSpec::processing_blocks).
#pragma once

#include <array>
#include <queue>

#include "models/sm/stage.h"

namespace gputlm::sm {

class ExecuteStage : public Stage {
 public:
  ExecuteStage(sc_core::sc_module_name name, CoreContext& core);

 protected:
  Cycle cycle(Cycle now) override;

 private:
  struct Busy {
    Cycle done;
    uint64_t seq;
    WarpInstr* instr;
    bool operator>(const Busy& o) const { return done != o.done ? done > o.done : seq > o.seq; }
  };
  bool issue(WarpInstr& w, isa::InstrClass pipe, Cycle now);  // pipe: pipe_of(w)

  std::priority_queue<Busy, std::vector<Busy>, std::greater<Busy>> m_busy;
  // CoreSpec::release_at_latency: instructions whose registers stop blocking at `done` (a Busy's
  // fields: the release cycle, the order, the instruction, which is still in m_busy then).
  std::priority_queue<Busy, std::vector<Busy>, std::greater<Busy>> m_releases;
  void release(WarpInstr& w);
  // The first cycle a unit of the class can start a warp instruction: the earliest of its units.
  Cycle unit_free(isa::InstrClass c) const;
  // The class whose units `w` takes (CoreSpec::fma_pipe_integers): its own, float_alu's for
  // int_mul, or for an int_alu instruction ptxas can write as an IMAD the one of int_alu and
  // float_alu that starts it first.
  isa::InstrClass pipe_of(const WarpInstr& w) const;

  // The first cycle each unit can start a warp instruction, the units of every class side by
  // side: class c's are [m_units_of[c], m_units_of[c + 1]).
  std::vector<Cycle> m_unit_free;
  std::array<uint32_t, CoreSpec::kClasses + 1> m_units_of{};
  size_t first_free_unit(isa::InstrClass c) const;  // the class's unit that frees first
  uint64_t m_seq = 0;
  Cycle m_next_issue = 0;  // the first cycle another instruction may start (issue_interval)
};

}  // namespace gputlm::sm
