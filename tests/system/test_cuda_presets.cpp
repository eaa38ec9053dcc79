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

class ModernPresetLatencies : public gputlm::test::CudaPrograms {};

// Load-to-use latencies by pointer chasing (tests/cuda/latency_chase.cu) on each preset: the
// figures its hit latencies were set from (docs/models/modern-presets.md, "Latencies"): Jia et al.
// for Volta (shared 19, L1 28, L2 193 cycles), Accel-Sim's A100 and H100 configurations for the
// others (shared 29, L1 37 / 41, L2 the L1's plus the ROP latency: 261 / 278). An L2 miss costs
// Accel-Sim's `dram_latency` more than a hit (100 / 190 / 194; its tuner sets that key to the
// measured memory latency less the L2 hit's): within 10 cycles, as DRAM refreshes that a
// periodic chase runs into move its figure in steps of 14-18 cycles.
TEST_F(ModernPresetLatencies, EachModernPresetGivesItsCitedLoadToUseLatencies) {
  struct Target {
    const char* preset;
    double shared, l1, l2, l2_miss_more;
  };
  for (const Target& t :
       {Target{"volta-v100", 19, 28, 193, 100}, Target{"ampere-a100", 29, 37, 261, 190},
        Target{"hopper-h100", 29, 41, 278, 194}, Target{"hopper-h200", 29, 41, 278, 194}}) {
    const gputlm::test::CliResult r =
        gputlm::test::gputlm_cli(std::string("cuda --config configs/") + t.preset +
                                 ".json -- '" GPUTLM_CUDA_PROGRAMS_DIR "/latency_chase'");
    ASSERT_EQ(r.exit_code, 0) << r.output;
    auto cycles = [&](const std::string& level) {
      const std::string key = "latency_chase: " + level + " ";
      const size_t at = r.output.find(key);
      return at == std::string::npos ? -1.0 : std::stod(r.output.substr(at + key.size()));
    };
    EXPECT_NEAR(cycles("shared"), t.shared, 1.0) << t.preset << "\n" << r.output;
    EXPECT_NEAR(cycles("l1"), t.l1, 1.0) << t.preset << "\n" << r.output;
    EXPECT_NEAR(cycles("l2"), t.l2, 2.0) << t.preset << "\n" << r.output;
    EXPECT_NEAR(cycles("dram") - cycles("l2"), t.l2_miss_more, 10.0) << t.preset << "\n"
                                                                     << r.output;
  }
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
