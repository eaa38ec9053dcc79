#include "models/isa/special_registers.h"

#include <array>
#include <utility>

namespace gputlm::isa {
namespace {

using Entry = std::pair<std::string_view, SReg>;

// Vector registers: read one component, .x .y .z.
constexpr std::array<Entry, 8> kVector = {{{"%tid", SReg::Tid},
                                           {"%ntid", SReg::Ntid},
                                           {"%ctaid", SReg::Ctaid},
                                           {"%nctaid", SReg::Nctaid},
                                           {"%clusterid", SReg::Clusterid},
                                           {"%nclusterid", SReg::Nclusterid},
                                           {"%cluster_ctaid", SReg::ClusterCtaid},
                                           {"%cluster_nctaid", SReg::ClusterNctaid}}};

constexpr std::array<Entry, 28> kScalar = {
    {{"%laneid", SReg::Laneid},
     {"%warpid", SReg::Warpid},
     {"%nwarpid", SReg::Nwarpid},
     {"%smid", SReg::Smid},
     {"%nsmid", SReg::Nsmid},
     {"%gridid", SReg::Gridid},
     {"%clock", SReg::Clock},
     {"%clock_hi", SReg::ClockHi},
     {"%clock64", SReg::Clock64},
     {"%lanemask_eq", SReg::LanemaskEq},
     {"%lanemask_lt", SReg::LanemaskLt},
     {"%lanemask_le", SReg::LanemaskLe},
     {"%lanemask_gt", SReg::LanemaskGt},
     {"%lanemask_ge", SReg::LanemaskGe},
     {"WARP_SZ", SReg::WarpSz},
     {"%globaltimer", SReg::Globaltimer},
     {"%globaltimer_lo", SReg::GlobaltimerLo},
     {"%globaltimer_hi", SReg::GlobaltimerHi},
     {"%dynamic_smem_size", SReg::DynamicSmemSize},
     {"%total_smem_size", SReg::TotalSmemSize},
     {"%aggr_smem_size", SReg::AggrSmemSize},
     {"%cluster_ctarank", SReg::ClusterCtarank},
     {"%cluster_nctarank", SReg::ClusterNctarank},
     {"%is_explicit_cluster", SReg::IsExplicitCluster},
     {"%reserved_smem_offset_begin", SReg::ReservedSmemBegin},
     {"%reserved_smem_offset_end", SReg::ReservedSmemEnd},
     {"%reserved_smem_offset_cap", SReg::ReservedSmemCap},
     {"%current_graph_exec", SReg::CurrentGraphExec}}};

// "%envreg<N>" (N < 32), "%pm<N>" and "%pm<N>_64" (N < 8): the index, or -1.
int indexed(std::string_view name, std::string_view prefix, unsigned limit,
            std::string_view suffix = {}) {
  if (name.substr(0, prefix.size()) != prefix || name.size() <= prefix.size() + suffix.size())
    return -1;
  std::string_view digits = name.substr(prefix.size(), name.size() - prefix.size() - suffix.size());
  if (name.substr(name.size() - suffix.size()) != suffix || digits.size() > 2) return -1;
  unsigned n = 0;
  for (char ch : digits) {
    if (ch < '0' || ch > '9') return -1;
    n = n * 10 + static_cast<unsigned>(ch - '0');
  }
  return n < limit ? static_cast<int>(n) : -1;
}

}  // namespace

bool parse_special_register(std::string_view name, Operand& o) {
  auto set = [&o](SReg r, int comp) {
    o.kind = OperandKind::Special;
    o.sreg = r;
    o.comp = static_cast<uint8_t>(comp);
    return true;
  };
  for (const auto& [n, r] : kScalar)
    if (name == n) return set(r, 0);
  if (int i = indexed(name, "%envreg", 32); i >= 0) return set(SReg::Envreg, i);
  if (int i = indexed(name, "%reserved_smem_offset_", 2); i >= 0)
    return set(SReg::ReservedSmemOffset, i);
  if (int i = indexed(name, "%pm", 8, "_64"); i >= 0) return set(SReg::Pm64, i);
  if (int i = indexed(name, "%pm", 8); i >= 0) return set(SReg::Pm, i);
  const size_t dot = name.find('.');
  if (dot == std::string_view::npos || dot + 2 != name.size() || name[dot + 1] < 'x' ||
      name[dot + 1] > 'z')
    return false;
  for (const auto& [n, r] : kVector)
    if (name.substr(0, dot) == n) return set(r, name[dot + 1] - 'x');
  return false;
}

}  // namespace gputlm::isa
