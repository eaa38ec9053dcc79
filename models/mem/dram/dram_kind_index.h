// The command model's queue by kind: per bank and direction, the queued requests whose row was not
// yet opened for them and those whose row was, each in arrival order (serials). The requests of one
// bank alike in next command (ACT on a closed bank, RD/WR on the open row, PRE for another row),
// opened flag and direction share whether and when that command may go, so the scheduler and the
// next wake-up need only the oldest of each kind: a look at the front of a bank's short lists
// instead of a scan of the whole queue each cycle.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

#include "models/mem/dram/dram_device.h"
#include "models/mem/dram/dram_scheduler.h"

namespace gputlm::mem {

class DramKindIndex {
 public:
  explicit DramKindIndex(uint32_t banks) : m_banks(banks) {}

  struct Request {
    uint64_t serial;
    DramQueueEntry entry;  // as queued
  };

  // Request `serial` (later than any queued) was queued as `e`.
  void add(const DramQueueEntry& e, uint64_t serial) {
    m_banks[e.bank].waiting[e.write].push_back({serial, e});
  }
  // Its row was opened for it (its ACT went).
  void activate(uint32_t bank, bool write, uint64_t serial) {
    std::vector<Request>& q = m_banks[bank].waiting[write];
    const auto i = find(q, serial);
    const Request r = *i;
    q.erase(i);
    std::vector<Request>& a = m_banks[bank].opened[write];
    a.insert(std::upper_bound(a.begin(), a.end(), r, older), r);
  }
  // It left the queue.
  void remove(uint32_t bank, bool write, uint64_t serial, bool activated) {
    Bank& b = m_banks[bank];
    std::vector<Request>& q = activated ? b.opened[write] : b.waiting[write];
    q.erase(find(q, serial));
  }

  // Calls f(cmd, opened, request) for each kind of request queued for `bank` whose row is `open`
  // (nullopt: closed), with its oldest request.
  template <class F>
  void for_each_kind(uint32_t bank, const std::optional<uint64_t>& open, F&& f) const {
    const Bank& b = m_banks[bank];
    for (int w = 0; w < 2; ++w) {
      const DramCmd column = w ? DramCmd::Write : DramCmd::Read;
      if (!b.opened[w].empty()) f(open ? column : DramCmd::Act, true, b.opened[w][0]);
      const std::vector<Request>& q = b.waiting[w];
      if (q.empty()) continue;
      if (!open) {
        f(DramCmd::Act, false, q[0]);
        continue;
      }
      bool hit = false, miss = false;
      for (size_t i = 0; i < q.size() && !(hit && miss); ++i) {
        if (q[i].entry.row == *open) {
          if (!hit) f(column, false, q[i]);
          hit = true;
        } else {
          if (!miss) f(DramCmd::Pre, false, q[i]);
          miss = true;
        }
      }
    }
  }

 private:
  static bool older(const Request& a, const Request& b) { return a.serial < b.serial; }
  static std::vector<Request>::iterator find(std::vector<Request>& q, uint64_t serial) {
    return std::lower_bound(q.begin(), q.end(), serial,
                            [](const Request& r, uint64_t s) { return r.serial < s; });
  }
  struct Bank {
    std::vector<Request> waiting[2];  // by direction, oldest first: row not yet opened for them
    std::vector<Request> opened[2];   // ... row opened for them
  };

  std::vector<Bank> m_banks;
};

}  // namespace gputlm::mem
