// Global accesses outside every allocation (memory_check.h, GlobalMemory::mapped): served from
// memory the device maps in 2 MB pages, with a warning carrying the fault's detail; a fault
// beyond the mapped pages, under strict checking (--memcheck) and for a launch without a check.
#include <gtest/gtest.h>

#include "models/func/global_memory.h"
#include "models/func/kernel_fault.h"
#include "models/func/memory_check.h"
#include "models/isa/ptx_parser.h"
#include "support/module_launch.h"

namespace gputlm::func {
namespace {

constexpr uint64_t kPage = GlobalMemory::kMappedPageBytes;

TEST(MappedMemory, TheTwoMegabytePagesOfLiveAllocationsAndReservationsAreMapped) {
  GlobalMemory m;
  const uint64_t a = m.allocate(256, "a");
  ASSERT_EQ(a % kPage, 0u) << "the first allocation starts a page";
  EXPECT_TRUE(m.mapped(a + 256, 4)) << "just past the end: same page";
  EXPECT_TRUE(m.mapped(a + kPage - 4, 4));
  EXPECT_FALSE(m.mapped(a + kPage - 2, 4)) << "crosses into an unmapped page";
  EXPECT_FALSE(m.mapped(a - 4, 4)) << "the page before holds nothing";
  const uint64_t big = m.allocate(3 * kPage, "big");
  EXPECT_TRUE(m.mapped(big + 3 * kPage + 64, 8)) << "the last page of a large allocation";
  ASSERT_TRUE(m.release(big));
  EXPECT_FALSE(m.mapped(big + 2 * kPage, 8)) << "freed: its pages are unmapped";
  GlobalMemory r;
  r.reserve_below_heap(1 << 20);
  const uint64_t first = r.allocate(64, "first");
  EXPECT_EQ(first, GlobalMemory::kHeapBase) << "the first buffer's address does not move";
  EXPECT_FALSE(r.find(first - 8, 4)) << "a reservation is no allocation";
  EXPECT_TRUE(r.mapped(first - 8, 4)) << "before the first buffer: the context's reserved memory";
  EXPECT_TRUE(r.mapped(first - (1 << 20) - 8, 4)) << "below the reservation, in its 2 MB page";
  EXPECT_FALSE(r.mapped(first - kPage - 8, 4)) << "the page below";
}

// out[i] = in[i + d] for one thread: d = -1 reads just before `in`.
constexpr const char* kShift = R"(
.version 8.0
.target sm_75
.address_size 64
.visible .entry shift(.param .u64 in, .param .u64 out, .param .u64 d)
{
  .reg .b64 %rd<6>; .reg .b32 %r<2>;
  ld.param.u64 %rd1, [in];
  ld.param.u64 %rd2, [out];
  ld.param.u64 %rd3, [d];
  shl.b64 %rd3, %rd3, 2;
  add.s64 %rd4, %rd1, %rd3;
  ld.global.u32 %r1, [%rd4];
  st.global.u32 [%rd2], %r1;
  ret;
}
)";

TEST(MemoryCheck, AReadInMappedMemoryIsServedWithAWarningElseItFaults) {
  test::ModuleLaunch m(isa::parse_ptx(kShift, "shift.ptx"));
  const uint64_t out = m.memory.allocate(4, "out"), in = m.memory.allocate(64, "in");
  const uint32_t seven = 7;
  m.memory.write(in + 64, &seven, 4);  // in the guard gap after `in`: mapped, no allocation
  MemoryCheck check(false);
  Launch l = m.launch("shift", 1, 1, {in, out, 16});
  l.memcheck = &check;
  run_reference(*m.bound, l);
  EXPECT_EQ(m.read<uint32_t>(out, 1)[0], 7u) << "what memory holds";
  std::vector<std::string> first;
  ASSERT_EQ(check.take(first), 1u);
  ASSERT_EQ(first.size(), 1u);
  EXPECT_NE(first[0].find("'shift': global address outside any allocation (in mapped memory: "
                          "served) at address 0x"),
            std::string::npos)
      << first[0];
  EXPECT_NE(first[0].find("thread (0,0,0)"), std::string::npos) << first[0];
  EXPECT_NE(first[0].find("shift.ptx:13"), std::string::npos) << "the PTX line: " << first[0];

  MemoryCheck strict(true);
  l.memcheck = &strict;
  EXPECT_THROW(run_reference(*m.bound, l), KernelFault) << "--memcheck";
  l.memcheck = nullptr;
  EXPECT_THROW(run_reference(*m.bound, l), KernelFault) << "no check: every such access faults";
  Launch far = m.launch("shift", 1, 1, {in, out, 4 * kPage / 4});
  far.memcheck = &check;
  EXPECT_THROW(run_reference(*m.bound, far), KernelFault) << "beyond the mapped pages";
}

}  // namespace
}  // namespace gputlm::func
