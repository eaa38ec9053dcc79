// Test support for the tensor-core instructions: runs one warp of 32 threads on a kernel in
// which every thread loads 32 input words into %r0..%r31, runs `body`, and stores %r32..%r39.
// The module also has `.shared .align 16 .b8 smem[2048]` and %rd0..%rd3 (.b64), %fd0..%fd7 (.f64)
// and %p0 (.pred) for the body.
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "models/func/bound_kernel.h"
#include "models/func/reference_executor.h"
#include "support/ptx_harness.h"

namespace gputlm::test {

using LaneWords = std::array<uint32_t, 32>;
using LaneResult = std::array<uint32_t, 8>;

inline std::string tensor_warp_kernel(const std::string& body) {
  std::string loads;
  for (int i = 0; i < 8; ++i) {
    loads += "  ld.global.v4.b32 {%r" + std::to_string(4 * i) + ", %r" + std::to_string(4 * i + 1) +
             ", %r" + std::to_string(4 * i + 2) + ", %r" + std::to_string(4 * i + 3) + "}, [%in+" +
             std::to_string(16 * i) + "];\n";
  }
  return R"(.version 9.0
.target sm_90
.address_size 64
.shared .align 16 .b8 smem[2048];
.visible .entry t(.param .u64 pin, .param .u64 pout)
{
  .reg .b64 %in, %out, %off, %rd<4>;
  .reg .b32 %tid, %r<40>;
  .reg .f64 %fd<8>;
  .reg .pred %p0;
  ld.param.u64 %in, [pin];
  ld.param.u64 %out, [pout];
  mov.u32 %tid, %tid.x;
  mul.wide.u32 %off, %tid, 128;
  add.s64 %in, %in, %off;
  mul.wide.u32 %off, %tid, 32;
  add.s64 %out, %out, %off;
)" + loads +
         body + R"(
  st.global.v4.b32 [%out], {%r32, %r33, %r34, %r35};
  st.global.v4.b32 [%out+16], {%r36, %r37, %r38, %r39};
  ret;
}
)";
}

// Runs the kernel for one warp; throws what parsing, binding or the engine throws.
inline std::vector<LaneResult> run_tensor_warp(const std::string& body,
                                               const std::vector<LaneWords>& in) {
  auto module = parse(tensor_warp_kernel(body));
  const isa::Kernel& k = *module->kernels.at(0);
  func::BoundKernel bound(k);
  func::GlobalMemory memory;
  const uint64_t pin = memory.allocate(128ull * in.size(), "in");
  const uint64_t pout = memory.allocate(32ull * in.size(), "out");
  memory.write(pin, in.data(), 128ull * in.size());
  func::Launch launch;
  launch.kernel = &k;
  launch.block.x = static_cast<uint32_t>(in.size());
  launch.memory = &memory;
  launch.params.resize(16);
  std::memcpy(launch.params.data(), &pin, 8);
  std::memcpy(launch.params.data() + 8, &pout, 8);
  func::run_reference(bound, launch);
  std::vector<LaneResult> out(in.size());
  memory.read(pout, out.data(), 32ull * in.size());
  return out;
}

}  // namespace gputlm::test
