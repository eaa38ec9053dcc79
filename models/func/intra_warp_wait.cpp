#include "models/func/intra_warp_wait.h"

#include <sstream>

namespace gputlm::func {

std::string lane_list(LaneMask lanes) {
  std::ostringstream os;
  os << (popcount(lanes) == 1 ? "lane " : "lanes ");
  const char* sep = "";
  for (unsigned lane = 0; lane < kWarpSize;) {
    if (!(lanes >> lane & 1u)) {
      ++lane;
      continue;
    }
    unsigned last = lane;
    while (last + 1 < kWarpSize && (lanes >> (last + 1) & 1u)) ++last;
    os << sep << lane;
    if (last > lane) os << "-" << last;
    sep = ", ";
    lane = last + 1;
  }
  return os.str();
}

std::string intra_warp_wait(const SimtStack<LaneMask>& stack, const isa::Kernel& kernel,
                            uint32_t warp, const std::string& cta) {
  if (stack.its() || stack.depth() < 2) return "";
  const auto& entries = stack.entries();
  const LaneMask spinning = entries.back().mask;
  for (size_t i = entries.size() - 1; i-- > 0;) {
    const LaneMask waiting = entries[i].mask & ~spinning;
    if (!waiting || entries[i].pc >= kernel.code.size()) continue;
    std::ostringstream os;
    auto verb = [](LaneMask m, const char* one, const char* many) {
      return popcount(m) == 1 ? one : many;
    };
    os << "warp " << warp << " of CTA " << cta << ": " << lane_list(spinning)
       << verb(spinning, " spins", " spin") << " at PC " << entries.back().pc << " ("
       << kernel.where(entries.back().pc) << ") while " << lane_list(waiting) << " of the same warp"
       << verb(waiting, " waits", " wait") << " below them in the SIMT stack at PC "
       << entries[i].pc << " (" << kernel.where(entries[i].pc)
       << "): an intra-warp dependence that needs independent thread scheduling "
          "(core.reconvergence \"its\")";
    return os.str();
  }
  return "";
}

}  // namespace gputlm::func
