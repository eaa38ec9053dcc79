// A stand-in for the part of ptxas's instruction scheduling that matters most to a PTX-driven
// timing model: loads issued early. nvcc's PTX keeps the source order (a tile copy loop
// unrolled as load, store to shared, load, store, ...), and an in-order core that runs it as
// written waits for each load before the store that uses it, so the loads never overlap; ptxas
// schedules the independent loads first, and the hardware then has them in flight together.
//
// hoist_loads moves every load of global or shared memory (ld, ldu, wmma.load, ldmatrix; not
// .volatile) up its basic block as far as its dependences allow. A load passes an instruction
// that neither writes a register it reads (its address, its guard) nor reads or writes a register
// it writes, and that computes on registers only (ALU, multiply, divide, SFU, convert, tensor
// products; not a read of %clock, %clock64 or %globaltimer, so that timed regions stay as
// written) or accesses another named state space (a global load passes a shared store, a shared
// load a global one: the state spaces do not alias, PTX ISA 5.1). It never passes an access of
// its own space or of a generic address, an atomic, a texture access, a barrier, a fence, a warp
// collective other than a tensor product, a call or a branch; so the loads of one space keep
// their order. ptxas's scheduler is not public, and it also weighs register pressure, which this
// ignores (CoreSpec::hoist_loads names it as a choice).
#pragma once

#include <memory>

#include "models/isa/kernel.h"

namespace gputlm::isa {

struct HoistedKernel {
  std::unique_ptr<Kernel> kernel;  // the reordered copy, analyzed (analyze_kernel)
  uint32_t moved = 0;              // loads that moved up
};

HoistedKernel hoist_loads(const Kernel& kernel);

}  // namespace gputlm::isa
