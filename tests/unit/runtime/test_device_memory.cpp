// The CUDA program's memory (runtime/device_memory.h): copies between host, device and managed
// memory by kind and by address, the errors of bad pointers and ranges, managed memory at one
// address for host and device, memset.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "runtime/device_memory.h"
#include "support/asan.h"

namespace {

using namespace gputlm::runtime;

void* ptr(uint64_t address) { return reinterpret_cast<void*>(address); }

TEST(DeviceMemory, CopiesGoToAndFromTheDeviceStore) {
  DeviceMemory m;
  const uint64_t d = m.allocate(64, false), e = m.allocate(64, false);
  std::vector<int> in(16), out(16, 0);
  for (int i = 0; i < 16; ++i) in[i] = i * i;
  EXPECT_EQ(m.copy(ptr(d), in.data(), 64, kHostToDevice), kSuccess);
  EXPECT_EQ(m.copy(ptr(e), ptr(d), 64, kDeviceToDevice), kSuccess);
  EXPECT_EQ(m.copy(out.data(), ptr(e), 64, kDefault), kSuccess);
  EXPECT_EQ(out, in);
  int word = 0;
  m.global().read(d + 8, &word, 4);
  EXPECT_EQ(word, 4);
}

TEST(DeviceMemory, AKindThatCallsDeviceMemoryHostIsAnInvalidValue) {
  DeviceMemory m;
  const uint64_t d = m.allocate(64, false);
  std::vector<char> host(64);
  EXPECT_EQ(m.copy(host.data(), ptr(d), 64, kHostToDevice), kErrorInvalidValue);
  EXPECT_EQ(m.copy(ptr(d), host.data(), 64, kDeviceToHost), kErrorInvalidValue);
  EXPECT_EQ(m.copy(ptr(d), host.data(), 64, static_cast<MemcpyKind>(9)),
            kErrorInvalidMemcpyDirection);
}

TEST(DeviceMemory, ACopyLeavingItsAllocationIsAnInvalidValue) {
  DeviceMemory m;
  const uint64_t d = m.allocate(64, false);
  std::vector<char> host(128);
  EXPECT_EQ(m.copy(ptr(d + 32), host.data(), 64, kHostToDevice), kErrorInvalidValue);
  EXPECT_EQ(m.set(ptr(d), 0, 65), kErrorInvalidValue);
}

TEST(DeviceMemory, FreeingTwiceOrAnInnerOrHostPointerIsAnInvalidValue) {
  DeviceMemory m;
  const uint64_t d = m.allocate(64, false);
  int host = 0;
  EXPECT_EQ(m.free(d + 4), kErrorInvalidValue);
  EXPECT_EQ(m.free(reinterpret_cast<uint64_t>(&host)), kErrorInvalidValue);
  EXPECT_EQ(m.free(d), kSuccess);
  EXPECT_EQ(m.free(d), kErrorInvalidValue)
      << "CUDA 13 answers a second cudaFree with cudaErrorInvalidValue";
  EXPECT_EQ(m.free(0), kSuccess) << "cudaFree(nullptr) is a no-op";
}

TEST(DeviceMemory, FreedMemoryIsHandedOutAgainFirstFit) {
  DeviceMemory m;
  const uint64_t a = m.allocate(1000, false), b = m.allocate(64, false),
                 c = m.allocate(5000, false);
  EXPECT_EQ(m.free(a), kSuccess);
  EXPECT_EQ(m.free(c), kSuccess);
  EXPECT_EQ(m.allocate(900, false), a) << "the first freed range that holds it";
  EXPECT_EQ(m.allocate(4000, false), c) << "the next one that holds it";
  EXPECT_EQ(m.in_use(), 900u + 64 + 4000);
  EXPECT_GT(m.allocate(64, false), c) << "nothing freed holds it: an address never handed out";
  EXPECT_NE(b, 0u);
}

TEST(DeviceMemory, AllocationsBeyondTheDevicesMemoryFailAndLoseNothing) {
  DeviceMemory m(1 << 20);
  const uint64_t a = m.allocate(600 << 10, false);
  ASSERT_NE(a, 0u);
  const int word = 42;
  m.global().write(a, &word, 4);
  EXPECT_EQ(m.allocate(500 << 10, false), 0u) << "1100 KB of a 1 MB device";
  EXPECT_EQ(m.allocate(uint64_t{1} << 50, false), 0u) << "1 PB";
  int back = 0;
  EXPECT_EQ(m.copy(&back, ptr(a), 4, kDeviceToHost), kSuccess);
  EXPECT_EQ(back, 42);
  EXPECT_EQ(m.free(a), kSuccess);
  EXPECT_NE(m.allocate(900 << 10, false), 0u) << "the freed memory counts as free again";
}

TEST(DeviceMemory, RegisteredHostMemoryIsMirroredAtADeviceAddressOfItsOwn) {
  DeviceMemory m;
  std::vector<int> host(16, 3);
  ASSERT_EQ(m.register_host(host.data(), 64), kSuccess);
  EXPECT_EQ(m.register_host(host.data() + 4, 8), kErrorHostMemoryAlreadyRegistered);
  uint64_t dev = 0;
  ASSERT_EQ(m.device_pointer(host.data() + 2, dev), kSuccess);
  m.managed_to_device();
  int seen = 0;
  m.global().read(dev, &seen, 4);
  EXPECT_EQ(seen, 3);
  const int from_kernel = 8;
  m.global().write(dev, &from_kernel, 4);
  m.managed_to_host();
  EXPECT_EQ(host[2], 8);
  EXPECT_EQ(m.attributes(host.data()).type, kMemoryHost);
  int copied = 0;
  EXPECT_EQ(m.copy(&copied, ptr(dev), 4, kDefault), kSuccess)
      << "a copy through the device address reads the host's data";
  EXPECT_EQ(copied, 8);
  EXPECT_EQ(m.unregister_host(host.data()), kSuccess);
  EXPECT_EQ(m.unregister_host(host.data()), kErrorHostMemoryNotRegistered);
  EXPECT_EQ(m.attributes(host.data()).type, kMemoryUnregistered);
}

TEST(DeviceMemory, ManagedMemoryHasOneAddressForHostAndDevice) {
#ifdef GPUTLM_ASAN
  GTEST_SKIP()
      << "AddressSanitizer keeps the device addresses (GlobalMemory::kHeapBase) in its shadow gap; "
         "the runtime library is not built with sanitizers";
#endif
  DeviceMemory m;
  const uint64_t a = m.allocate(4096, true);
  ASSERT_NE(a, 0u) << "the host could not map the device address";
  auto* host = static_cast<int*>(ptr(a));
  host[10] = 1234;  // the host writes at the device address itself
  m.managed_to_device();
  int seen = 0;
  m.global().read(a + 40, &seen, 4);
  EXPECT_EQ(seen, 1234);
  const int from_kernel = 99;
  m.global().write(a + 44, &from_kernel, 4);
  m.managed_to_host();
  EXPECT_EQ(host[11], 99);
  EXPECT_EQ(m.set(host, 0, 8), kSuccess);
  EXPECT_EQ(host[0], 0);
  EXPECT_EQ(m.free(a), kSuccess);
}

TEST(DeviceMemory, ManagedMemoryAfterOtherAllocationsStartsOnAHostPage) {
#ifdef GPUTLM_ASAN
  GTEST_SKIP() << "AddressSanitizer keeps the device addresses in its shadow gap";
#endif
  DeviceMemory m;
  const uint64_t d = m.allocate(100, false);
  const uint64_t a = m.allocate(64, true);
  ASSERT_NE(a, 0u) << "the host could not map the device address";
  EXPECT_EQ(a % 4096, 0u);
  EXPECT_EQ(m.free(d), kSuccess);
  const uint64_t b = m.allocate(64, true);
  ASSERT_NE(b, 0u) << "a released range reused for managed memory must start on a page too";
  EXPECT_EQ(b % 4096, 0u);
  EXPECT_EQ(m.free(a), kSuccess);
  EXPECT_EQ(m.free(b), kSuccess);
}

TEST(DeviceMemory, MemsetFillsBytesAndTakesNoHostMemory) {
  DeviceMemory m;
  const uint64_t d = m.allocate(16, false);
  EXPECT_EQ(m.set(ptr(d), 0xab, 16), kSuccess);
  uint32_t word = 0;
  m.global().read(d + 12, &word, 4);
  EXPECT_EQ(word, 0xababababu);
  std::vector<char> host(16);
  EXPECT_EQ(m.set(host.data(), 0, 16), kErrorInvalidValue);
}

TEST(DeviceMemory, PinnedHostMemoryIsFreedOnlyOnce) {
  DeviceMemory m;
  void* p = m.allocate_host(100);
  ASSERT_NE(p, nullptr);
  std::memset(p, 1, 100);
  EXPECT_EQ(m.free_host(p), kSuccess);
  EXPECT_EQ(m.free_host(p), kErrorInvalidValue);
}

}  // namespace
