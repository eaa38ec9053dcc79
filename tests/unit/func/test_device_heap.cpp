// The device malloc heap (models/func/device_heap.h): the rules of the CUDA programming guide's
// "Dynamic Global Memory Allocation and Operations" (16-byte alignment, NULL when exhausted,
// freed memory reusable) and the first-fit placement chosen where the guide is silent.
#include <gtest/gtest.h>

#include <set>

#include "models/func/device_heap.h"

namespace gputlm::func {
namespace {

constexpr uint64_t kBase = 0x10000000;

TEST(DeviceHeap, BlocksAreSixteenByteAlignedInsideTheHeapAndDisjoint) {
  DeviceHeap h(kBase, 4096);
  std::set<uint64_t> seen;
  uint64_t end_of_last = kBase;
  for (uint64_t bytes : {1, 7, 16, 17, 100}) {
    const uint64_t p = h.allocate(bytes);
    ASSERT_NE(p, 0u) << bytes;
    EXPECT_EQ(p % 16, 0u) << bytes;
    EXPECT_GE(p, end_of_last) << "first fit places them in address order";
    end_of_last = p + bytes;
    EXPECT_LE(end_of_last, kBase + 4096);
  }
  EXPECT_EQ(h.blocks(), 5u);
  EXPECT_EQ(h.bytes_in_use(), 16u + 16 + 16 + 32 + 112);
}

TEST(DeviceHeap, ExhaustionReturnsNullAndFreedMemoryIsReused) {
  DeviceHeap h(kBase, 256);
  const uint64_t a = h.allocate(128), b = h.allocate(128);
  ASSERT_NE(a, 0u);
  ASSERT_NE(b, 0u);
  EXPECT_EQ(h.allocate(1), 0u) << "the heap is full";
  EXPECT_EQ(h.allocate(1000), 0u) << "larger than the heap";
  EXPECT_TRUE(h.release(a));
  EXPECT_EQ(h.allocate(64), a) << "first fit reuses the lowest free range";
  EXPECT_EQ(h.allocate(64), a + 64);
  EXPECT_EQ(h.allocate(16), 0u);
}

TEST(DeviceHeap, FreedNeighboursMergeIntoOneRange) {
  DeviceHeap h(kBase, 192);
  const uint64_t a = h.allocate(64), b = h.allocate(64), c = h.allocate(64);
  EXPECT_TRUE(h.release(a));
  EXPECT_TRUE(h.release(c));
  EXPECT_EQ(h.allocate(128), 0u) << "two free ranges of 64 bytes are not one of 128";
  EXPECT_TRUE(h.release(b));
  EXPECT_EQ(h.allocate(192), kBase) << "all three merged back into the whole heap";
}

TEST(DeviceHeap, ReleasingWhatIsNoBlockIsRefused) {
  DeviceHeap h(kBase, 256);
  const uint64_t a = h.allocate(32);
  EXPECT_FALSE(h.release(a + 16)) << "inside a block, not its start";
  EXPECT_TRUE(h.release(a));
  EXPECT_FALSE(h.release(a)) << "freed twice";
  EXPECT_FALSE(h.release(kBase + 4096)) << "outside the heap";
}

TEST(DeviceHeap, AlignedAllocationHonoursPowersOfTwoAndRefusesOthers) {
  DeviceHeap h(kBase, 4096);
  ASSERT_NE(h.allocate(16), 0u);
  const uint64_t p = h.allocate(32, 256);
  EXPECT_EQ(p % 256, 0u);
  EXPECT_EQ(h.allocate(16, 48), 0u) << "48 is not a power of two";
  EXPECT_EQ(h.allocate(16, 0), 0u);
  EXPECT_EQ(h.allocate(16), kBase + 16) << "the gap before the aligned block stays free";
}

TEST(DeviceHeap, AnEmptyHeapHasNothingToGive) {
  DeviceHeap h(kBase, 0);
  EXPECT_EQ(h.allocate(1), 0u);
}

}  // namespace
}  // namespace gputlm::func
