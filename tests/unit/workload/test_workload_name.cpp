// The "<suite>/<name>" of a workload directory (the default name of its CPU reference) is the same
// for a relative path as for the full one.
#include <gtest/gtest.h>

#include <filesystem>

#include "io/workload/workload.h"

namespace gputlm::workload {
namespace {

TEST(WorkloadName, IsTheLastTwoDirectoriesOfThePath) {
  EXPECT_EQ(workload_name("traces/micro/vecadd"), "micro/vecadd");
  EXPECT_EQ(workload_name("traces/micro/vecadd/"), "micro/vecadd");
  EXPECT_EQ(workload_name("traces/micro/./vecadd"), "micro/vecadd");
}

TEST(WorkloadName, RelativePathOfOneDirectoryTakesItsSuiteFromTheWorkingDirectory) {
  const std::filesystem::path cwd = std::filesystem::current_path();
  EXPECT_EQ(workload_name("vecadd"), cwd.filename().string() + "/vecadd");
  EXPECT_EQ(workload_name("."),
            cwd.parent_path().filename().string() + "/" + cwd.filename().string());
  EXPECT_EQ(workload_name("../x/vecadd"), "x/vecadd");
}

}  // namespace
}  // namespace gputlm::workload
