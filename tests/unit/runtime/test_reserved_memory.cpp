// Address reservations and placed allocations (func::GlobalMemory::reserve/place, the ground of
// the driver API's virtual memory management, runtime/virtual_memory.h), and DeviceMemory's
// accounting of physical allocations made without an address (charge/uncharge).
#include <gtest/gtest.h>

#include <cstdint>

#include "runtime/device_memory.h"

namespace {

using namespace gputlm::runtime;
constexpr uint64_t kMB = uint64_t{1} << 20;

// cuMemAddressReserve: no kernel or copy may touch a reserved range until something is mapped
// there, and no cudaMalloc hands out its addresses.
TEST(ReservedMemory, AReservedRangeIsNoAllocationAndNoLaterAllocationLandsInIt) {
  DeviceMemory m;
  const uint64_t base = m.global().reserve(4 * kMB, 2 * kMB);
  EXPECT_EQ(base % (2 * kMB), 0u);
  EXPECT_EQ(m.global().find(base, 4), nullptr);
  for (int i = 0; i < 8; ++i) {
    const uint64_t a = m.allocate(kMB, false);
    EXPECT_TRUE(a + kMB <= base || a >= base + 4 * kMB) << std::hex << a;
  }
}

// cuMemMap + cuMemSetAccess: a placed allocation is valid for copies; cudaFree refuses it
// (CUDA 13: cudaErrorInvalidValue), and after unplacing nothing is left and no allocation took it.
TEST(ReservedMemory, APlacedAllocationIsValidUntilUnplacedAndFreeRefusesIt) {
  DeviceMemory m;
  const uint64_t base = m.global().reserve(4 * kMB, 2 * kMB);
  m.global().place(base, 4 * kMB, "cuMemMap");
  const int value = 42;
  EXPECT_EQ(m.copy(reinterpret_cast<void*>(base + 2 * kMB - 2), &value, 4, kHostToDevice),
            kSuccess);  // across two granules
  EXPECT_EQ(m.free(base), kErrorInvalidValue);
  EXPECT_FALSE(m.global().release(base));
  EXPECT_TRUE(m.global().unplace(base));
  EXPECT_FALSE(m.global().unplace(base));
  EXPECT_EQ(m.global().find(base, 1), nullptr);
  EXPECT_EQ(m.copy(reinterpret_cast<void*>(base), &value, 4, kHostToDevice),
            kErrorInvalidValue);  // no device memory there now
}

// cuMemAddressFree: the range goes back and a later allocation may land in it.
TEST(ReservedMemory, AnUnreservedRangeIsHandedOutAgain) {
  DeviceMemory m;
  const uint64_t base = m.global().reserve(4 * kMB, 2 * kMB);
  m.global().unreserve(base, 4 * kMB);
  EXPECT_EQ(m.allocate(kMB, false), base);
}

// cuMemCreate: physical memory counts against the device's capacity (cuMemGetInfo, out of memory).
TEST(ReservedMemory, ChargedMemoryCountsAgainstTheCapacity) {
  DeviceMemory m(8 * kMB);
  EXPECT_TRUE(m.charge(6 * kMB));
  EXPECT_EQ(m.in_use(), 6 * kMB);
  EXPECT_FALSE(m.charge(4 * kMB));
  EXPECT_EQ(m.allocate(4 * kMB, false), 0u);
  m.uncharge(6 * kMB);
  EXPECT_EQ(m.in_use(), 0u);
  EXPECT_TRUE(m.charge(8 * kMB));
}

}  // namespace
