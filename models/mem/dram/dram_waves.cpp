#include "models/mem/dram/dram_waves.h"

namespace gputlm::mem {

DramWaves::DramWaves(const ClockDomain& clock, uint32_t banks, bool holds)
    : m_clock(clock),
      m_banks(banks),
      m_holds(holds),
      m_row(banks, kNoRow),
      m_cmd(banks, 0),
      m_issues(banks, 0),
      m_held_row(banks, kNoRow),
      m_hold_until(banks, 0),
      m_hold_changes(banks, 0) {}

void DramWaves::transfer(uint32_t bank, const sc_core::sc_time& start,
                         const sc_core::sc_time& done) {
  const uint64_t issue_no = ++m_issues[bank];
  m_timeline.set(done, &m_cmd[bank], uint64_t(DramCommand::Idle), &m_issues[bank], issue_no);
  m_timeline.set(start, &m_bus, 1);
  m_timeline.set(done, &m_bus, 0);
}

// The held row and the cycle the hold ends, back to none at that cycle unless a later issue
// changed the hold first.
void DramWaves::hold(uint32_t bank, const std::optional<DramHold>& h) {
  const uint64_t no = ++m_hold_changes[bank];
  m_timeline.set(sim_now(), &m_held_row[bank], h ? h->row & 0xFFFFFFFFull : kNoRow);
  m_timeline.set(sim_now(), &m_hold_until[bank], h ? h->until : 0);
  if (!h) return;
  m_timeline.set(m_clock.time_of(h->until), &m_held_row[bank], kNoRow, &m_hold_changes[bank], no);
  m_timeline.set(m_clock.time_of(h->until), &m_hold_until[bank], 0, &m_hold_changes[bank], no);
}

void DramWaves::declare(WaveList& waves, const std::string& n) const {
  using F = WaveSignal::Format;
  waves.group(n + ": queue occupancy, data bus busy");
  waves.add(m_queue, n + ".queue", 16);
  waves.add(m_bus, n + ".data_bus_busy", 1, F::Bin);
  const WaveNames commands{"dram_command",
                           {{0, "idle"}, {1, "ACT"}, {2, "RD"}, {3, "WR"}, {4, "PRE"}, {5, "REF"}}};
  for (uint32_t b = 0; b < m_banks; ++b) {
    const std::string p = n + ".bank" + std::to_string(b);
    // With the row-buffer hint's hold: the row kept open and the cycle it lasts to.
    waves.group(p + ": command, open row (FFFFFFFF: closed)" +
                (m_holds ? ", held row, hold end" : ""));
    waves.add(m_cmd[b], p + ".command", 3, F::Dec, commands);
    waves.add(m_row[b], p + ".open_row", 32, F::Hex);
    if (!m_holds) continue;
    waves.add(m_held_row[b], p + ".held_row", 32, F::Hex);
    waves.add(m_hold_until[b], p + ".hold_until", 32);
  }
}

}  // namespace gputlm::mem
