// Storage slots for a kernel's registers: registers that are never live at once share a slot, as a
// register allocator (ptxas) lets them share a hardware register. PTX names a fresh virtual
// register for nearly every value, so a kernel declares hundreds that are live a few at a time;
// stored one slot each, a CTA of 256 threads of a 172-register kernel takes 352 KB, and a grid
// that fills 132 SMs allocates and zeroes hundreds of MB. Only the functional engine's storage
// uses the slots (func::CtaState::reg); instructions, the timing model's scoreboard and register
// banks, VGIW's live values and every statistic keep the PTX register numbers.
#pragma once

#include <cstdint>
#include <vector>

namespace gputlm::isa {

struct Kernel;

// Fills kernel.reg_slot (register -> slot) and kernel.reg_slots from the liveness in kernel.cfg
// (analyze_kernel): two registers share a slot unless one is written while the other is live, or
// both are live where the kernel starts (read before any write, so both must still hold the zero
// every slot starts with). A guarded write may keep the old value, so it counts as a read too
// (instruction_registers). Kernels that make calls keep one slot a register: their callees save
// and restore registers by ranges of PTX numbers (ptx_link). Colouring is greedy in register
// order: the first slot no interfering register holds. A register that a warp-collective
// instruction reads or writes (is_warp_collective: shfl, vote, mma, ldmatrix, ...) keeps a slot of
// its own: such an instruction may read the register of a lane that is not executing it (a shfl
// from an inactive lane reads the register as it stands, and under independent thread scheduling
// that lane may be elsewhere in the code, where a shared slot would hold another register).
void assign_register_slots(Kernel& kernel);

}  // namespace gputlm::isa
