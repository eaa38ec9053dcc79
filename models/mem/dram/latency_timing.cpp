// "latency": the papers' DRAM abstraction (Narasiman dissertation Table 5.1 and section 6.6): a
// row hit takes row_hit cycles and is pipelined (a bank starts one a cycle), a row conflict
// takes row_conflict cycles of which row_conflict - row_hit keep the bank busy opening the row
// (so conflicts in one bank serialise), an access to a closed bank takes row_empty. With
// conflict_busy "access", a row change also waits until the bank's earlier accesses are done. The
// bus moves one transfer at a time: with bus_order "issue" in the order accesses start (a hit
// behind a conflict of another bank waits for that conflict's data), with "data" each in the first
// free bus slot once its data is ready. Latencies
// count to the end of the data transfer; the data bus moves bandwidth_gbps, so a line occupies
// it for line bytes / (bytes per cycle) cycles and transfers never overlap.
#include <algorithm>
#include <cmath>
#include <map>
#include <vector>

#include "models/mem/dram/dram_timing.h"

namespace gputlm::mem {
namespace {

class LatencyTimingModel : public IDramTiming {
 public:
  explicit LatencyTimingModel(const DramSpec& s)
      : m_t(s.latency),
        m_bytes_per_cycle(s.latency.bandwidth_gbps * 1000.0 / s.clock_mhz),
        m_access_busy(s.latency.conflict_busy == "access"),
        m_data_order(s.latency.bus_order == "data"),
        m_banks(s.banks) {}

  Cycle bank_ready(uint32_t bank, Cycle now) const override {
    return std::max(now, m_banks[bank].ready_at);
  }
  Cycle row_change_ready(uint32_t bank, Cycle now) const override {
    return std::max({now, m_banks[bank].ready_at, m_banks[bank].change_at});
  }
  std::optional<uint64_t> open_row(uint32_t bank) const override { return m_banks[bank].open_row; }
  Cycle bus_busy_cycles() const override { return m_bus_busy; }

  DramIssue issue(const DramAccess& a, Cycle now, bool keep_open) override {
    Bank& b = m_banks[a.bank];
    DramIssue r;
    uint64_t latency = m_t.row_hit;
    if (!b.open_row) {
      r.outcome = RowOutcome::Empty;
      latency = m_t.row_empty;
    } else if (*b.open_row != a.row) {
      r.outcome = RowOutcome::Conflict;
      latency = m_t.row_conflict;
      r.precharged = true;
    }
    const Cycle opening = latency - m_t.row_hit;  // cycles the bank spends opening the row
    r.precharge_at = now;
    r.activate_at = r.precharged ? now + opening / 2 : now;
    r.activated = r.outcome != RowOutcome::Hit;
    r.column_at = now + opening;
    const Cycle transfer =
        std::max<Cycle>(1, static_cast<Cycle>(std::ceil(a.bytes / m_bytes_per_cycle - 1e-9)));
    r.bus_start = m_data_order ? free_slot(now, now + latency - transfer, transfer)
                               : std::max(now + latency, m_bus_free + transfer) - transfer;
    r.done = r.bus_start + transfer;
    m_bus_free = std::max(m_bus_free, r.done);
    m_bus_busy += transfer;
    b.ready_at = now + std::max<Cycle>(opening, 1);
    if (m_access_busy)
      b.change_at = std::max(b.change_at, r.done);  // the next row change waits for this access
    b.open_row = keep_open ? std::optional<uint64_t>(a.row) : std::nullopt;
    return r;
  }

 private:
  struct Bank {
    std::optional<uint64_t> open_row;
    Cycle ready_at = 0;
    Cycle change_at = 0;  // conflict_busy "access": when the last access's data is out
  };
  LatencyTiming m_t;
  double m_bytes_per_cycle;
  bool m_access_busy;
  bool m_data_order;
  std::map<Cycle, Cycle> m_reserved;  // bus_order "data": transfers to come, start -> end

  // The first start at or after `earliest` of `length` free bus cycles; reserves them. Drops the
  // reservations that ended by `now` (every later access's data comes later still).
  Cycle free_slot(Cycle now, Cycle earliest, Cycle length) {
    while (!m_reserved.empty() && m_reserved.begin()->second <= now)
      m_reserved.erase(m_reserved.begin());
    Cycle s = earliest;
    auto it = m_reserved.upper_bound(s);
    if (it != m_reserved.begin() && std::prev(it)->second > s) s = std::prev(it)->second;
    for (; it != m_reserved.end() && it->first < s + length; ++it) s = std::max(s, it->second);
    m_reserved.emplace(s, s + length);
    return s;
  }
  std::vector<Bank> m_banks;
  Cycle m_bus_free = 0;
  Cycle m_bus_busy = 0;
};

}  // namespace

std::unique_ptr<IDramTiming> make_dram_timing(const DramSpec& spec) {
  return std::make_unique<LatencyTimingModel>(spec);
}

}  // namespace gputlm::mem
