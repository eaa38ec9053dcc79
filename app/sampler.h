// Time series of a timing run (what AerialVision plots for GPGPU-Sim): every `every` core cycles
// the sampler reads the counters the modules already keep and records one row for that interval:
// IPC, active lanes per issued warp instruction, fetch stall cycles by cause, L1D and L2 hit rates,
// DRAM bandwidth and row-buffer hit rate (a rate over no events, e.g. the L2 hit rate of an
// interval without L2 accesses, is null). DRAM bytes count when the controller schedules a
// request. The GPU calls it between slices of simulation
// (gpu::Gpu::set_sampling), when no process runs: a run with samples simulates exactly what one
// without does, and each row holds whole cycles. A launch's end adds a shorter last row.
#pragma once

#include <cstdint>
#include <vector>

#include "app/stat_table.h"
#include "models/gpu/gpu.h"

namespace gputlm::app {

class Sampler {
 public:
  // `every`: interval in core cycles, at least 1. Registers itself with `gpu` (one sampler per
  // GPU).
  Sampler(gpu::Gpu& gpu, uint64_t every);
  // Call before launch `index` runs and after it ended at core cycle `end_cycle`.
  void begin_launch(uint64_t index);
  void end_launch(uint64_t end_cycle);
  // One row per interval, in cycle order: launch, cycle (the interval's end), cycles, counts and
  // rates (columns in a fixed order; app::to_csv writes them).
  const std::vector<StatRow>& rows() const { return m_rows; }

 private:
  // The counters summed over the GPU at one moment.
  struct Totals {
    uint64_t warp_instructions = 0, thread_instructions = 0;
    std::vector<uint64_t> stalls;
    uint64_t l1d_accesses = 0, l1d_hits = 0, l2_accesses = 0, l2_hits = 0;
    uint64_t dram_bytes = 0, row_hits = 0, row_accesses = 0;
  };
  struct Counter {
    enum Kind { L1dAccesses, L1dHits, L2Accesses, L2Hits, DramBytes, RowHits, RowAccesses } kind;
    const uint64_t* value;
  };

  void record(uint64_t cycle);
  Totals read() const;
  void find_counters(gpu::Gpu& gpu);

  const gpu::Gpu& m_gpu;
  std::vector<Counter> m_counters;
  uint64_t m_launch = 0, m_last_cycle = 0;
  Totals m_last;
  std::vector<StatRow> m_rows;
};

}  // namespace gputlm::app
