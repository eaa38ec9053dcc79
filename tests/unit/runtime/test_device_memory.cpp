// The CUDA program's memory (runtime/device_memory.h): copies between host, device and managed
// memory by kind and by address, the errors of bad pointers and ranges, managed memory at one
// address for host and device, memset.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "runtime/device_memory.h"

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
  EXPECT_EQ(m.copy(ptr(d), host.data(), 64, static_cast<MemcpyKind>(9)), kErrorInvalidMemcpyDirection);
}

TEST(DeviceMemory, ACopyLeavingItsAllocationIsAnInvalidValue) {
  DeviceMemory m;
  const uint64_t d = m.allocate(64, false);
  std::vector<char> host(128);
  EXPECT_EQ(m.copy(ptr(d + 32), host.data(), 64, kHostToDevice), kErrorInvalidValue);
  EXPECT_EQ(m.set(ptr(d), 0, 65), kErrorInvalidValue);
}

TEST(DeviceMemory, FreeingTwiceOrAnInnerOrHostPointerIsAnInvalidDevicePointer) {
  DeviceMemory m;
  const uint64_t d = m.allocate(64, false);
  int host = 0;
  EXPECT_EQ(m.free(d + 4), kErrorInvalidDevicePointer);
  EXPECT_EQ(m.free(reinterpret_cast<uint64_t>(&host)), kErrorInvalidDevicePointer);
  EXPECT_EQ(m.free(d), kSuccess);
  EXPECT_EQ(m.free(d), kErrorInvalidDevicePointer);
  EXPECT_EQ(m.free(0), kSuccess) << "cudaFree(nullptr) is a no-op";
  EXPECT_NE(m.allocate(64, false), d) << "freed memory is not handed out again";
}

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define GPUTLM_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define GPUTLM_ASAN 1
#endif

TEST(DeviceMemory, ManagedMemoryHasOneAddressForHostAndDevice) {
#ifdef GPUTLM_ASAN
  GTEST_SKIP() << "AddressSanitizer keeps the device addresses (GlobalMemory::kHeapBase) in its shadow gap; "
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
