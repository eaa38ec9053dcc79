// What a launch asks for beyond its shape and arguments: cudaLaunchCooperativeKernel (and
// cudaLaunchAttributeCooperative), and cudaLaunchAttributeClusterDimension's CTAs per cluster.
#pragma once

#include "runtime/cuda_abi.h"

namespace gputlm::runtime {

struct LaunchExtras {
  bool cooperative = false;
  Dim3 cluster{0, 0, 0};  // 0x0x0: the kernel's own (.reqnctapercluster, __cluster_dims__), or none
};

}  // namespace gputlm::runtime
