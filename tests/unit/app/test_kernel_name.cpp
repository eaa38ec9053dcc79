// Kernel names in summaries: a CUDA program's mangled PTX entry names demangled, every other name
// as it is.
#include <gtest/gtest.h>

#include "app/kernel_name.h"

namespace gputlm::app {
namespace {

TEST(KernelName, AMangledNameIsDemangled) {
  EXPECT_EQ(demangled_kernel_name("_Z6vecaddPKfS0_Pfi"),
            "vecadd(float const*, float const*, float*, int)");
  EXPECT_EQ(demangled_kernel_name("_Z6parentPii"), "parent(int*, int)");
  EXPECT_EQ(demangled_kernel_name("_ZN2ns4scanEPi"), "ns::scan(int*)");
  EXPECT_EQ(demangled_kernel_name("_Z10add_kernelIfEvPT_S1_i"),
            "void add_kernel<float>(float*, float*, int)");
}

TEST(KernelName, AnUnmangledNameStaysAsItIs) {
  EXPECT_EQ(demangled_kernel_name("vecadd"), "vecadd");  // extern "C", the workloads' kernels
  EXPECT_EQ(demangled_kernel_name("needle_cuda_shared_1"), "needle_cuda_shared_1");
  // Names the demangler would read as types
  EXPECT_EQ(demangled_kernel_name("f"), "f");
  EXPECT_EQ(demangled_kernel_name("i"), "i");
  EXPECT_EQ(demangled_kernel_name(""), "");
}

TEST(KernelName, ANameTheDemanglerRefusesStaysAsItIs) {
  EXPECT_EQ(demangled_kernel_name("_Z"), "_Z");
  EXPECT_EQ(demangled_kernel_name("_Zfoo"), "_Zfoo");
}

}  // namespace
}  // namespace gputlm::app
