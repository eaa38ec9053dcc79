#include "models/func/device_services.h"

namespace gputlm::func {
namespace {

bool calls(const isa::Kernel& k, std::initializer_list<isa::Builtin> which) {
  for (const isa::CallSite& s : k.calls)
    for (isa::Builtin b : which)
      if (s.builtin == b) return true;
  return false;
}

}  // namespace

void DeviceServices::begin_launch(const isa::Kernel& kernel, GlobalMemory& memory) {
  using isa::Builtin;
  if (calls(kernel, {Builtin::Vprintf})) m_fifo_fixed = true;
  if (calls(kernel, {Builtin::Malloc, Builtin::Free, Builtin::AlignedMalloc, Builtin::CdpMalloc,
                     Builtin::CdpFree, Builtin::CdpGetParameterBuffer, Builtin::CdpGetErrorString}))
    reserve_heap(memory);
}

bool DeviceServices::set_printf_fifo_bytes(uint64_t bytes) {
  if (m_fifo_fixed) return false;
  m_fifo_bytes = bytes;
  return true;
}

bool DeviceServices::set_heap_bytes(uint64_t bytes) {
  if (m_heap) return false;
  m_heap_bytes = bytes;
  return true;
}

bool DeviceServices::print(std::string text, uint64_t record_bytes) {
  m_fifo_fixed = true;
  if (record_bytes > m_fifo_bytes - m_fifo_used) {
    ++m_dropped;
    return false;
  }
  m_fifo_used += record_bytes;
  m_records.push_back(std::move(text));
  return true;
}

std::string DeviceServices::take_output() {
  std::string out;
  for (const std::string& r : m_records) out += r;
  m_records.clear();
  m_fifo_used = 0;
  return out;
}

void DeviceServices::reserve_heap(GlobalMemory& memory) {
  if (m_heap) return;
  const uint64_t base = m_heap_bytes ? memory.allocate(m_heap_bytes, "device malloc heap") : 0;
  m_heap = std::make_unique<DeviceHeap>(base, m_heap_bytes);
}

uint64_t DeviceServices::malloc(GlobalMemory& memory, uint64_t bytes, uint64_t align) {
  reserve_heap(memory);
  return m_heap->allocate(bytes, align);
}

bool DeviceServices::free(uint64_t address) { return m_heap && m_heap->release(address); }

std::vector<std::string> DeviceServices::take_assertions() {
  std::vector<std::string> out;
  out.swap(m_assertions);
  return out;
}

}  // namespace gputlm::func
