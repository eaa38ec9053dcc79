// Limits on what any input file may ask for (PTX, launch descriptions, GPU configs, traces).
// Every reader checks sizes, counts and dimensions against these before it allocates or starts
// long work, and names the limit in its error (e.g. "more than 65536 registers (limit
// max_registers_per_kernel, models/common/limits.h)"). Each is far above what the repository's
// workloads use at study size; docs/user-guide/fuzzing-and-sanitizers.md lists them.
#pragma once

#include <cstdint>
#include <string>

namespace gputlm::limits {

// PTX: registers declared in one kernel (nvcc's kernels declare a few hundred).
constexpr uint64_t kMaxRegistersPerKernel = 65536;
// PTX: bytes of one variable (.shared, .local or .param array) and of a kernel's shared memory,
// local memory per thread and parameters together.
constexpr uint64_t kMaxVariableBytes = uint64_t{1} << 24;
// PTX: .align of a variable (a power of two).
constexpr uint64_t kMaxAlign = 4096;

// Launch: threads per CTA (CUDA's limit) and CTA dimensions (CUDA: x, y <= 1024, z <= 64).
constexpr uint64_t kMaxThreadsPerCta = 1024;
// Launch: CTAs of one launch (CUDA allows more; a simulation of more would run for hours).
// The repository's largest study launch has 16,384.
constexpr uint64_t kMaxCtasPerLaunch = uint64_t{1} << 22;
// Launch: how often one launch repeats.
constexpr uint64_t kMaxLaunchRepeat = 65536;
// Launch: dynamic shared memory bytes of a launch.
constexpr uint64_t kMaxSharedBytes = uint64_t{1} << 24;
// Workload: bytes of one buffer and of all buffers of a workload (the largest study buffer is
// 64 MB).
constexpr uint64_t kMaxBufferBytes = uint64_t{1} << 30;
constexpr uint64_t kMaxTotalBufferBytes = uint64_t{1} << 32;
// Workload: bytes of one sparse buffer (address space; only what its generator writes is held).
// db/index_* has a 3.8 GB one.
constexpr uint64_t kMaxSparseBufferBytes = uint64_t{1} << 34;

// Traces: warps in one CTA (kMaxThreadsPerCta / 32) and warp instructions one warp may record
// (the watchdog's default budget for a whole launch).
constexpr uint64_t kMaxWarpsPerCta = kMaxThreadsPerCta / 32;
constexpr uint64_t kMaxWarpInstructions = 2'000'000'000ull;
// Traces: bytes one lane of a memory instruction accesses (a 128-bit vector is 16; SASS up to 32).
constexpr uint64_t kMaxAccessBytes = 32;
// Traces: lines (copies and kernels) of an Accel-Sim kernelslist.g.
constexpr uint64_t kMaxTraceCommands = uint64_t{1} << 20;
// Traces: barrier IDs (PTX has 16 named barriers).
constexpr uint64_t kMaxBarrierId = 15;

// " (limit <name>, models/common/limits.h)": the tail of every limit error.
inline std::string named(const char* name) {
  return std::string(" (limit ") + name + ", models/common/limits.h)";
}

}  // namespace gputlm::limits
