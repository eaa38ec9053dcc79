// What happens to a kernel's global access outside every allocation. On a GPU, an access that
// lands in a page the device has mapped (GlobalMemory::mapped: the 2 MB pages that hold an
// allocation) reads or writes what memory holds there, and only a tool such as compute-sanitizer
// reports it; elsewhere it faults. The functional engine does the same, recording a warning with
// the detail a fault has (kernel, CTA, thread, PC, PTX line, address). Strict mode (gputlm cuda
// --memcheck) makes every such access a fault, as compute-sanitizer's memcheck tool does. A launch
// without a MemoryCheck (Launch::memcheck null: gputlm run's workloads, the unit tests) faults on
// every such access.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace gputlm::func {

class MemoryCheck {
 public:
  static constexpr size_t kShown = 10;  // messages kept of each launch's warnings

  explicit MemoryCheck(bool strict) : m_strict(strict) {}
  bool strict() const { return m_strict; }

  // An access served from mapped memory outside every allocation.
  void warn(std::string message) {
    if (m_first.size() < kShown) m_first.push_back(std::move(message));
    ++m_count;
  }
  // The warnings since the last call: how many, and the first kShown messages (moved to `first`).
  uint64_t take(std::vector<std::string>& first) {
    first = std::move(m_first);
    m_first.clear();
    return std::exchange(m_count, 0);
  }

 private:
  bool m_strict;
  uint64_t m_count = 0;
  std::vector<std::string> m_first;
};

}  // namespace gputlm::func
