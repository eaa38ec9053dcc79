#include "models/vgiw/mapper/kernel_map.h"

#include <stdexcept>
#include <string>

namespace gputlm::vgiw {
namespace {

// Its live sets leave out the static values (no live value carries them).
Segment make_segment(const isa::Kernel& k, uint32_t block, uint32_t begin, uint32_t end,
                     const StaticOperands& st) {
  Segment s;
  s.cfg_block = static_cast<int32_t>(block);
  s.begin = begin;
  s.end = end;
  s.ends_block = end == k.cfg.blocks[block].end;
  s.live_in = st.live_values(live_before(k, block, begin));
  s.live_out = st.live_values(live_before(k, block, end));
  return s;
}

// One block's segments: cut at barriers (dropped), then wherever the next instruction would make
// the graph too big for the grid.
std::vector<Segment> cut_block(const isa::Kernel& k, uint32_t block, const UnitCounts& grid,
                               const StaticOperands& st) {
  const isa::BasicBlock& b = k.cfg.blocks[block];
  std::vector<std::pair<uint32_t, uint32_t>> pieces;
  uint32_t start = b.begin;
  for (uint32_t pc = b.begin; pc < b.end; ++pc)
    if (k.code[pc].is_barrier()) {
      pieces.emplace_back(start, pc);
      start = pc + 1;
    }
  pieces.emplace_back(start, b.end);
  std::vector<Segment> out;
  for (const auto& [begin, end] : pieces) {
    uint32_t from = begin;
    for (uint32_t pc = begin + 1; pc <= end; ++pc) {
      if (replicas(build_segment_graph(k, make_segment(k, block, from, pc, st), st).need, grid) > 0)
        continue;
      if (pc - 1 == from)
        throw std::invalid_argument(k.name + ": '" + k.text[from] + "' (pc " +
                                    std::to_string(from) + ") alone does not fit the grid");
      out.push_back(make_segment(k, block, from, pc - 1, st));
      from = pc - 1;
    }
    out.push_back(make_segment(k, block, from, end, st));
  }
  return out;
}

}  // namespace

KernelMap map_kernel(const isa::Kernel& k, const UnitCounts& grid, const StaticOptions& options) {
  if (!k.functions.empty()) {  // this round the mapper neither inlines nor maps calls (issue 21)
    const isa::FunctionInfo& f = k.functions.front();
    throw std::invalid_argument(k.name + " calls device function '" + f.name + "' (" + k.file +
                                ":" + std::to_string(f.line) +
                                "); the VGIW mapper does not map calls");
  }
  // brx.idx (PTX ISA 9.7.12.4): a block with a successor per label of its list, where a block's
  // terminator chooses between two.
  for (uint32_t pc = 0; pc < k.code.size(); ++pc)
    if (k.code[pc].is_indexed_branch())
      throw std::invalid_argument(
          k.name + ": VGIW has no mapping for '" + k.text[pc] + "' (pc " + std::to_string(pc) +
          "): a multi-way branch, and a block's terminator has two successors");
  const BlockSchedule schedule = schedule_blocks(k.cfg);
  const StaticOperands statics(k, options);
  KernelMap m;
  m.static_instructions = statics.instructions();
  std::vector<uint32_t> first(schedule.blocks.size());  // scheduled block -> its first segment
  std::vector<uint32_t> last(schedule.blocks.size());
  for (uint32_t id = 0; id < schedule.blocks.size(); ++id) {
    const ScheduledBlock& sb = schedule.blocks[id];
    first[id] = static_cast<uint32_t>(m.segments.size());
    std::vector<Segment> cut =
        sb.cfg_block == ScheduledBlock::kSyntheticEntry
            ? std::vector<Segment>{Segment{}}
            : cut_block(k, static_cast<uint32_t>(sb.cfg_block), grid, statics);
    for (Segment& s : cut) {
      s.loop_depth = sb.loop_depth;
      if (!m.segments.empty() && !m.segments.back().ends_block)
        m.segments.back().succs = {static_cast<uint32_t>(m.segments.size())};
      m.segments.push_back(std::move(s));
    }
    last[id] = static_cast<uint32_t>(m.segments.size() - 1);
    m.segments.back().exits = sb.exits;
  }
  for (uint32_t id = 0; id < schedule.blocks.size(); ++id)
    for (uint32_t s : schedule.blocks[id].succs) m.segments[last[id]].succs.push_back(first[s]);
  if (!schedule.blocks.empty() && schedule.blocks[0].cfg_block == ScheduledBlock::kSyntheticEntry)
    m.segments[0].live_out =
        m.segments[first[1]].live_in;  // the synthetic entry passes the kernel's inputs on
  m.live = allocate_live_values(m.segments);
  m.live.bytes.assign(m.live.count, 4);
  for (const auto& [reg, id] : m.live.id_of)
    if (isa::dtype_bytes(k.regs[static_cast<size_t>(reg)].type) > 4) m.live.bytes[id] = 8;
  for (const Segment& s : m.segments) {
    m.graphs.push_back(build_segment_graph(k, s, statics));
    assign_live_ids(m.graphs.back(), m.live);
    m.replicas.push_back(replicas(m.graphs.back().need, grid));
  }
  return m;
}

}  // namespace gputlm::vgiw
