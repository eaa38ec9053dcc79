// A warp instruction travelling down the core's pipeline (the payload the stages pass over their
// TLM sockets). Created by fetch from the core's pool, retired by writeback.
#pragma once

#include <array>
#include <cstdint>
#include <tlm>

#include "models/common/clock.h"
#include "models/func/exec_context.h"
#include "models/isa/instruction.h"
#include "models/mem/mem_extension.h"

namespace gputlm::sm {

struct WarpInstr : mem::RequestOwner {
  uint32_t slot = 0;  // warp slot in the core
  uint32_t pc = 0;
  LaneMask lanes = 0;  // SIMT active lanes at fetch
  func::ThreadGroup group;
  std::array<uint32_t, kWarpSize>
      tids;              // lane -> thread of a formed sub-warp (group.tids points here)
  uint32_t threads = 0;  // threads the instruction counts for (the lanes, for a 32-thread warp)
  uint32_t tag = 0;      // the warp formation's name for the fetched instruction
  const isa::Instruction* in = nullptr;
  isa::InstrClass cls = isa::InstrClass::IntAlu;
  func::ExecResult result;  // what the functional engine did (set at execute)
  Cycle fetched = 0;
  bool pc_advanced = false;    // scoreboard: fetch already moved the warp's PC past it
  uint32_t lines_pending = 0;  // memory: line requests not yet answered
  uint32_t lines_unsent = 0;   // memory: line requests not yet accepted by the L1
  bool parked = false;         // memory: set aside waiting for its lines
  uint64_t copy_group = 0;  // cp.async: the warp's group it joined at fetch (memory/copy_groups.h)
  bool released =
      false;  // its registers stopped blocking at execute (CoreSpec::release_at_latency)

  // Back to a new instruction's state, but for `result`, which the functional engine sets whole
  // at execute (clearing its 32 addresses here too would cost every instruction twice).
  void reset() {
    slot = pc = 0;
    lanes = 0;
    group = {};
    threads = tag = 0;
    in = nullptr;
    cls = isa::InstrClass::IntAlu;
    fetched = 0;
    pc_advanced = false;
    lines_pending = lines_unsent = 0;
    parked = false;
    copy_group = 0;
    released = false;
  }
};

// The stage-to-stage protocol: TLM sockets carrying WarpInstr with the base protocol's phases.
struct StageTypes {
  typedef WarpInstr tlm_payload_type;
  typedef tlm::tlm_phase tlm_phase_type;
};

}  // namespace gputlm::sm
