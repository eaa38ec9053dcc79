// A kernel that does something no hardware would allow (address outside every allocation,
// misaligned access, trap, barrier that can never complete) stops with a KernelFault whose
// message names kernel, CTA, thread, PC, instruction and address.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace gputlm::func {

class KernelFault : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace gputlm::func
