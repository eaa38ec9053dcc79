#include "models/vgiw/mapper/segments.h"

#include <algorithm>
#include <set>

namespace gputlm::vgiw {

std::vector<int32_t> live_before(const isa::Kernel& k, uint32_t block, uint32_t pc) {
  const isa::BasicBlock& b = k.cfg.blocks.at(block);
  std::set<int32_t> live(b.live_out.begin(), b.live_out.end());
  std::vector<int32_t> uses, defs;
  for (uint32_t p = b.end; p-- > pc;) {
    isa::instruction_registers(k.code[p], uses, defs);
    if (k.code[p].guard < 0)
      for (int32_t r : defs) live.erase(r);
    live.insert(uses.begin(), uses.end());
  }
  return {live.begin(), live.end()};
}

}  // namespace gputlm::vgiw
