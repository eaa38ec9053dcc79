// A DRAM controller's request queue: the requests a channel has taken and not yet started, oldest
// first, each as the scheduling policy sees it (DramQueueEntry) beside what the controller keeps
// about it (DramRequest), with how many are queued per bank and per row of each bank
// (DramRowIndex). The module shell (dram_controller.h) queues and dequeues; its timing model
// (dram_timing.h) reads the queue and marks the requests' progress.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "models/mem/dram/dram_row_index.h"
#include "models/mem/dram/dram_row_outcome.h"
#include "models/mem/dram/dram_scheduler.h"

namespace tlm {
class tlm_generic_payload;
}

namespace gputlm::mem {

struct DramRequest {
  tlm::tlm_generic_payload* payload = nullptr;
  bool started = false;    // its first step has gone (its row outcome is counted)
  bool activated = false;  // its row was opened for it (command model)
  uint32_t columns = 0;    // column commands still to issue (command model; set when queued)
  RowOutcome outcome = RowOutcome::Hit;
  uint64_t serial = 0;  // its place in arrival order (ascending along the queue)
};

class DramQueue {
 public:
  explicit DramQueue(uint32_t banks) : m_rows(banks), m_bank_queued(banks, 0) {}

  size_t size() const { return m_entries.size() - m_head; }
  bool empty() const { return size() == 0; }
  // What the policy sees, oldest first (the latency model marks them ready in place), and the
  // requests beside them: the vectors themselves, the places erased at the front dropped first.
  std::vector<DramQueueEntry>& entries() {
    compact();
    return m_entries;
  }
  const std::vector<DramRequest>& requests() {
    compact();
    return m_requests;
  }
  const DramQueueEntry& entry(size_t i) const { return m_entries[m_head + i]; }
  DramRequest& request(size_t i) { return m_requests[m_head + i]; }
  const DramRequest& request(size_t i) const { return m_requests[m_head + i]; }
  // The index of the request with `serial` (queued).
  size_t index_of(uint64_t serial) const {
    const auto first = m_requests.begin() + static_cast<std::ptrdiff_t>(m_head);
    return static_cast<size_t>(
        std::lower_bound(first, m_requests.end(), serial,
                         [](const DramRequest& r, uint64_t s) { return r.serial < s; }) -
        first);
  }
  // Requests queued for `bank`, and for `row` of `bank`.
  uint32_t queued(uint32_t bank) const { return m_bank_queued[bank]; }
  uint32_t queued_for(uint32_t bank, uint64_t row) const { return m_rows.count(bank, row); }
  // Whether a queued request other than i wants request i's row (a closed page keeps it open).
  bool wanted_by_another(size_t i) const {
    const DramQueueEntry& e = entry(i);
    return m_rows.count(e.bank, e.row) > 1;
  }

  // Queues `e` (the newest) for `payload`.
  void push(const DramQueueEntry& e, tlm::tlm_generic_payload* payload) {
    if (m_head > 0 && m_head >= size()) compact();  // the dropped places outnumber the queued
    m_entries.push_back(e);
    ++m_bank_queued[e.bank];
    m_rows.add(e.bank, e.row);
    m_requests.push_back({payload});
    m_requests.back().serial = m_next_serial++;
  }
  // Takes request i out of the queue, moving the requests on the shorter side of it: those before
  // it one place back (the front's place is dropped) or those after it one place forward. A
  // scheduler mostly serves old requests, so an erase moves few.
  void erase(size_t i) {
    const DramQueueEntry& e = entry(i);
    --m_bank_queued[e.bank];
    m_rows.remove(e.bank, e.row);
    const auto at = static_cast<std::ptrdiff_t>(m_head + i);
    if (i < size() / 2) {
      const auto head = static_cast<std::ptrdiff_t>(m_head);
      std::move_backward(m_entries.begin() + head, m_entries.begin() + at,
                         m_entries.begin() + at + 1);
      std::move_backward(m_requests.begin() + head, m_requests.begin() + at,
                         m_requests.begin() + at + 1);
      ++m_head;
    } else {
      m_entries.erase(m_entries.begin() + at);
      m_requests.erase(m_requests.begin() + at);
    }
    if (empty()) compact();
  }

 private:
  // Drops the places erased at the front.
  void compact() {
    if (m_head == 0) return;
    const auto head = static_cast<std::ptrdiff_t>(m_head);
    m_entries.erase(m_entries.begin(), m_entries.begin() + head);
    m_requests.erase(m_requests.begin(), m_requests.begin() + head);
    m_head = 0;
  }

  std::vector<DramQueueEntry> m_entries;  // the queue is [m_head, end)
  std::vector<DramRequest> m_requests;    // m_requests[i] is m_entries[i]'s
  size_t m_head = 0;                      // places erased at the front, not yet dropped
  DramRowIndex m_rows;
  std::vector<uint32_t> m_bank_queued;
  uint64_t m_next_serial = 0;
};

}  // namespace gputlm::mem
