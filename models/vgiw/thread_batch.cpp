#include "models/vgiw/thread_batch.h"

namespace gputlm::vgiw {

std::vector<uint32_t> ThreadBatch::threads() const {
  std::vector<uint32_t> out;
  for (uint64_t m = bitmap; m; m &= m - 1)
    out.push_back(base + static_cast<uint32_t>(__builtin_ctzll(m)));
  return out;
}

std::array<uint8_t, 10> ThreadBatch::pack() const {
  std::array<uint8_t, 10> p{};
  p[0] = static_cast<uint8_t>(base);
  p[1] = static_cast<uint8_t>(base >> 8);
  for (int i = 0; i < 8; ++i) p[2 + i] = static_cast<uint8_t>(bitmap >> (8 * i));
  return p;
}

ThreadBatch ThreadBatch::unpack(const std::array<uint8_t, 10>& p) {
  ThreadBatch b;
  b.base = static_cast<uint16_t>(p[0] | (p[1] << 8));
  for (int i = 0; i < 8; ++i) b.bitmap |= uint64_t{p[2 + i]} << (8 * i);
  return b;
}

ThreadBatch BatchCollector::add(uint32_t tid) {
  const uint16_t window = static_cast<uint16_t>(tid / ThreadBatch::kWidth * ThreadBatch::kWidth);
  for (uint32_t i = 0; i < 2; ++i) {
    if (m_open[i] && m_pair[i].base == window) {
      m_pair[i].bitmap |= uint64_t{1} << (tid - window);
      return {};
    }
  }
  ThreadBatch out;
  uint32_t slot = !m_open[0] ? 0 : !m_open[1] ? 1 : m_older;
  if (m_open[0] && m_open[1]) {  // both windows in use: the older one goes to the scheduler
    out = m_pair[slot];
    m_older = 1 - slot;
  } else if (m_open[1 - slot]) {
    m_older = 1 - slot;  // the other one was there first
  } else {
    m_older = slot;
  }
  m_pair[slot] = ThreadBatch{window, uint64_t{1} << (tid - window)};
  m_open[slot] = true;
  return out;
}

std::vector<ThreadBatch> BatchCollector::flush() {
  std::vector<ThreadBatch> out;
  for (uint32_t k = 0; k < 2; ++k) {
    const uint32_t i = k == 0 ? m_older : 1 - m_older;
    if (m_open[i]) out.push_back(m_pair[i]);
    m_open[i] = false;
  }
  return out;
}

}  // namespace gputlm::vgiw
