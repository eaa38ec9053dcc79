// The DRAM controller's queue indexed by bank: how many queued requests want each row of each
// bank, so that "does a queued request want this row" (a bank's open row kept open for the next
// request, a bank that can serve a row hit while row changes must wait) costs a look at one bank's
// few rows instead of a scan of the whole queue.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

namespace gputlm::mem {

class DramRowIndex {
 public:
  explicit DramRowIndex(uint32_t banks) : m_rows(banks) {}

  void add(uint32_t bank, uint64_t row) {
    for (auto& [r, n] : m_rows[bank])
      if (r == row) {
        ++n;
        return;
      }
    m_rows[bank].emplace_back(row, 1);
  }
  void remove(uint32_t bank, uint64_t row) {
    auto& rows = m_rows[bank];
    for (size_t i = 0; i < rows.size(); ++i)
      if (rows[i].first == row) {
        if (--rows[i].second == 0) {
          rows[i] = rows.back();
          rows.pop_back();
        }
        return;
      }
  }
  // Queued requests for `row` of `bank`.
  uint32_t count(uint32_t bank, uint64_t row) const {
    for (const auto& [r, n] : m_rows[bank])
      if (r == row) return n;
    return 0;
  }

 private:
  std::vector<std::vector<std::pair<uint64_t, uint32_t>>>
      m_rows;  // per bank: (row, requests queued for it)
};

}  // namespace gputlm::mem
