// A tile of the VGIW core (Voitsechov & Etsion, Sec. 3.2): the CTAs a core runs at once, numbered
// by tile thread ID (CTA after CTA), with their architectural state, and the functional execution
// of one segment for one thread. The fabric executes a thread's segment when its initiator starts
// the thread: the threads of a segment are data-parallel (a barrier ends a segment, and the
// scheduler runs one segment at a time), so one thread's instructions may run together; the
// timing of each node then follows from the dataflow firing rule, and the memory operations'
// addresses and the branch outcome recorded here drive it.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "models/func/bound_kernel.h"
#include "models/mem/mem_extension.h"
#include "models/vgiw/mapper/kernel_map.h"

namespace gputlm::vgiw {

// One memory instruction of one thread: where the load/store unit goes.
struct MemAccess {
  uint64_t address = 0;  // global address (local memory: a per-thread interleaved global one)
  uint32_t bytes = 0;
  isa::Space space = isa::Space::Generic;  // Global, Shared, Local or Param
  mem::AccessKind kind = mem::AccessKind::Load;
  bool active = false;  // the guard held (and, for cond.acc, the thread wrote)
};

class Tile {
 public:
  // The CTAs `cta_ids` of `launch`, on core `smid`. Throws std::invalid_argument when a tile
  // thread ID would pass 16 bits.
  Tile(const func::BoundKernel& kernel, const func::Launch& launch, const KernelMap& map,
       const std::vector<uint64_t>& cta_ids, uint32_t smid);

  uint32_t threads() const { return m_threads; }
  size_t ctas() const { return m_ctas.size(); }
  uint64_t cta_id(size_t i) const { return m_ctas[i]->linear_id; }
  uint32_t cta_of(uint32_t tid) const { return tid / m_per_cta; }

  // Executes segment `seg` for tile thread `tid`: `accesses[k]` gets the k-th memory instruction
  // of the segment. Returns the next segment, or -1 when the thread exits. Adds the instructions
  // executed (guard held) to `*instructions`. Throws func::KernelFault.
  int32_t run(uint32_t seg, uint32_t tid, uint64_t clock, std::vector<MemAccess>& accesses,
              uint64_t* instructions);

  // Where live value `id` of thread `tid` lives in the live-value matrix (Sec. 3.4: rows by
  // live-value ID, columns by thread ID, in memory backed by L2; a row per ID, threads adjacent,
  // rows 128-byte aligned, each core its own matrix), and its width (LiveValues::bytes).
  uint64_t live_address(uint32_t id, uint32_t tid) const {
    return m_live_row[id] + uint64_t{tid} * m_map.live.bytes[id];
  }
  uint32_t live_bytes(uint32_t id) const { return m_map.live.bytes[id]; }

  // Memory instructions of a segment, in pc order (the ordinal of `pc` among them).
  static uint32_t memory_ordinal(const isa::Kernel& k, const Segment& s, uint32_t pc);

 private:
  int32_t segment_at(uint32_t pc) const;

  const func::BoundKernel& m_kernel;
  const KernelMap& m_map;
  uint32_t m_per_cta, m_threads, m_smid;
  std::vector<std::unique_ptr<func::CtaState>> m_ctas;
  std::vector<int32_t> m_first_segment;
  std::vector<uint64_t> m_live_row;  // pc -> the segment starting a CFG block there, or -1
  func::ExecResult m_result;
};

}  // namespace gputlm::vgiw
