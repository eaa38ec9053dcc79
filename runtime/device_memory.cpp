#include "runtime/device_memory.h"

#include <cstdlib>
#include <cstring>
#include <sys/mman.h>
#include <vector>

namespace gputlm::runtime {

uint64_t DeviceMemory::allocate(uint64_t bytes, bool managed) {
  if (bytes == 0) bytes = 1;
  const uint64_t addr = m_global.allocate(bytes, managed ? "managed" : "cudaMalloc");
  if (!managed) return addr;
  void* host = mmap(reinterpret_cast<void*>(addr), bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
  if (host != reinterpret_cast<void*>(addr)) {
    if (host != MAP_FAILED) munmap(host, bytes);
    return 0;
  }
  m_managed[addr] = bytes;
  return addr;
}

CudaError DeviceMemory::free(uint64_t ptr) {
  if (ptr == 0) return kSuccess;
  const func::Allocation* a = m_global.find(ptr, 1);
  if (!a || a->base != ptr || m_freed.count(ptr)) return kErrorInvalidDevicePointer;
  // GlobalMemory never unmaps: a freed range stays reserved (never handed out again), so a
  // use after free reads stale data instead of another buffer's.
  m_freed[ptr] = a->size;
  if (auto it = m_managed.find(ptr); it != m_managed.end()) {
    munmap(reinterpret_cast<void*>(ptr), it->second);
    m_managed.erase(it);
  }
  return kSuccess;
}

void* DeviceMemory::allocate_host(size_t bytes) {
  void* p = std::aligned_alloc(256, (bytes + 255) / 256 * 256 + 256);
  if (p) m_host[p] = bytes;
  return p;
}

CudaError DeviceMemory::free_host(void* ptr) {
  if (!ptr) return kSuccess;
  auto it = m_host.find(ptr);
  if (it == m_host.end()) return kErrorInvalidValue;
  std::free(ptr);
  m_host.erase(it);
  return kSuccess;
}

bool DeviceMemory::is_device(uint64_t addr, uint64_t bytes, bool& inside) const {
  inside = true;
  const func::Allocation* a = m_global.find(addr, 1);
  if (!a) return false;
  for (const auto& [base, size] : m_managed)
    if (addr >= base && addr < base + size) return false;  // host-mapped: plain memory to the host
  inside = addr + bytes <= a->base + a->size;
  return true;
}

CudaError DeviceMemory::copy(void* dst, const void* src, size_t bytes, MemcpyKind kind) {
  if (bytes == 0) return kSuccess;
  const uint64_t d = reinterpret_cast<uint64_t>(dst), s = reinterpret_cast<uint64_t>(src);
  bool d_inside = true, s_inside = true;
  const bool d_dev = is_device(d, bytes, d_inside), s_dev = is_device(s, bytes, s_inside);
  if (!d_inside || !s_inside) return kErrorInvalidValue;
  // A kind may call managed memory "device" (it is); it may not call device memory "host".
  const bool d_host_kind = kind == kHostToHost || kind == kDeviceToHost;
  const bool s_host_kind = kind == kHostToHost || kind == kHostToDevice;
  if (kind < kHostToHost || kind > kDefault) return kErrorInvalidMemcpyDirection;
  if (kind != kDefault && ((d_dev && d_host_kind) || (s_dev && s_host_kind))) return kErrorInvalidValue;
  if (d_dev && s_dev) {
    std::vector<uint8_t> buf(bytes);
    m_global.read(s, buf.data(), bytes);
    m_global.write(d, buf.data(), bytes);
  } else if (d_dev) {
    m_global.write(d, src, bytes);
  } else if (s_dev) {
    m_global.read(s, dst, bytes);
  } else {
    std::memmove(dst, src, bytes);
  }
  return kSuccess;
}

CudaError DeviceMemory::set(void* dst, int value, size_t bytes) {
  if (bytes == 0) return kSuccess;
  const uint64_t d = reinterpret_cast<uint64_t>(dst);
  bool inside = true;
  if (!is_device(d, bytes, inside)) {
    if (!m_global.find(d, bytes)) return kErrorInvalidValue;  // cudaMemset takes device (or managed) memory only
    std::memset(dst, value, bytes);
    return kSuccess;
  }
  if (!inside) return kErrorInvalidValue;
  std::vector<uint8_t> buf(bytes, static_cast<uint8_t>(value));
  m_global.write(d, buf.data(), bytes);
  return kSuccess;
}

uint64_t DeviceMemory::in_use() const {
  uint64_t n = 0;
  for (const func::Allocation& a : m_global.allocations()) n += m_freed.count(a.base) ? 0 : a.size;
  return n;
}

void DeviceMemory::managed_to_device() {
  for (const auto& [base, size] : m_managed) m_global.write(base, reinterpret_cast<const void*>(base), size);
}

void DeviceMemory::managed_to_host() {
  for (const auto& [base, size] : m_managed) m_global.read(base, reinterpret_cast<void*>(base), size);
}

}  // namespace gputlm::runtime
