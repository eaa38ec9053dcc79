#include "models/mem/dram/latency_model.h"

#include <algorithm>
#include <stdexcept>
#include <tlm>

namespace gputlm::mem {

LatencyModel::LatencyModel(const DramTimingContext& c)
    : DramTimingModel(c),
      m_heads_only(c.scheduler.bank_heads_only()),
      m_holds(c.scheduler.holds_rows()),
      m_banks(c.spec),
      m_views(c.spec.banks),
      m_bank_start(c.spec.banks, 0),
      m_bank_serials(c.spec.banks) {}

bool LatencyModel::has_room(bool) const { return m_queue.size() < m_spec.queue_depth; }

void LatencyModel::queued(size_t i) {
  const DramQueueEntry& e = m_queue.entry(i);
  if (m_heads_only) m_bank_serials[e.bank].push_back(m_queue.request(i).serial);
  update_bank_start(e.bank);
}

std::optional<DramStart> LatencyModel::step(Cycle now) {
  // A queued request can start now (else no policy picks one): a bank's start cycle has come.
  if (m_queue.empty() || !any_bank_may_start(now)) return std::nullopt;
  for (uint32_t b = 0; b < m_spec.banks; ++b) {
    if (m_queue.queued(b) == 0) continue;  // no entry looks at its view
    DramBankView& v = m_views[b];
    v.ready = m_banks.bank_ready(b, now) == now;
    v.row_change = m_banks.row_change_ready(b, now) == now;
    v.open_row = m_banks.open_row(b);
  }
  int i = -1;
  if (m_heads_only) {
    collect_bank_heads();
    const int k = m_scheduler.pick(m_candidates, now);
    if (k >= 0) i = static_cast<int>(m_candidate_index[static_cast<size_t>(k)]);
  } else {
    mark_ready(m_queue.entries(), m_views);
    i = m_scheduler.pick(m_queue.entries(), now);
  }
  if (i < 0) return std::nullopt;
  const size_t at = static_cast<size_t>(i);
  const DramQueueEntry& e = m_queue.entry(at);
  DramRequest& p = m_queue.request(at);
  const bool keep_open = m_open_page || m_queue.wanted_by_another(at);
  const Cycle bus_busy = m_banks.bus_busy_cycles();
  const DramIssue r =
      m_banks.issue({e.bank, e.row, e.write, p.payload->get_data_length()}, now, keep_open);
  m_counters.bus_busy += m_banks.bus_busy_cycles() - bus_busy;
  p.started = true;
  p.outcome = r.outcome;
  m_counters.count(r.outcome);
  if (r.activated) ++m_counters.activates;
  if (r.precharged) ++m_counters.precharges;
  if (m_waves.on()) {
    record_waves(e.bank, r, e.write, e.row);
    if (!keep_open) m_waves.close_row(m_clock.time_of(r.done), e.bank);
  }
  return DramStart{at, r.done};
}

void LatencyModel::collect_bank_heads() {
  m_candidate_index.clear();
  const std::vector<DramRequest>& requests = m_queue.requests();
  for (uint32_t b = 0; b < m_spec.banks; ++b) {
    const DramBankView& v = m_views[b];
    if (m_bank_serials[b].empty() || !v.ready)
      continue;  // a head that cannot start: no policy picks it
    const auto at =
        std::lower_bound(requests.begin(), requests.end(), m_bank_serials[b].front(),
                         [](const DramRequest& p, uint64_t serial) { return p.serial < serial; });
    const size_t i = static_cast<size_t>(at - requests.begin());
    if (v.row_change || (v.open_row && *v.open_row == m_queue.entry(i).row))
      m_candidate_index.push_back(i);
  }
  std::sort(m_candidate_index.begin(), m_candidate_index.end());
  m_candidates.clear();
  for (size_t i : m_candidate_index) m_candidates.push_back(m_queue.entry(i));
  mark_ready(m_candidates, m_views);
}

void LatencyModel::started(const DramQueueEntry& e, const DramRequest& r) {
  if (m_heads_only) {
    if (m_bank_serials[e.bank].front() != r.serial)
      throw std::logic_error(m_owner + ": the policy picked a request behind its bank's oldest");
    m_bank_serials[e.bank].pop_front();
  }
  update_bank_start(e.bank);
}

Cycle LatencyModel::next_wake(Cycle now) const {
  Cycle next = kNever;
  if (!m_holds) {  // the banks with a request queued: when can they start one?
    for (uint32_t b = 0; b < m_spec.banks; ++b)
      if (m_queue.queued(b) > 0) next = std::min(next, std::max(now + 1, m_bank_start[b]));
    return next;
  }
  for (uint32_t b = 0; b < m_spec.banks; ++b) {  // ... and a policy's holds
    if (m_queue.queued(b) == 0) continue;
    Cycle ready = m_banks.bank_ready(b, now + 1);
    if (const Cycle change = m_banks.row_change_ready(b, now + 1);
        change > ready) {  // only other rows wait
      const std::optional<uint64_t> open = m_banks.open_row(b);
      if (!open || !m_queue.queued_for(b, *open)) ready = change;
    }
    if (const std::optional<DramHold> h = m_scheduler.hold(b, now + 1);
        h && !m_queue.queued_for(b, h->row))
      ready = std::max(
          ready,
          h->until);  // held for a row nobody has asked for yet: only a new request changes that
    next = std::min(next, std::max(now + 1, ready));
  }
  return next;
}

// A bank's state changes only when it starts an access; what is queued for the bank, when a
// request comes or starts.
void LatencyModel::update_bank_start(uint32_t bank) {
  const std::optional<uint64_t> open = m_banks.open_row(bank);
  m_bank_start[bank] = open && m_queue.queued_for(bank, *open) ? m_banks.bank_ready(bank, 0)
                                                               : m_banks.row_change_ready(bank, 0);
}

bool LatencyModel::any_bank_may_start(Cycle now) const {
  for (uint32_t b = 0; b < m_spec.banks; ++b)
    if (m_queue.queued(b) > 0 && m_bank_start[b] <= now) return true;
  return false;
}

void LatencyModel::record_waves(uint32_t bank, const DramIssue& r, bool write, uint64_t row) {
  auto at = [this](Cycle c) { return m_clock.time_of(c); };
  if (r.precharged) m_waves.command(at(r.precharge_at), bank, DramCommand::Precharge);
  if (r.activated) {
    m_waves.command(at(r.activate_at), bank, DramCommand::Activate);
    m_waves.open_row(at(r.activate_at), bank, row);
  }
  m_waves.command(at(r.column_at), bank, write ? DramCommand::Write : DramCommand::Read);
  m_waves.transfer(bank, at(r.bus_start), at(r.done));
}

namespace {
const DramTimingRegistration kLatency("latency", [](const DramTimingContext& c) {
  return std::make_unique<LatencyModel>(c);
});
}  // namespace

}  // namespace gputlm::mem
