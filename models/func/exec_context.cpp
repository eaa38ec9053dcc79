#include "models/func/exec_context.h"

#include <sstream>

namespace gputlm::func {

void ExecCtx::fault(const std::string& what, uint32_t tid, uint64_t address, bool has_address) const {
  const Launch& l = launch();
  const Dim3& b = l.block;
  std::ostringstream os;
  os << "kernel fault in '" << l.kernel->name << "': " << what;
  if (has_address) os << " at address 0x" << std::hex << address << std::dec;
  os << "; CTA " << cta->ctaid.str() << ", thread (" << tid % b.x << "," << tid / b.x % b.y << ","
     << tid / (b.x * b.y) << ") [linear " << tid << ", warp " << tid / kWarpSize << "], PC " << pc
     << ", " << l.kernel->where(pc);
  throw KernelFault(os.str());
}

uint64_t ExecCtx::special(const isa::Operand& o, unsigned lane, uint32_t tid) const {
  using isa::SReg;
  const Launch& l = launch();
  auto comp = [&](const Dim3& d) -> uint64_t { return o.comp == 0 ? d.x : o.comp == 1 ? d.y : d.z; };
  const uint32_t logical_lane = tid % kWarpSize;
  switch (o.sreg) {
    case SReg::Tid: {
      const Dim3 t{tid % l.block.x, tid / l.block.x % l.block.y, tid / (l.block.x * l.block.y)};
      return comp(t);
    }
    case SReg::Ntid: return comp(l.block);
    case SReg::Ctaid: return comp(cta->ctaid);
    case SReg::Nctaid: return comp(l.grid);
    case SReg::Laneid: return logical_lane;
    case SReg::Warpid: return tid / kWarpSize;
    case SReg::Nwarpid: return l.warps_per_cta();
    case SReg::Smid: return cta->smid;
    case SReg::Nsmid: return cta->smid + 1;
    case SReg::Gridid: return 0;
    case SReg::Clock: return clock & 0xFFFFFFFFu;
    case SReg::Clock64: return clock;
    case SReg::LanemaskEq: return 1u << logical_lane;
    case SReg::LanemaskLt: return (1u << logical_lane) - 1;
    case SReg::LanemaskLe: return first_lanes(logical_lane + 1);
    case SReg::LanemaskGt: return ~first_lanes(logical_lane + 1);
    case SReg::LanemaskGe: return ~((1u << logical_lane) - 1);
    case SReg::WarpSz: return kWarpSize;
  }
  return 0;
}

}  // namespace gputlm::func
