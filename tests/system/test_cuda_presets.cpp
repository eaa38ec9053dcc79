// The CUDA test programs (tests/cuda) on every preset of a modern GPU
// (docs/models/modern-presets.md): each runs under `gputlm cuda` on the timing model and passes its
// own checks. Left out: the programs whose point is to fail (fault, unimplemented_api), the one
// without PTX (vecadd_sass_only) and runtime_api, which checks fermi-gtx480's answers (15 SMs); the
// CudaPrograms tests run those on fermi-gtx480. Skipped without nvcc.
#include <gtest/gtest.h>

#include <string>
#include <tuple>

#include "support/cuda_programs.h"
#include "support/shell.h"

namespace {

const char* const kPresets[] = {"volta-v100", "ampere-a100", "hopper-h100", "hopper-h200"};

const char* const kPrograms[] = {"alloca",
                                 "assert",
                                 "async_copy",
                                 "atomics",
                                 "bfs",
                                 "bulk_copy",
                                 "clusters",
                                 "cub_block_device",
                                 "device_calls",
                                 "device_calls_debug",
                                 "device_malloc",
                                 "device_query",
                                 "divergence",
                                 "driver_api",
                                 "driver_arrays",
                                 "driver_vmm",
                                 "dynamic_parallelism",
                                 "dynamic_shared",
                                 "fast_math_filter",
                                 "function_shared",
                                 "function_shared_debug",
                                 "graphs",
                                 "grid_sync",
                                 "half_cg",
                                 "half_cg_sm90",
                                 "host_threads",
                                 "hotspot",
                                 "jump_tables",
                                 "memory_ops",
                                 "mma_ldmatrix",
                                 "mma_sparse",
                                 "out_of_bounds",
                                 "particle_filter",
                                 "printf",
                                 "shared_reduction",
                                 "streams_events",
                                 "struct_arg",
                                 "symbol_copy",
                                 "tensor_copy",
                                 "tensor_im2col",
                                 "textures",
                                 "thrust_algorithms",
                                 "vecadd",
                                 "vecadd_lz4",
                                 "vecadd_uncompressed",
                                 "wmma_gemm"};

// The program's check line starts with its source's name: the build variants' suffixes go.
std::string check_line(std::string name) {
  for (const char* variant : {"_debug", "_lz4", "_uncompressed", "_sm90"})
    if (const size_t at = name.find(variant); at != std::string::npos) name.erase(at);
  return name + ": PASSED";
}

class ModernPreset : public gputlm::test::CudaPrograms,
                     public ::testing::WithParamInterface<std::tuple<const char*, const char*>> {};

TEST_P(ModernPreset, TheProgramPassesItsOwnChecks) {
  const std::string preset = std::get<0>(GetParam());
  const std::string name = std::get<1>(GetParam());
  const gputlm::test::CliResult r = gputlm::test::gputlm_cli(
      "cuda --config configs/" + preset + ".json -- '" GPUTLM_CUDA_PROGRAMS_DIR "/" + name + "'");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find(check_line(name)), std::string::npos) << r.output;
}

std::string test_name(const ::testing::TestParamInfo<std::tuple<const char*, const char*>>& info) {
  std::string s = std::string(std::get<0>(info.param)) + "_" + std::get<1>(info.param);
  for (char& c : s)
    if (c == '-') c = '_';
  return s;
}

INSTANTIATE_TEST_SUITE_P(CudaPrograms, ModernPreset,
                         ::testing::Combine(::testing::ValuesIn(kPresets),
                                            ::testing::ValuesIn(kPrograms)),
                         test_name);

}  // namespace
