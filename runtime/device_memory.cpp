#include "runtime/device_memory.h"

#include <sys/mman.h>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace gputlm::runtime {

namespace {
// Maps host pages at device address `addr` (the one-address memory of the header); false when the
// address is taken on the host.
bool map_at(uint64_t addr, uint64_t bytes) {
  void* host = mmap(reinterpret_cast<void*>(addr), bytes, PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
  if (host == reinterpret_cast<void*>(addr)) return true;
  if (host != MAP_FAILED) munmap(host, bytes);
  return false;
}
}  // namespace

uint64_t DeviceMemory::reserve(uint64_t bytes, const char* name, bool host_pages) {
  if (bytes == 0) bytes = 1;
  if (bytes > m_capacity || m_in_use > m_capacity - bytes) return 0;
  m_in_use += bytes;
  return m_global.allocate(bytes, name, host_pages ? kHostPage : 256);
}

bool DeviceMemory::charge(uint64_t bytes) {
  if (bytes > m_capacity || m_in_use > m_capacity - bytes) return false;
  m_in_use += bytes;
  return true;
}

uint64_t DeviceMemory::allocate(uint64_t bytes, bool managed) {
  const uint64_t addr = reserve(bytes, managed ? "managed" : "cudaMalloc", managed);
  if (!managed || !addr) return addr;
  if (!map_at(addr, bytes)) {
    free(addr);
    return 0;
  }
  m_mirrors[addr] = {bytes, reinterpret_cast<uint8_t*>(addr), Mirror::kManaged};
  return addr;
}

CudaError DeviceMemory::free(uint64_t ptr) {
  if (ptr == 0) return kSuccess;
  const func::Allocation* a = m_global.find(ptr, 1);
  auto mirror = m_mirrors.find(ptr);
  if (!a || a->base != ptr || a->placed ||
      (mirror != m_mirrors.end() && mirror->second.kind != Mirror::kManaged))
    return kErrorInvalidValue;
  m_in_use -= a->size;
  m_global.release(ptr);
  if (mirror != m_mirrors.end()) {
    munmap(mirror->second.host, mirror->second.bytes);
    m_mirrors.erase(mirror);
  }
  return kSuccess;
}

void* DeviceMemory::allocate_host(size_t bytes) {
  const uint64_t addr = reserve(bytes, "pinned host", true);
  if (!addr) return nullptr;
  if (map_at(addr, bytes)) {
    m_mirrors[addr] = {bytes, reinterpret_cast<uint8_t*>(addr), Mirror::kPinned};
    return reinterpret_cast<void*>(addr);
  }
  auto* host = static_cast<uint8_t*>(std::aligned_alloc(256, (bytes + 255) / 256 * 256 + 256));
  if (!host) {
    m_in_use -= bytes;
    m_global.release(addr);
    return nullptr;
  }
  m_mirrors[addr] = {bytes, host, Mirror::kPinned};
  m_host_to_device[host] = addr;
  return host;
}

CudaError DeviceMemory::free_host(void* ptr) {
  if (!ptr) return kSuccess;
  uint64_t addr = reinterpret_cast<uint64_t>(ptr);
  if (auto h = m_host_to_device.find(ptr); h != m_host_to_device.end()) addr = h->second;
  auto it = m_mirrors.find(addr);
  if (it == m_mirrors.end() || it->second.kind != Mirror::kPinned || it->second.host != ptr)
    return kErrorInvalidValue;
  if (it->second.host == reinterpret_cast<uint8_t*>(addr))
    munmap(ptr, it->second.bytes);
  else
    std::free(ptr);
  m_host_to_device.erase(ptr);
  m_in_use -= it->second.bytes;
  m_global.release(addr);
  m_mirrors.erase(it);
  return kSuccess;
}

CudaError DeviceMemory::register_host(void* ptr, size_t bytes) {
  if (!ptr || bytes == 0) return kErrorInvalidValue;
  const auto* p = static_cast<const uint8_t*>(ptr);
  for (const auto& [base, m] : m_mirrors)
    if (p < m.host + m.bytes && m.host < p + bytes) return kErrorHostMemoryAlreadyRegistered;
  const uint64_t addr = reserve(bytes, "registered host", false);
  if (!addr) return kErrorMemoryAllocation;
  m_mirrors[addr] = {bytes, static_cast<uint8_t*>(ptr), Mirror::kRegistered};
  m_host_to_device[ptr] = addr;
  return kSuccess;
}

CudaError DeviceMemory::unregister_host(void* ptr) {
  auto h = m_host_to_device.find(ptr);
  if (h == m_host_to_device.end() || m_mirrors.at(h->second).kind != Mirror::kRegistered)
    return kErrorHostMemoryNotRegistered;
  m_in_use -= m_mirrors.at(h->second).bytes;
  m_global.release(h->second);
  m_mirrors.erase(h->second);
  m_host_to_device.erase(h);
  return kSuccess;
}

CudaError DeviceMemory::device_pointer(const void* host, uint64_t& device) const {
  const auto* p = static_cast<const uint8_t*>(host);
  for (const auto& [base, m] : m_mirrors)
    if (m.kind != Mirror::kManaged && p >= m.host && p < m.host + m.bytes) {
      device = base + static_cast<uint64_t>(p - m.host);
      return kSuccess;
    }
  return kErrorInvalidValue;
}

const std::pair<const uint64_t, DeviceMemory::Mirror>* DeviceMemory::mirror_at(
    uint64_t addr) const {
  auto it = m_mirrors.upper_bound(addr);
  if (it == m_mirrors.begin()) return nullptr;
  --it;
  return addr < it->first + it->second.bytes ? &*it : nullptr;
}

PointerAttributes DeviceMemory::attributes(const void* ptr) const {
  PointerAttributes a{};
  const uint64_t addr = reinterpret_cast<uint64_t>(ptr);
  uint64_t device = 0;
  if (const auto* m = mirror_at(addr);
      m && m->second.host == reinterpret_cast<uint8_t*>(m->first)) {
    a.type = m->second.kind == Mirror::kManaged ? kMemoryManaged : kMemoryHost;
    a.devicePointer = a.hostPointer = const_cast<void*>(ptr);
  } else if (device_pointer(ptr, device) == kSuccess) {
    a.type = kMemoryHost;
    a.devicePointer = reinterpret_cast<void*>(device);
    a.hostPointer = const_cast<void*>(ptr);
  } else if (m_global.find(addr, 1)) {
    a.type = kMemoryDevice;
    a.devicePointer = const_cast<void*>(ptr);
  } else {
    a.type = kMemoryUnregistered;
    a.device = -2;  // cudaInvalidDeviceId, as CUDA reports unregistered memory
  }
  return a;
}

void* DeviceMemory::host_view(uint64_t addr) const {
  const auto* m = mirror_at(addr);
  return m ? m->second.host + (addr - m->first) : reinterpret_cast<void*>(addr);
}

bool DeviceMemory::is_device(uint64_t addr, uint64_t bytes, bool& inside) const {
  inside = true;
  const func::Allocation* a = m_global.find(addr, 1);
  if (!a || mirror_at(addr)) return false;  // a mirror is plain memory to the host
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
  if (kind != kDefault && ((d_dev && d_host_kind) || (s_dev && s_host_kind)))
    return kErrorInvalidValue;
  // Nor may it call "device" an address that holds no device memory and no mirror (freed, or
  // reserved and not mapped: virtual_memory.h): the host would write where nothing is.
  if (kind != kDefault &&
      ((!d_dev && !d_host_kind && !mirror_at(d)) || (!s_dev && !s_host_kind && !mirror_at(s))))
    return kErrorInvalidValue;
  if (!d_dev) dst = host_view(d);
  if (!s_dev) src = host_view(s);
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
    const auto* m = mirror_at(d);  // cudaMemset takes device (or managed) memory only
    if (!m || m->second.kind != Mirror::kManaged || d + bytes > m->first + m->second.bytes)
      return kErrorInvalidValue;
    std::memset(host_view(d), value, bytes);
    return kSuccess;
  }
  if (!inside) return kErrorInvalidValue;
  std::vector<uint8_t> buf(bytes, static_cast<uint8_t>(value));
  m_global.write(d, buf.data(), bytes);
  return kSuccess;
}

void DeviceMemory::managed_to_device() {
  for (const auto& [base, m] : m_mirrors) m_global.write(base, m.host, m.bytes);
}

void DeviceMemory::managed_to_host() {
  for (const auto& [base, m] : m_mirrors) m_global.read(base, m.host, m.bytes);
}

}  // namespace gputlm::runtime
