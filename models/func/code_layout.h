// Where kernels' code lies in the device's address space, for the timing model's instruction
// fetches (the I-cache and the levels behind it see these addresses; the functional engine never
// reads them). A GPU's driver loads each kernel's machine code into device memory, so two kernels
// never share an instruction line. Kernels are laid out one after another in the order they are
// placed (the runtime: first launch), from address 0, below GlobalMemory::kHeapBase, in memory the
// driver keeps for itself where no allocation goes. Each takes kBytesPerInstruction bytes an
// instruction (the most CoreSpec::instruction_bytes allows), rounded up to 256 bytes, so that no
// configuration's instruction size makes two kernels overlap. The first kernel placed starts at
// 0, as every kernel did before kernels had addresses of their own.
#pragma once

#include <cstdint>

#include "models/isa/kernel.h"

namespace gputlm::func {

class CodeLayout {
 public:
  static constexpr uint64_t kBytesPerInstruction = 64;

  // The address of `kernel`'s first instruction; the next kernel placed goes after it.
  uint64_t place(const isa::Kernel& kernel) {
    const uint64_t at = m_next;
    m_next += (kernel.code.size() * kBytesPerInstruction + 255) / 256 * 256;
    return at;
  }

 private:
  uint64_t m_next = 0;
};

}  // namespace gputlm::func
