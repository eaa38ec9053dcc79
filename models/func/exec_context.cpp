#include "models/func/exec_context.h"

#include <algorithm>
#include <sstream>

namespace gputlm::func {

namespace {
// "<what> at address 0x..; CTA (..), thread (..) [linear .., warp ..], PC .., <PTX line>".
std::string detail(const ExecCtx& c, const std::string& what, uint32_t tid, uint64_t address,
                   bool has_address) {
  const Launch& l = c.launch();
  const Dim3& b = l.block;
  std::ostringstream os;
  os << what;
  if (has_address) os << " at address 0x" << std::hex << address << std::dec;
  os << "; CTA " << c.cta->ctaid.str() << ", thread (" << tid % b.x << "," << tid / b.x % b.y << ","
     << tid / (b.x * b.y) << ") [linear " << tid << ", warp " << tid / kWarpSize << "], PC " << c.pc
     << ", " << l.kernel->where(c.pc);
  return os.str();
}
}  // namespace

void ExecCtx::fault(const std::string& what, uint32_t tid, uint64_t address,
                    bool has_address) const {
  throw KernelFault("kernel fault in '" + launch().kernel->name +
                    "': " + detail(*this, what, tid, address, has_address));
}

void ExecCtx::outside_allocations(uint64_t address, uint64_t bytes, uint32_t tid,
                                  std::string_view what) const {
  const Launch& l = launch();
  const std::string outside = std::string(what) + " outside any allocation";
  if (!l.memcheck || l.memcheck->strict() || !l.memory->mapped(address, bytes))
    fault(outside, tid, address);
  l.memcheck->warn("'" + l.kernel->name + "': " +
                   detail(*this, outside + " (in mapped memory: served)", tid, address, true));
}

uint64_t ExecCtx::raw_other(const isa::Operand& o, unsigned lane, uint32_t tid) const {
  switch (o.kind) {
    case isa::OperandKind::Imm:
      return static_cast<uint64_t>(o.imm) + (o.frame ? cta->frame_of(tid) : 0);
    case isa::OperandKind::Special:
      return special(o, lane, tid);
    default:
      fault("operand kind not readable", tid, 0, false);
  }
}

uint64_t ExecCtx::special(const isa::Operand& o, unsigned lane, uint32_t tid) const {
  using isa::SReg;
  const Launch& l = launch();
  auto comp = [&](const Dim3& d) -> uint64_t {
    return o.comp == 0 ? d.x : o.comp == 1 ? d.y : d.z;
  };
  const uint32_t logical_lane = tid % kWarpSize;
  switch (o.sreg) {
    case SReg::Tid: {
      const Dim3 t{tid % l.block.x, tid / l.block.x % l.block.y, tid / (l.block.x * l.block.y)};
      return comp(t);
    }
    case SReg::Ntid:
      return comp(l.block);
    case SReg::Ctaid:
      return comp(cta->ctaid);
    case SReg::Nctaid:
      return comp(l.grid);
    case SReg::Laneid:
      return logical_lane;
    case SReg::Warpid:
      return tid / kWarpSize;
    case SReg::Nwarpid:
      return l.warps_per_cta();
    case SReg::Smid:
      return cta->smid;
    case SReg::Nsmid:
      return cta->smid + 1;
    case SReg::Gridid:
      return 0;
    case SReg::Clock:
      return clock & 0xFFFFFFFFu;
    case SReg::Clock64:
      return clock;
    case SReg::LanemaskEq:
      return 1u << logical_lane;
    case SReg::LanemaskLt:
      return (1u << logical_lane) - 1;
    case SReg::LanemaskLe:
      return first_lanes(logical_lane + 1);
    case SReg::LanemaskGt:
      return ~first_lanes(logical_lane + 1);
    case SReg::LanemaskGe:
      return ~((1u << logical_lane) - 1);
    case SReg::WarpSz:
      return kWarpSize;
    case SReg::ClockHi:
      return clock >> 32;
    // %globaltimer: nanoseconds of simulated time. The engine is given cycles only (the core's
    // cycle count when timed, an instruction count functionally), so time is taken as one
    // nanosecond per cycle, i.e. a nominal 1 GHz clock.
    case SReg::Globaltimer:
      return clock * kGlobaltimerNsPerCycle;
    case SReg::GlobaltimerLo:
      return (clock * kGlobaltimerNsPerCycle) & 0xFFFFFFFFu;
    case SReg::GlobaltimerHi:
      return (clock * kGlobaltimerNsPerCycle) >> 32;
    // Shared memory of the CTA (PTX ISA 10, %dynamic_smem_size %total_smem_size %aggr_smem_size):
    // the static variables up to where dynamic shared memory starts (16-byte aligned), plus the
    // dynamic bytes. No memory is reserved by the system in this model, so the aggregate is the
    // total.
    case SReg::DynamicSmemSize:
      return l.dynamic_shared;
    case SReg::TotalSmemSize:
    case SReg::AggrSmemSize:
      return l.shared_bytes();
    // %envreg<N> are set by the driver: %envreg1:%envreg2 hold a cooperative launch's grid
    // workspace (launch.h); every other one reads 0, as do the profiling counters %pm<N>.
    case SReg::Envreg:
      if (o.comp == 1) return l.grid_workspace >> 32;
      return o.comp == 2 ? l.grid_workspace & 0xFFFFFFFFu : 0;
    case SReg::Pm:
    case SReg::Pm64:
      return 0;
    // %current_graph_exec: the device graph the kernel was launched from; gputlm's graphs are
    // launched from the host, so never one (0, as on a GPU for such a kernel).
    case SReg::CurrentGraphExec:
      return 0;
    // Thread block clusters (PTX ISA 10, the %cluster registers; launch.h): a launch without them
    // has clusters of one CTA (1x1x1), so the cluster grid is the CTA grid and a CTA's rank and
    // position in its cluster are 0.
    case SReg::Clusterid: {
      const Dim3& c = cta->ctaid;
      return comp(Dim3{c.x / l.cluster.x, c.y / l.cluster.y, c.z / l.cluster.z});
    }
    case SReg::Nclusterid:
      return comp(l.cluster_grid());
    case SReg::ClusterCtaid: {
      const Dim3& c = cta->ctaid;
      return comp(Dim3{c.x % l.cluster.x, c.y % l.cluster.y, c.z % l.cluster.z});
    }
    case SReg::ClusterNctaid:
      return comp(l.cluster);
    case SReg::ClusterCtarank:
      return l.cluster_rank(cta->ctaid);
    case SReg::ClusterNctarank:
      return l.cluster.count();
    case SReg::IsExplicitCluster:
      return l.explicit_cluster ? 1 : 0;
    // Shared memory the system reserves (sm_90; cooperative groups keep state there): none in this
    // model. The region is empty and starts where the CTA's shared memory ends, so an access
    // through %reserved_smem_offset_<n> faults as beyond the CTA's shared memory instead of
    // overwriting the kernel's own variables.
    case SReg::ReservedSmemBegin:
    case SReg::ReservedSmemEnd:
    case SReg::ReservedSmemOffset:
      return l.shared_bytes();
    case SReg::ReservedSmemCap:
      return 0;
  }
  return 0;
}

// Most special registers are the same in every lane of a warp; %tid.x counts up along a warp that
// lies within one row of the CTA; the lane registers (%laneid, %lanemask_*) go lane by lane.
void ExecCtx::special_warp(const isa::Operand& o, uint32_t base, uint64_t* out) const {
  using isa::SReg;
  switch (o.sreg) {
    case SReg::Tid: {
      const uint32_t bx = launch().block.x, x0 = base % bx;
      if (x0 + kWarpSize > bx) break;  // the warp spans rows
      if (o.comp == 0) {
        for (unsigned i = 0; i < kWarpSize; ++i) out[i] = x0 + i;
        return;
      }
      std::fill_n(out, kWarpSize, special(o, 0, base));
      return;
    }
    case SReg::Laneid:
    case SReg::LanemaskEq:
    case SReg::LanemaskLt:
    case SReg::LanemaskLe:
    case SReg::LanemaskGt:
    case SReg::LanemaskGe:
      break;
    default:
      std::fill_n(out, kWarpSize, special(o, 0, base));
      return;
  }
  for (unsigned i = 0; i < kWarpSize; ++i) out[i] = special(o, i, base + i);
}

}  // namespace gputlm::func
