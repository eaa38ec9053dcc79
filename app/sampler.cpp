#include "app/sampler.h"

#include "models/common/stats.h"
#include "models/core/core_counters.h"

namespace gputlm::app {

namespace {
bool starts_with(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

const uint64_t* counter(const StatGroup& g, const char* name) {
  for (const StatGroup::Entry& e : g.entries())
    if (e.kind == StatGroup::Kind::kCounter && e.value && e.name == name) return e.value;
  return nullptr;
}
}  // namespace

Sampler::Sampler(gpu::Gpu& gpu, uint64_t every) : m_gpu(gpu) {
  find_counters(gpu);
  m_last = read();
  gpu.set_sampling(every ? every : 1, [this](Cycle cycle) { record(cycle); });
}

// The caches and DRAM controllers by their place in the GPU (gpu.coreN.l1d, gpu.l2_N, gpu.dramN).
void Sampler::find_counters(gpu::Gpu& gpu) {
  for (const auto& named : stat_providers({&gpu})) {
    const std::string& name = named.first;
    const StatProvider* provider =
        named.second;  // (a structured binding cannot be captured in C++17)
    const std::string local = name.substr(name.rfind('.') + 1);
    auto add = [&](Counter::Kind kind, const char* stat) {
      if (const uint64_t* v = counter(provider->stats(), stat)) m_counters.push_back({kind, v});
    };
    if (local == "l1d") {
      add(Counter::L1dAccesses, "accesses");
      add(Counter::L1dHits, "hits");
    } else if (starts_with(local, "l2_")) {
      add(Counter::L2Accesses, "accesses");
      add(Counter::L2Hits, "hits");
    } else if (starts_with(local, "dram")) {
      add(Counter::DramBytes, "bytes");
      add(Counter::RowHits, "row_hits");
      for (const char* s : {"row_hits", "row_empties", "row_conflicts"})
        add(Counter::RowAccesses, s);
    }
  }
}

Sampler::Totals Sampler::read() const {
  Totals t;
  t.stalls.assign(static_cast<size_t>(core::StallCause::kCount), 0);
  for (const auto& c : m_gpu.cores()) {
    const core::CoreCounters& k = c->counters();
    t.warp_instructions += k.warp_instructions;
    t.thread_instructions += k.thread_instructions;
    for (size_t i = 0; i < t.stalls.size() && i < k.simt.stall_cycles.size(); ++i)
      t.stalls[i] += k.simt.stall_cycles[i];
    c->add_uncharged_stalls(m_gpu.clock().now(), t.stalls);
  }
  for (const Counter& c : m_counters) {
    uint64_t* field[] = {&t.l1d_accesses, &t.l1d_hits, &t.l2_accesses, &t.l2_hits,
                         &t.dram_bytes,   &t.row_hits, &t.row_accesses};
    *field[c.kind] += *c.value;
  }
  return t;
}

void Sampler::begin_launch(uint64_t index) {
  m_launch = index;
  m_last_cycle = m_gpu.clock().now();
  m_last = read();
}

void Sampler::end_launch(uint64_t end_cycle) { record(end_cycle); }

// One row for the cycles since the last one, up to (not including) `cycle`.
void Sampler::record(uint64_t cycle) {
  if (cycle <= m_last_cycle) return;
  const Totals now = read();
  const uint64_t cycles = cycle - m_last_cycle;
  auto d = [](uint64_t a, uint64_t b) { return double(a - b); };
  // A rate over no events is null (an empty CSV cell), not 0.
  auto rate = [](double num, double den) {
    return den == 0 ? nlohmann::json() : nlohmann::json(num / den);
  };
  StatRow row;
  row["launch"] = m_launch;
  row["cycle"] = cycle;
  row["cycles"] = cycles;
  row["thread_instructions"] = now.thread_instructions - m_last.thread_instructions;
  row["warp_instructions"] = now.warp_instructions - m_last.warp_instructions;
  row["ipc"] = ratio(d(now.thread_instructions, m_last.thread_instructions), double(cycles));
  row["active_lanes"] = rate(d(now.thread_instructions, m_last.thread_instructions),
                             d(now.warp_instructions, m_last.warp_instructions));
  for (size_t i = 0; i < now.stalls.size(); ++i)
    row[std::string("stall_cycles.") + core::stall_cause_name(static_cast<core::StallCause>(i))] =
        now.stalls[i] - m_last.stalls[i];
  row["l1d_accesses"] = now.l1d_accesses - m_last.l1d_accesses;
  row["l1d_hit_rate"] =
      rate(d(now.l1d_hits, m_last.l1d_hits), d(now.l1d_accesses, m_last.l1d_accesses));
  row["l2_accesses"] = now.l2_accesses - m_last.l2_accesses;
  row["l2_hit_rate"] = rate(d(now.l2_hits, m_last.l2_hits), d(now.l2_accesses, m_last.l2_accesses));
  row["dram_bytes"] = now.dram_bytes - m_last.dram_bytes;
  // Bytes per core cycle times core cycles per second (MHz * 1e6), in GB/s.
  row["dram_gbps"] =
      ratio(d(now.dram_bytes, m_last.dram_bytes), double(cycles)) * m_gpu.clock().mhz() / 1000.0;
  row["row_accesses"] = now.row_accesses - m_last.row_accesses;
  row["row_buffer_hit_rate"] =
      rate(d(now.row_hits, m_last.row_hits), d(now.row_accesses, m_last.row_accesses));
  m_rows.push_back(std::move(row));
  m_last = now;
  m_last_cycle = cycle;
}

}  // namespace gputlm::app
