#include "models/func/device_launches.h"

namespace gputlm::func {

void DeviceLaunches::add_buffer(uint64_t address, ChildLaunch child) {
  child.depth = m_depth + 1;
  m_buffers[address] = std::move(child);
}

int DeviceLaunches::launch(uint64_t address, const GlobalMemory& memory) {
  auto it = m_buffers.find(address);
  if (it == m_buffers.end()) return kErrorInvalidValue;
  ChildLaunch child = std::move(it->second);
  m_buffers.erase(it);
  if (child.depth > kMaxDepth) return kErrorLaunchMaxDepthExceeded;
  if (m_pending.size() >= m_pending_limit) return kErrorLaunchPendingCountExceeded;
  child.params.assign(child.kernel->param_bytes, 0);
  if (!child.params.empty()) memory.read(address, child.params.data(), child.params.size());
  m_pending.push_back(std::move(child));
  ++m_launched;
  return kSuccess;
}

ChildLaunch DeviceLaunches::take_next() {
  ChildLaunch c = std::move(m_pending.front());
  m_pending.pop_front();
  return c;
}

}  // namespace gputlm::func
