// "command": a command-level DRAM model. An access issues PRE (row conflict), ACT (conflict or
// closed bank) and one RD/WR per burst, each at the earliest cycle its constraints allow:
//   ACT -> RD/WR  tRCD        ACT -> PRE  tRAS        PRE -> ACT  tRP
//   ACT -> ACT    tRRD (any bank)          RD/WR -> RD/WR  tCCD (any bank)
//   RD -> data    tCL         WR -> data  tWL         write data -> PRE  tWR
// A burst moves burst_length beats of bus_bytes at data_rate beats per clock; bursts never overlap
// on the data bus. Commands are reserved in the future when the access starts (the controller
// sees the bank busy until its last column command).
#include <algorithm>
#include <vector>

#include "models/mem/dram/dram_timing.h"

namespace gputlm::mem {
namespace {

class CommandTimingModel : public IDramTiming {
 public:
  explicit CommandTimingModel(const DramSpec& s) : m_c(s.command), m_banks(s.banks) {}

  Cycle bank_ready(uint32_t bank, Cycle now) const override { return std::max(now, m_banks[bank].busy_until); }
  std::optional<uint64_t> open_row(uint32_t bank) const override { return m_banks[bank].open_row; }
  Cycle bus_busy_cycles() const override { return m_bus_busy; }

  DramIssue issue(const DramAccess& a, Cycle now, bool keep_open) override {
    Bank& b = m_banks[a.bank];
    DramIssue r;
    Cycle col = std::max({now, b.next_col});
    if (!b.open_row || *b.open_row != a.row) {
      r.outcome = b.open_row ? RowOutcome::Conflict : RowOutcome::Empty;
      Cycle act = std::max({now, b.next_act, m_next_act_any});
      if (b.open_row) {
        r.precharged = true;
        r.precharge_at = std::max(now, b.next_pre);
        act = std::max(act, r.precharge_at + m_c.tRP);
      }
      r.activated = true;
      r.activate_at = act;
      m_next_act_any = act + m_c.tRRD;
      b.next_pre = act + m_c.tRAS;
      col = act + m_c.tRCD;
    }
    const Cycle burst = m_c.burst_length / m_c.data_rate;
    const uint64_t per_burst = m_c.burst_length * m_c.bus_bytes;
    const uint64_t bursts = std::max<uint64_t>(1, (a.bytes + per_burst - 1) / per_burst);
    const Cycle to_data = a.write ? m_c.tWL : m_c.tCL;
    Cycle last_col = 0;
    for (uint64_t k = 0; k < bursts; ++k) {
      col = std::max({col, m_next_col_any});
      const Cycle data = std::max(col + to_data, m_bus_free);
      col = data - to_data;
      if (k == 0) {
        r.column_at = col;
        r.bus_start = data;
      }
      m_bus_free = data + burst;
      m_bus_busy += burst;
      m_next_col_any = col + std::max(m_c.tCCD, burst);
      last_col = col;
      col += std::max(m_c.tCCD, burst);
    }
    r.done = m_bus_free;
    b.next_col = m_next_col_any;
    b.next_pre = std::max(b.next_pre, a.write ? r.done + m_c.tWR : last_col + burst);
    b.busy_until = last_col + 1;
    b.open_row = a.row;
    if (!keep_open) {  // closed page: precharge as soon as allowed
      b.next_act = b.next_pre + m_c.tRP;
      b.open_row.reset();
    }
    return r;
  }

 private:
  struct Bank {
    std::optional<uint64_t> open_row;
    Cycle next_act = 0, next_col = 0, next_pre = 0, busy_until = 0;
  };
  CommandTiming m_c;
  std::vector<Bank> m_banks;
  Cycle m_next_act_any = 0, m_next_col_any = 0, m_bus_free = 0, m_bus_busy = 0;
};

}  // namespace

std::unique_ptr<IDramTiming> make_command_timing(const DramSpec& spec) { return std::make_unique<CommandTimingModel>(spec); }

}  // namespace gputlm::mem
