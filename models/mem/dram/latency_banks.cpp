#include "models/mem/dram/latency_banks.h"

#include <algorithm>
#include <cmath>
#include <iterator>

namespace gputlm::mem {

LatencyBanks::LatencyBanks(const DramSpec& s)
    : m_t(s.latency),
      m_bytes_per_cycle(s.latency.bandwidth_gbps * 1000.0 / s.clock_mhz),
      m_access_busy(s.latency.conflict_busy == "access"),
      m_data_order(s.latency.bus_order == "data"),
      m_banks(s.banks) {}

DramIssue LatencyBanks::issue(const DramAccess& a, Cycle now, bool keep_open) {
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

Cycle LatencyBanks::free_slot(Cycle now, Cycle earliest, Cycle length) {
  while (!m_reserved.empty() && m_reserved.begin()->second <= now)
    m_reserved.erase(m_reserved.begin());
  Cycle s = earliest;
  auto it = m_reserved.upper_bound(s);
  if (it != m_reserved.begin() && std::prev(it)->second > s) s = std::prev(it)->second;
  for (; it != m_reserved.end() && it->first < s + length; ++it) s = std::max(s, it->second);
  m_reserved.emplace(s, s + length);
  return s;
}

}  // namespace gputlm::mem
