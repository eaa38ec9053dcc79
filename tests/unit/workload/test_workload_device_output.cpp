// Kernels that print and allocate under `gputlm run` (no CUDA host, io/workload/workload.h): the
// workload gives its launches device services, and each launch's printf text goes to stdout when
// the launch ends. Fixture: tests/data/workloads/printf.
#include <gtest/gtest.h>

#include "io/workload/workload.h"
#include "models/func/reference_executor.h"

namespace gputlm::workload {
namespace {

TEST(WorkloadDeviceOutput, EachLaunchsPrintfTextReachesStdoutWhenItEnds) {
  Workload w(std::string(GPUTLM_SOURCE_DIR) + "/tests/data/workloads/printf", "test");
  func::GlobalMemory mem;
  w.setup(mem);
  std::vector<std::string> before;  // what stdout had received when each launch started
  testing::internal::CaptureStdout();
  w.for_each_launch(mem, [&](const func::BoundKernel& bk, const func::Launch& l) {
    before.push_back(testing::internal::GetCapturedStdout());
    testing::internal::CaptureStdout();
    ASSERT_NE(l.services, nullptr);
    func::run_reference(bk, l);
  });
  const std::string last = testing::internal::GetCapturedStdout();
  ASSERT_EQ(before.size(), 2u);
  EXPECT_EQ(before[0], "");
  EXPECT_EQ(before[1], "item 0 of 3\nitem 1 of 3\nitem 2 of 3\n")
      << "the first launch's text, before the second runs";
  EXPECT_EQ(last, "thread 0: block\nthread 1: block\nthread 2: block\n")
      << "malloc has a heap under gputlm run too";
  std::vector<int32_t> parsed(3);
  mem.read(mem.allocations().front().base, parsed.data(), 12);
  EXPECT_EQ(parsed, (std::vector<int32_t>{2, 2, 2})) << "printf returned the arguments it parsed";
}

}  // namespace
}  // namespace gputlm::workload
