// The fixtures of the system tests that run CUDA programs under gputlm: CudaCommand skips, saying
// why, in a build without gputlm's libcudart.so.13 (a sanitizer build); CudaPrograms also when
// nvcc was not found at configure (tests/cuda/CMakeLists.txt), so that the test programs and
// anything a test builds with nvcc itself (gputlm validate) are unavailable. Used by
// test_cuda_programs.cpp and test_validate.cpp.
#pragma once

#include <gtest/gtest.h>

namespace gputlm::test {

class CudaCommand : public ::testing::Test {
 protected:
  void SetUp() override {
#ifndef GPUTLM_HAVE_CUDART
    GTEST_SKIP() << "a sanitizer build has no libcudart.so.13 (runtime/CMakeLists.txt): gputlm "
                    "cuda is unavailable";
#endif
  }
};

class CudaPrograms : public CudaCommand {
 protected:
  void SetUp() override {
    CudaCommand::SetUp();
    if (IsSkipped()) return;
#ifndef GPUTLM_HAVE_CUDA_PROGRAMS
    GTEST_SKIP() << "nvcc was not found when the build was configured: the CUDA test programs "
                    "(tests/cuda) were not built";
#endif
  }
};

}  // namespace gputlm::test
