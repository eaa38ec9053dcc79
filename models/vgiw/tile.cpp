#include "models/vgiw/tile.h"

#include <stdexcept>
#include <string>

namespace gputlm::vgiw {

namespace {
constexpr uint64_t kLiveValueBase = 0x00007D0000000000ull;  // where the live-value matrices live
}

Tile::Tile(const func::BoundKernel& kernel, const func::Launch& launch, const KernelMap& map,
           const std::vector<uint64_t>& cta_ids, uint32_t smid)
    : m_kernel(kernel),
      m_map(map),
      m_per_cta(launch.threads_per_cta()),
      m_threads(static_cast<uint32_t>(cta_ids.size()) * launch.threads_per_cta()),
      m_smid(smid) {
  if (uint64_t{m_per_cta} * cta_ids.size() > 65536)
    throw std::invalid_argument("a VGIW tile of more than 65536 threads (16-bit thread IDs)");
  for (uint64_t id : cta_ids) {
    m_ctas.push_back(std::make_unique<func::CtaState>(launch, id));
    m_ctas.back()->smid = smid;
  }
  const isa::Kernel& k = kernel.kernel();
  uint64_t at = kLiveValueBase + (uint64_t{smid} << 36);
  for (uint32_t id = 0; id < map.live.count; ++id) {
    m_live_row.push_back(at);
    at += (uint64_t{map.live.bytes[id]} * m_threads + 127) / 128 * 128;
  }
  m_first_segment.assign(k.code.size() + 1, -1);
  for (uint32_t s = 0; s < map.segments.size(); ++s) {
    const Segment& seg = map.segments[s];
    if (seg.cfg_block >= 0 && seg.begin == k.cfg.blocks[static_cast<size_t>(seg.cfg_block)].begin &&
        m_first_segment[seg.begin] < 0)
      m_first_segment[seg.begin] = static_cast<int32_t>(s);
  }
}

uint32_t Tile::memory_ordinal(const isa::Kernel& k, const Segment& s, uint32_t pc) {
  uint32_t n = 0;
  for (uint32_t p = s.begin; p < pc; ++p) n += k.code[p].is_memory();
  return n;
}

int32_t Tile::segment_at(uint32_t pc) const {
  const int32_t s = pc < m_first_segment.size() ? m_first_segment[pc] : -1;
  if (s < 0) throw std::logic_error("VGIW: no segment starts at pc " + std::to_string(pc));
  return s;
}

int32_t Tile::run(uint32_t seg_id, uint32_t tid, uint64_t clock, std::vector<MemAccess>& accesses,
                  uint64_t* instructions) {
  const Segment& seg = m_map.segments[seg_id];
  if (seg.cfg_block < 0) return static_cast<int32_t>(seg.succs.at(0));  // the synthetic entry
  const isa::Kernel& k = m_kernel.kernel();
  func::CtaState& cta = *m_ctas[tid / m_per_cta];
  const uint32_t t = tid % m_per_cta;
  const func::ThreadGroup group{t, nullptr};
  size_t a = 0;
  for (uint32_t pc = seg.begin; pc < seg.end; ++pc) {
    const isa::Instruction& in = k.code[pc];
    m_result.clear();
    m_kernel.execute(pc, cta, group, 1, clock, m_result);
    *instructions += m_result.active & 1;
    if (in.is_memory()) {
      MemAccess& m = accesses[a++];
      m.active = (m_result.accessed & 1) != 0;
      m.space = m_result.space;
      m.bytes = m_result.access_bytes;
      m.kind = in.is_atomic()  ? mem::AccessKind::Atomic
               : in.is_store() ? mem::AccessKind::Store
                               : mem::AccessKind::Load;
      m.address = m_result.addr[0];
      if (m.space ==
          isa::Space::Local)  // interleave the threads' local words, as the SIMT core does
        m.address = func::local_timing_address(uint64_t{m_smid} * 65536 + tid / m_per_cta,
                                               m.address, m_per_cta, t);
    }
    if (pc + 1 == seg.end && seg.ends_block) {
      if (in.is_exit() && (m_result.active & 1)) return -1;
      if (in.is_branch() && (m_result.taken & 1))
        return segment_at(static_cast<uint32_t>(in.ops[0].imm));
    }
  }
  if (!seg.ends_block) return static_cast<int32_t>(seg.succs.at(0));
  if (seg.exits && seg.succs.empty()) return -1;
  return segment_at(seg.end);
}

}  // namespace gputlm::vgiw
