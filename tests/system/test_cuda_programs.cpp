// `gputlm cuda`: unmodified CUDA programs (tests/cuda, built by nvcc with -cudart shared) run on
// the simulator through gputlm's libcudart.so.13. Each program checks its own results and prints
// a check line; the program's stdout and exit status pass through, gputlm's summary goes to
// stderr and the statistics to --stats. Skipped, saying why, when nvcc was not found at configure.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <thread>

#include "support/cuda_programs.h"
#include "support/cuda_run.h"
#include "support/shell.h"

namespace {

using namespace gputlm::test::cuda_run;

// Runs the program on fermi-gtx480 and expects exit status 0 and its own check line.
void expect_passes(const std::string& name, const std::string& check_line,
                   const std::string& options = "") {
  const ProgramRun r = cuda(name, options);
  EXPECT_EQ(r.exit_code, 0) << name << " " << options << "\n" << r.out << r.err;
  EXPECT_TRUE(contains(r.out, check_line)) << name << " " << options << "\n" << r.out;
}

// The same, on the timing model and on the functional engine.
void expect_passes_timed_and_functional(const std::string& name, const std::string& check_line) {
  expect_passes(name, check_line);
  expect_passes(name, check_line, "--functional");
}

// The statistics of a --functional run of the program, which must exit 0 (no launches if not).
nlohmann::json functional_stats(const std::string& name) {
  const std::string stats = scratch(name + ".json");
  const ProgramRun r = cuda(name, "--functional --stats '" + stats + "'");
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  return r.exit_code == 0 ? nlohmann::json::parse(read(stats))
                          : nlohmann::json{{"launches", nlohmann::json::array()}};
}

using gputlm::test::CudaCommand;
using gputlm::test::CudaPrograms;

TEST_F(CudaPrograms, VecaddRunsUnmodifiedAndItsCheckLinePassesThrough) {
  const std::string stats = scratch("vecadd.json");
  const ProgramRun r = cuda("vecadd", "--stats '" + stats + "'");
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(r.out, "vecadd: PASSED (n=4096)\n") << "stdout is the program's own";
  EXPECT_TRUE(contains(r.err, "launch              vecadd: ")) << r.err;
  EXPECT_TRUE(contains(r.err, "MWP/CWP model")) << r.err;
  EXPECT_TRUE(contains(r.err, "checked by the program itself")) << r.err;
  const nlohmann::json j = nlohmann::json::parse(read(stats));
  ASSERT_EQ(j["launches"].size(), 1u);
  EXPECT_EQ(j["launches"][0]["kernel"], "vecadd");
  EXPECT_GT(j["launches"][0]["cycles"].get<uint64_t>(), 0u);
  EXPECT_TRUE(j["launches"][0].contains("mwp_cwp_prediction"));
  EXPECT_EQ(j["workload"], "vecadd");
  EXPECT_EQ(j["complete"], true);
}

// docs/user-guide/cuda-programs.md: the sample is the real output of its command (only the
// host time differs), and the program's output comes before the summary in one stream.
TEST_F(CudaPrograms, TheUserGuidesSampleIsVecaddsRealOutput) {
  const std::string readme = read(GPUTLM_SOURCE_DIR "/docs/user-guide/cuda-programs.md");
  const std::string command =
      "$ build/bin/gputlm cuda --config configs/fermi-gtx480.json --stats vecadd.json -- "
      "./vecadd\n";
  const size_t start = readme.find(command), end = readme.find("$ echo $?\n", start);
  ASSERT_NE(end, std::string::npos) << "the sample's command changed";
  std::string sample = readme.substr(start + command.size(), end - start - command.size());
  const std::string dir = scratch("readme");
  std::filesystem::create_directories(dir);
  const gputlm::test::ShellResult r =
      gputlm::test::shell("cd '" + dir +
                          "' && '" GPUTLM_BINARY "' cuda --config '" GPUTLM_SOURCE_DIR
                          "/configs/fermi-gtx480.json' --stats vecadd.json -- '" +
                          program("vecadd") + "' 2>&1");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const std::regex host(R"(host time           [0-9.]+ s \([0-9.]+ M)");
  EXPECT_EQ(std::regex_replace(sample, host, "host time           T s (R M"),
            std::regex_replace(r.out, host, "host time           T s (R M"));
}

TEST_F(CudaPrograms, AProgramGivesTheCyclesOfTheSameKernelRunAsAWorkload) {
  const std::string as_program = scratch("program.json"), as_workload = scratch("workload.json");
  const ProgramRun p = cuda("vecadd", "--stats '" + as_program + "'", "4000", "narasiman-baseline");
  ASSERT_EQ(p.exit_code, 0) << p.out << p.err;
  const ProgramRun w = run_gputlm(
      "run --config configs/narasiman-baseline.json --workload traces/micro/vecadd --stats '" +
      as_workload + "'");
  ASSERT_EQ(w.exit_code, 0) << w.out << w.err;
  const nlohmann::json a = nlohmann::json::parse(read(as_program)),
                       b = nlohmann::json::parse(read(as_workload));
  EXPECT_EQ(a["launches"][0]["cycles"], b["launches"][0]["cycles"]);
  EXPECT_EQ(a["launches"][0]["warp_instructions"], b["launches"][0]["warp_instructions"]);
  EXPECT_EQ(a["launches"][0]["mwp_cwp_prediction"], b["launches"][0]["mwp_cwp_prediction"]);
}

TEST_F(CudaPrograms, EveryLaunchOfAProgramIsOneEntryOfTheStatistics) {
  const std::string stats = scratch("pf.json");
  const ProgramRun r = cuda("particle_filter", "--stats '" + stats + "'");
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_TRUE(contains(r.out, "particle_filter: PASSED (n=1000")) << r.out;
  const nlohmann::json j = nlohmann::json::parse(read(stats));
  ASSERT_EQ(j["launches"].size(), 2u);
  EXPECT_EQ(j["launches"][0]["kernel"], "sum_weights");
  EXPECT_EQ(j["launches"][1]["kernel"], "normalize_weights_kernel");
  EXPECT_EQ(j["total"]["cycles"].get<uint64_t>(), j["launches"][0]["cycles"].get<uint64_t>() +
                                                      j["launches"][1]["cycles"].get<uint64_t>());
}

TEST_F(CudaPrograms, DynamicSharedMemoryIsSizedAtLaunchThroughBothLaunchPaths) {
  expect_passes("dynamic_shared", "dynamic_shared: PASSED");
}

// A unified L1/shared core (tests/data/configs/unified-l1.json: 128 KB, shared 0 to 96 KB, 15
// cores) splits its array per launch (models/sm/carveout.h): 40 KB CTAs, two a core, take 96 KB
// and leave a 32 KB L1; the same kernel preferring 50% (48 KB) takes 64 KB; a kernel without
// shared memory preferring the largest L1 takes 0 KB and leaves 128 KB.
TEST_F(CudaPrograms, EachLaunchTakesTheSharedCapacityItsCarveoutChoosesAndTheL1TheRest) {
  const std::string stats = scratch("carveout.json");
  const ProgramRun r = run_gputlm("cuda --config tests/data/configs/unified-l1.json --stats '" +
                                  stats + "' -- '" + program("carveout") + "'");
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_TRUE(contains(r.out, "carveout: PASSED")) << r.out;
  const nlohmann::json j = nlohmann::json::parse(read(stats));
  ASSERT_EQ(j["launches"].size(), 3u);
  const uint64_t expected[3][2] = {{98304, 32768}, {65536, 65536}, {0, 131072}};
  for (size_t i = 0; i < 3; ++i) {
    const nlohmann::json& core = j["launches"][i]["modules"]["gpu.core0"];
    EXPECT_EQ(core["shared_carveout_bytes"], expected[i][0]) << i;
    EXPECT_EQ(core["l1d_bytes"], expected[i][1]) << i;
  }
}

// Thrust, CUB, half precision and cooperative groups as today's code uses them (issue 40), each
// timed and on the functional engine; half_cg also as sm_90 PTX (native bf16 arithmetic, no
// emulation).
TEST_F(CudaPrograms, ThrustCubAndHalfPrecisionProgramsPassTheirOwnChecks) {
  const std::pair<const char*, const char*> programs[] = {
      {"thrust_algorithms", "thrust_algorithms: PASSED"},
      {"cub_block_device", "cub_block_device: PASSED"},
      {"half_cg", "half_cg: PASSED"},
      {"half_cg_sm90", "half_cg: PASSED"}};
  for (const auto& [name, line] : programs) expect_passes_timed_and_functional(name, line);
  const ProgramRun r = cuda("half_cg");
  EXPECT_TRUE(contains(r.out, "half_cg: thread 0 sees a*b+1 = (1.0, -3.0)\nhalf_cg: PASSED"))
      << "device printf before the check line: " << r.out;
}

// Tensor cores (PTX ISA 9.7.14): nvcuda::wmma and inline mma.sync fed by ldmatrix, timed and
// functional.
TEST_F(CudaPrograms, AWmmaGemmOfHalvesIntoFloatsMatchesTheHostGemm) {
  expect_passes_timed_and_functional("wmma_gemm", "wmma_gemm: PASSED");
}

TEST_F(CudaPrograms, AnMmaSyncGemmFedByLdmatrixMatchesTheHostGemm) {
  expect_passes_timed_and_functional("mma_ldmatrix", "mma_ldmatrix: PASSED");
}

// Asynchronous copies (PTX ISA 9.7.9.25 cp.async, 9.7.13.15 mbarrier): cuda_pipeline.h's double
// buffering with __reduce_add_sync, cuda::memcpy_async with a cuda::barrier, cg::memcpy_async.
TEST_F(CudaPrograms, AsyncCopiesThroughPipelinesAndBarriersGiveTheHostsResults) {
  expect_passes_timed_and_functional("async_copy", "async_copy: PASSED");
}

// Bulk asynchronous copies of sm_90 (PTX ISA 9.7.9.25.4 cp.async.bulk): cuda::memcpy_async of a
// 16-byte-aligned tile through a cuda::barrier (mbarrier complete-tx), and cuda::ptx::cp_async_bulk
// from shared to global memory with a bulk group.
TEST_F(CudaPrograms, BulkCopiesThroughMbarrierTransactionsAndBulkGroupsGiveTheHostsResults) {
  expect_passes_timed_and_functional("bulk_copy", "bulk_copy: PASSED");
}

// Tensor memory access of sm_90 (CUDA programming guide, "Using TMA to transfer multi-dimensional
// arrays"): cuTensorMapEncodeTiled fetched through cudaGetDriverEntryPointByVersion,
// __grid_constant__ tensor maps, 2-D box loads with out-of-bound zeros and box stores, the 128-byte
// swizzle, a 3-D box with an element stride, box reductions (cp.reduce.async.bulk.tensor .add) and
// the encoder's CUDA_ERROR_INVALID_VALUE.
TEST_F(CudaPrograms, TensorMapsMoveBoxesOfATensorThroughSharedMemory) {
  expect_passes_timed_and_functional("tensor_copy", "tensor_copy: PASSED");
}

// alloca in device code (PTX ISA 9.7.16): per-thread buffers of varying size on the stack, and a
// device function's own allocation above them, timed and functional.
TEST_F(CudaPrograms, AllocaGivesEachThreadItsOwnStackBuffers) {
  expect_passes_timed_and_functional("alloca", "alloca: PASSED");
}

// Sparse tensor-core MMA through inline PTX (mma.sp m16n8k16 .f16, mma.sp::ordered_metadata
// m16n8k32 .bf16; PTX ISA 9.7.14.6): a 2:4-sparse A compressed by the host; timed and functional.
TEST_F(CudaPrograms, SparseMmaMultipliesTheDecompressedMatrix) {
  expect_passes_timed_and_functional("mma_sparse", "mma_sparse: PASSED");
}

// Switches compiled to jump tables (nvcc -jtd 0: brx.idx and .branchtargets, PTX ISA 9.7.12.4),
// one in the kernel's interpreter loop and one in a device function, with a warp's lanes on
// different targets at every step; timed and functional.
TEST_F(CudaPrograms, SwitchJumpTablesSendEachLaneToItsCase) {
  expect_passes_timed_and_functional("jump_tables", "jump_tables: PASSED");
}

// TMA's im2col mode (PTX ISA 5.5.4): a padded 3x3 convolution as an implicit GEMM, one im2col load
// (after an im2col prefetch) per filter tap through cuTensorMapEncodeIm2col's map; an interleaved
// (NC/8HWC8) tile box with an element stride in W; the encoder's CUDA_ERROR_INVALID_VALUE.
TEST_F(CudaPrograms, Im2colTensorMapsFeedAConvolution) {
  expect_passes_timed_and_functional("tensor_im2col", "tensor_im2col: PASSED");
}

// Thread block clusters of sm_90 (CUDA programming guide, "Thread Block Clusters", "Distributed
// Shared Memory"): __cluster_dims__ and cudaLaunchKernelEx's cluster attribute, cluster.sync() and
// its split arrive/wait, each block reading and adding to the others' shared memory, and the
// cudaErrorInvalidClusterSize of misconfigured launches; the same warp instructions timed and not.
TEST_F(CudaPrograms, ThreadBlockClustersShareTheirBlocksSharedMemoryAndBarrier) {
  expect_passes("clusters", "clusters: PASSED", "--functional");
  const std::string timed_stats = scratch("clusters_timed.json");
  const ProgramRun r = cuda("clusters", "--stats '" + timed_stats + "'");
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_TRUE(contains(r.out, "clusters: PASSED")) << r.out;
  // A warp polling barrier.cluster.wait in the timing model executes nothing: both count alike.
  const nlohmann::json f = functional_stats("clusters"),
                       t = nlohmann::json::parse(read(timed_stats));
  ASSERT_EQ(f["launches"].size(), 3u);
  ASSERT_EQ(t["launches"].size(), 3u);
  for (size_t i = 0; i < 3; ++i)
    EXPECT_EQ(f["launches"][i]["warp_instructions"], t["launches"][i]["warp_instructions"]) << i;
}

// Cooperative groups' grid.sync() (CUDA programming guide, "Grid Synchronization"): the grid
// workspace of a cooperative launch, every CTA resident, timed; interleaved CTAs on the functional
// engine.
TEST_F(CudaPrograms, AGridSyncInACooperativeLaunchSeparatesPhasesOfTheWholeGrid) {
  expect_passes_timed_and_functional("grid_sync", "grid_sync: PASSED");
}

// CUDA dynamic parallelism (programming guide, "CUDA Dynamic Parallelism"), a program built with
// -rdc=true: child grids from device code, run after their parent, each a launch of its own; the
// nesting limit's error; device cudaMalloc/cudaMemcpyAsync/cudaMemsetAsync. Timed and functional.
TEST_F(CudaPrograms, ChildGridsLaunchedFromTheDeviceRunAfterTheirParentsAndNestUpTo24Deep) {
  expect_passes_timed_and_functional("dynamic_parallelism",
                                     "dynamic_parallelism: PASSED (6 child grids, 25 levels)");
  const nlohmann::json j = functional_stats("dynamic_parallelism");
  // parent + 6 children, 25 levels of dive, device_memory + its child
  ASSERT_EQ(j["launches"].size(), 7u + 25u + 2u);
  EXPECT_EQ(j["launches"][0]["kernel"], "_Z6parentPii");
  EXPECT_EQ(j["launches"][0]["kernel_demangled"], "parent(int*, int)");
  for (int i = 1; i <= 6; ++i) EXPECT_EQ(j["launches"][i]["kernel"], "_Z10fill_slicePiii") << i;
  EXPECT_EQ(j["launches"][33]["kernel"], "_Z8sum_intoPKiiPi");
}

// Textures and surfaces through objects (PTX ISA 9.7.10 tex/tld4, 9.7.11 suld/sust): 2D linear
// filtering with wrap, tex1Dfetch, 3D, layered, cube map, surfaces and tex2Dgather against the
// program's CPU reference, timed (texel loads through the L1) and functional.
TEST_F(CudaPrograms, TexturesAndSurfacesMatchTheHostsReferenceOfTheSamplingRules) {
  expect_passes_timed_and_functional("textures", "textures: PASSED");
}

TEST_F(CudaPrograms, AStructArgumentIsLaidOutAsThePtxParamListSays) {
  expect_passes("struct_arg", "struct_arg: PASSED");
}

TEST_F(CudaPrograms, GlobalAndSharedAtomicsGiveTheHostsCounts) {
  expect_passes("atomics", "atomics: PASSED");
}

// Events read simulated time; on the functional engine, a nominal one (ProgramRun::cycles): either
// way positive and additive, which the program checks. A launch waits in its stream until the host
// synchronises, so a kernel sees the latch the host sets after launching it (Runtime::launch).
TEST_F(CudaPrograms, StreamsAreSerialisedAndEventsMeasureSimulatedTime) {
  expect_passes_timed_and_functional("streams_events", "streams_events: PASSED");
}

// CUDA graphs (programming guide, "CUDA Graphs"): explicit and stream-captured graphs launched,
// updated and checked by the program, timed and functional; each kernel node runs as a launch of
// its own in the statistics (2 kernels in each of 7 graph launches, one launch with a kernel node
// disabled, then 5 rounds of a while conditional node's body).
TEST_F(CudaPrograms, GraphsBuiltAndCapturedRunTheirNodesInDependencyOrder) {
  expect_passes_timed_and_functional("graphs", "graphs: PASSED (20 kernel launches from graphs)");
  const nlohmann::json j = functional_stats("graphs");
  ASSERT_EQ(j["launches"].size(), 20u);
  EXPECT_EQ(j["launches"][0]["kernel"], "_Z4axpyPfPKfS1_fi");
  EXPECT_EQ(j["launches"][1]["kernel"], "_Z5scalePffi");
  EXPECT_EQ(j["launches"][8]["kernel"], "_Z5scalePffi") << "the disabled axpy node made no launch";
  EXPECT_EQ(j["launches"][19]["kernel"], "_Z10count_downPiy");
}

// A kernel's mangled PTX entry name (_Z4axpyPfPKfS1_fi) is shown demangled, as Nsight Compute shows
// it, in the summary's launch lines and beside the PTX name in the statistics; `kernel` stays the
// PTX name.
TEST_F(CudaPrograms, TheSummaryAndStatisticsShowAKernelsDemangledName) {
  const std::string stats = scratch("graphs_timed.json");
  const ProgramRun r = cuda("graphs", "--stats '" + stats + "'");
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_TRUE(contains(
      r.err, "\nlaunch              axpy(float*, float const*, float const*, float, int): "))
      << r.err;
  EXPECT_TRUE(contains(r.err, "\nlaunch              scale(float*, float, int): ")) << r.err;
  EXPECT_FALSE(contains(r.err, "_Z4axpy")) << r.err;
  const nlohmann::json j = nlohmann::json::parse(read(stats));
  EXPECT_EQ(j["launches"][0]["kernel"], "_Z4axpyPfPKfS1_fi");
  EXPECT_EQ(j["launches"][0]["kernel_demangled"],
            "axpy(float*, float const*, float const*, float, int)");
  const ProgramRun f = cuda("graphs", "--functional");
  EXPECT_TRUE(contains(f.err, "\nlaunch              scale(float*, float, int) grid ")) << f.err;
}

TEST_F(CudaPrograms, ManagedMemoryHasOneAddressForHostAndKernel) {
  expect_passes("memory_ops", "memory_ops: PASSED");
}

TEST_F(CudaPrograms, DevicePropertiesComeFromTheConfig) {
  const ProgramRun r = cuda("device_query");
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_TRUE(contains(
      r.out, "gputlm fermi-gtx480, 15 SMs at 1400000 kHz, warp 32, 49152 bytes shared per block"))
      << r.out;
  EXPECT_TRUE(contains(r.out, "device_query: PASSED")) << r.out;
}

TEST_F(CudaPrograms, TheRuntimeApiOfTodaysProgramsAnswersAsCuda13Documents) {
  const std::string stats = scratch("runtime_api.json");
  ProgramRun r = cuda("runtime_api", "--stats '" + stats + "'");
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_TRUE(contains(r.out, "runtime_api: PASSED")) << r.out;
  // The launch between cudaProfilerStart and Stop (the fourth) is the profiler range.
  EXPECT_TRUE(contains(r.err, "profiler ranges     launches 3-3")) << r.err;
  const nlohmann::json j = nlohmann::json::parse(read(stats));
  EXPECT_EQ(j["profiler_ranges"], nlohmann::json::parse(R"([{"from_launch": 3, "to_launch": 4}])"));
  r = cuda("runtime_api", "--functional");
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_TRUE(contains(r.out, "runtime_api: PASSED")) << r.out;
}

TEST_F(CudaPrograms, NvrtcPtxRunsThroughTheDriverApiOnTheRuntimesSimulator) {
  expect_passes("driver_api", "driver_api: PASSED (1 device, compute 7.x, scale 4 bytes)");
}

// The driver API's CUDA arrays, copies (cuMemcpy2D/3D, cuMemcpy{HtoA,AtoH,AtoD,DtoA}) and texture
// and surface objects, on the runtime's arrays and texture table: point and linear sampling,
// clamping, 8-bit texels promoted to normalised floats, a surface write, misuses; timed and
// functional.
TEST_F(CudaPrograms, DriverApiArraysCopiesAndTextureObjectsMatchTheHostsValues) {
  expect_passes_timed_and_functional("driver_arrays", "driver_arrays: PASSED");
}

// Virtual memory management: two physical allocations mapped back to back in a reservation, a
// kernel and copies across both, data kept across unmap and map while the handle is held, memory
// returned with the last mapping, misuses; timed and functional.
TEST_F(CudaPrograms, VirtualMemoryMappingsActAsOneRangeOfDeviceMemory) {
  expect_passes_timed_and_functional("driver_vmm", "driver_vmm: PASSED (granularity 2 MB)");
}

TEST_F(CudaPrograms, HostThreadsTakeTurnsWithTheirOwnLaunchConfigurations) {
  const std::string stats = scratch("threads.json");
  const ProgramRun r = cuda("host_threads", "--stats '" + stats + "'");
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_TRUE(contains(r.out, "host_threads: PASSED")) << r.out;
  EXPECT_EQ(nlohmann::json::parse(read(stats))["launches"].size(), 12u);
}

TEST_F(CudaPrograms, TheFunctionalEngineRunsTheSameProgram) {
  const std::string stats = scratch("functional.json");
  const ProgramRun r = cuda("particle_filter", "--functional --stats '" + stats + "'");
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_TRUE(contains(r.out, "particle_filter: PASSED")) << r.out;
  EXPECT_TRUE(contains(r.err, "functional")) << r.err;
  const nlohmann::json j = nlohmann::json::parse(read(stats));
  EXPECT_EQ(j["mode"], "functional");
  EXPECT_EQ(j["launches"].size(), 2u);
}

TEST_F(CudaPrograms, AnUnimplementedApiFunctionEndsTheRunNamingIt) {
  const ProgramRun r = cuda("unimplemented_api");
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_TRUE(contains(r.err, "gputlm cuda: cudaIpcGetMemHandle is not implemented")) << r.err;
  EXPECT_EQ(r.out, "") << "the program must not get a made-up answer";
}

TEST_F(CudaPrograms, AKernelFaultEndsTheRunAsGputlmRunDoes) {
  const ProgramRun r = cuda("fault");
  EXPECT_EQ(r.exit_code, 3) << r.out << r.err;
  EXPECT_TRUE(contains(r.err, "gputlm cuda: ")) << r.err;
  EXPECT_TRUE(contains(r.err, "overrun")) << "the fault names the kernel: " << r.err;
  EXPECT_FALSE(contains(r.out, "FAILED")) << r.out;
}

// Issue 40 part 5: Rodinia's particlefilter gave other numbers functional than timed, and others
// from run to run, because it seeds its generators with time(0) (a second later, other particles;
// so on a GPU too). With the seed fixed, a fast-math particle filter gives the same bits timed,
// functional and functional again.
TEST_F(CudaPrograms, AFastMathParticleFilterGivesTheSameBitsTimedAndFunctional) {
  const ProgramRun timed = cuda("fast_math_filter"),
                   functional = cuda("fast_math_filter", "--functional"),
                   again = cuda("fast_math_filter", "--functional");
  EXPECT_TRUE(contains(timed.out, "fast_math_filter: PASSED")) << timed.out << timed.err;
  EXPECT_EQ(timed.out, functional.out);
  EXPECT_EQ(functional.out, again.out);
  EXPECT_NE(cuda("fast_math_filter", "", "8").out, timed.out) << "another seed, other particles";
}

// A read just outside an allocation reaches memory the device maps (2 MB pages): served with a
// warning, as a GPU serves it; --memcheck makes it a fault, as compute-sanitizer reports it.
TEST_F(CudaPrograms, AReadJustOutsideAnAllocationIsServedWithAWarningOrFaultsUnderMemcheck) {
  for (const bool functional : {false, true}) {
    const ProgramRun r = cuda("out_of_bounds", functional ? "--functional" : "");
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    EXPECT_TRUE(contains(r.out, "out_of_bounds: PASSED")) << r.out;
    EXPECT_TRUE(contains(r.err, "gputlm cuda: warning: 2 global accesses outside any allocation"))
        << r.err;
    EXPECT_TRUE(contains(r.err,
                         "'_Z10neighboursPKiPii': global address outside any allocation (in mapped "
                         "memory: served) at address 0x"))
        << r.err;
    EXPECT_TRUE(contains(r.err, "out_of_bounds.sm_75.ptx:")) << "the PTX line: " << r.err;
  }
  const ProgramRun strict = cuda("out_of_bounds", "--memcheck");
  EXPECT_EQ(strict.exit_code, 3) << strict.out << strict.err;
  EXPECT_TRUE(contains(
      strict.err, "kernel fault in '_Z10neighboursPKiPii': global address outside any allocation"))
      << strict.err;
  EXPECT_FALSE(contains(strict.out, "PASSED")) << strict.out;
}

TEST_F(CudaPrograms, AProgramEndedByAnErrorKeepsTheStatisticsOfItsCompletedLaunches) {
  for (const bool functional : {false, true}) {
    const std::string stats = scratch(functional ? "fault_functional.json" : "fault.json");
    const ProgramRun r =
        cuda("fault", std::string(functional ? "--functional " : "") + "--stats '" + stats + "'");
    EXPECT_EQ(r.exit_code, 3) << r.out << r.err;
    EXPECT_TRUE(contains(r.err, "STOPPED by a kernel fault (exit 3) in launch 1 (_Z7overrunPij)"))
        << r.err;
    const nlohmann::json j = nlohmann::json::parse(read(stats));
    EXPECT_EQ(j["complete"], false);
    ASSERT_EQ(j["launches"].size(), 1u) << "the launch that completed before the fault";
    EXPECT_EQ(j["launches"][0]["kernel"], "_Z4fillPi");
  }
  const std::string stats = scratch("unimplemented.json");
  const ProgramRun r = cuda("unimplemented_api", "--stats '" + stats + "'");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_TRUE(contains(r.err, "STOPPED by an error (exit 2) before any launch")) << r.err;
  EXPECT_EQ(nlohmann::json::parse(read(stats))["complete"], false);
}

TEST_F(CudaPrograms, LzCompressedAndUncompressedFatBinariesRunAlike) {
  for (const char* name : {"vecadd_lz4", "vecadd_uncompressed"}) {
    const ProgramRun r = cuda(name);
    EXPECT_EQ(r.exit_code, 0) << name << ": " << r.out << r.err;
    EXPECT_EQ(r.out, "vecadd: PASSED (n=4096)\n") << name;
  }
}

TEST_F(CudaPrograms, AFatBinaryWithoutPtxIsRefusedNamingTheNvccFlags) {
  const ProgramRun r = cuda("vecadd_sass_only");
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_TRUE(contains(r.err, "holds no PTX (only machine code for sm_75)")) << r.err;
  EXPECT_TRUE(contains(r.err, "-arch=sm_75")) << r.err;
}

// __constant__ and __device__ variables: module variables placed by func::load_module_variables.
TEST_F(CudaPrograms, CopiesToAndFromSymbolsReachTheKernelsVariables) {
  expect_passes("symbol_copy", "symbol_copy: PASSED");
}

// gputlm (its process id) running particle_filter on 131072 particles with statistics and waves
// into files named `prefix`.json/.vcd/.out/.err, once its launch is under way (the VCD exists).
pid_t start_long_run(const std::string& prefix) {
  const pid_t pid = fork();
  if (pid == 0) {
    const std::string sh = "cd '" GPUTLM_SOURCE_DIR "' && exec '" GPUTLM_BINARY
                           "' cuda --config configs/fermi-gtx480.json --stats '" +
                           prefix + ".json' --vcd '" + prefix + ".vcd' -- '" +
                           program("particle_filter") + "' 131072 > '" + prefix + ".out' 2> '" +
                           prefix + ".err'";
    execl("/bin/sh", "sh", "-c", sh.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  const auto start = std::chrono::steady_clock::now();
  while (!std::filesystem::exists(prefix + ".vcd") &&
         std::chrono::steady_clock::now() - start < std::chrono::seconds(60))
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  return pid;
}

// SIGTERM sent to gputlm reaches the program; the runtime stops the launch at its next check,
// writes the statistics marked incomplete and ends with 128 + SIGTERM.
TEST_F(CudaPrograms, SigtermStopsALaunchAndWritesIncompleteStatistics) {
  const std::string prefix = scratch("stopped"), stats = prefix + ".json", out = prefix + ".out",
                    err = prefix + ".err";
  const auto start = std::chrono::steady_clock::now();
  auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  const pid_t pid = start_long_run(prefix);
  kill(pid, SIGTERM);
  int status = 0;
  while (waitpid(pid, &status, WNOHANG) == 0) {
    if (elapsed() > 120) kill(pid, SIGKILL);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 143) << read(out) << read(err);
  EXPECT_TRUE(contains(read(err), "STOPPED by SIGTERM")) << read(err);
  EXPECT_FALSE(contains(read(out), "PASSED")) << "the program did not go on";
  const nlohmann::json j = nlohmann::json::parse(read(stats));
  EXPECT_FALSE(j["complete"].get<bool>());
  EXPECT_EQ(j["stopped_by"], "SIGTERM");
}

// gputlm killed outright (a job's time limit) cannot pass a signal on: the program it started
// gets SIGTERM from the kernel (PR_SET_PDEATHSIG) and stops as above, writing its statistics,
// instead of simulating on unwatched.
TEST_F(CudaPrograms, KillingGputlmStopsTheProgramItStarted) {
  const std::string prefix = scratch("orphan"), stats = prefix + ".json";
  const pid_t pid = start_long_run(prefix);
  kill(pid, SIGKILL);
  int status = 0;
  waitpid(pid, &status, 0);
  const auto start = std::chrono::steady_clock::now();
  auto stopped = [&] { return contains(read(stats), "\"stopped_by\""); };
  while (!stopped() && std::chrono::steady_clock::now() - start < std::chrono::seconds(120))
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  ASSERT_TRUE(stopped()) << "the program went on: " << read(prefix + ".err");
  std::this_thread::sleep_for(std::chrono::milliseconds(500));  // written to its end
  EXPECT_EQ(nlohmann::json::parse(read(stats))["stopped_by"], "SIGTERM");
}

// __noinline__ and recursive device functions stay calls in PTX (.func, call, ret).
TEST_F(CudaPrograms, NonInlinedAndRecursiveDeviceFunctionsRun) {
  expect_passes("device_calls", "device_calls: PASSED");
}

// A function's own static __shared__ array (declared in its .func body) is placed after the
// kernel's static shared memory and before its dynamic shared memory: nothing overlaps.
TEST_F(CudaPrograms, AFunctionsSharedArrayOverlapsNeitherTheKernelsNorTheDynamicShared) {
  for (const char* name : {"function_shared", "function_shared_debug"})
    expect_passes(name, "function_shared: PASSED");
}

// The same program built with -G: device debug code, every math function a .weak .func call.
TEST_F(CudaPrograms, ADebugBuildRunsItsOutOfLineMathAndChecksItself) {
  expect_passes("device_calls_debug", "device_calls: PASSED");
}

// Whole programs built from the workloads' kernels (tests/cuda/<name>.cu #includes
// traces/<workload>/kernel.cu), each checking its results against its own host computation.
TEST_F(CudaPrograms, DataDependentBranchesAndLoopsGiveTheHostsResults) {
  expect_passes("divergence", "divergence: PASSED (n=1000, ctas=2");
}

TEST_F(CudaPrograms, ASharedMemoryReductionWithBarriersGivesTheHostsSums) {
  expect_passes("shared_reduction", "shared_reduction: PASSED (n=50000, ctas=2");
}

// Rodinia's host loop: a kernel pair per level, the change flag read back, until nothing changed.
TEST_F(CudaPrograms, BfsLaunchesKernelPairsUntilTheFlagItReadsBackStaysClear) {
  const std::string stats = scratch("bfs.json");
  const ProgramRun r = cuda("bfs", "--stats '" + stats + "'");
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const std::smatch m = [&] {
    std::smatch found;
    std::regex_search(
        r.out, found,
        std::regex("bfs: PASSED \\(n=4096, m=\\d+, depth (\\d+), (\\d+) kernel pairs\\)"));
    return found;
  }();
  ASSERT_EQ(m.size(), 3u) << r.out;
  const size_t pairs = std::stoul(m[2].str());
  EXPECT_EQ(pairs, std::stoul(m[1].str()) + 1) << "the last pair finds nothing new";
  const nlohmann::json j = nlohmann::json::parse(read(stats));
  ASSERT_EQ(j["launches"].size(), 2 * pairs);
  for (size_t i = 0; i < j["launches"].size(); ++i)
    EXPECT_EQ(j["launches"][i]["kernel"], i % 2 ? "bfs_kernel2" : "bfs_kernel") << i;
}

// The pyramid kernel launched steps / ph times, the temperature buffers swapped in between.
TEST_F(CudaPrograms, HotspotSwapsItsBuffersBetweenLaunches) {
  const std::string stats = scratch("hotspot.json");
  const ProgramRun r = cuda("hotspot", "--stats '" + stats + "'");
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_TRUE(contains(r.out, "hotspot: PASSED (48x48, ph 2, 6 steps in 3 launches")) << r.out;
  EXPECT_EQ(nlohmann::json::parse(read(stats))["launches"].size(), 3u);
}

// As AProgramGivesTheCyclesOfTheSameKernelRunAsAWorkload, with a kernel whose timing depends on its
// data: the program generates the inputs the workload's launch.json does (seed 1, "uniform"), so
// at the workload's test size both runs simulate the same kernel on the same data and addresses.
// (With other data the cycles differ: divergence's inputs drawn from seed 2 take 27492 cycles on
// fermi-gtx480 instead of 28104.)
TEST_F(CudaPrograms, ADataDependentProgramGivesTheCyclesOfItsWorkloadOnTheSameInputs) {
  for (const char* name : {"divergence", "shared_reduction"}) {
    const std::string as_program = scratch(std::string(name) + "_program.json"),
                      as_workload = scratch(std::string(name) + "_workload.json");
    const ProgramRun p = cuda(name, "--stats '" + as_program + "'");
    ASSERT_EQ(p.exit_code, 0) << p.out << p.err;
    const ProgramRun w =
        run_gputlm("run --config configs/fermi-gtx480.json --workload traces/micro/" +
                   std::string(name) + " --size test --stats '" + as_workload + "'");
    ASSERT_EQ(w.exit_code, 0) << w.out << w.err;
    const nlohmann::json a = nlohmann::json::parse(read(as_program)),
                         b = nlohmann::json::parse(read(as_workload));
    ASSERT_EQ(a["launches"].size(), 1u) << name;
    ASSERT_EQ(b["launches"].size(), 1u) << name;
    EXPECT_EQ(a["launches"][0]["cycles"], b["launches"][0]["cycles"]) << name;
    EXPECT_EQ(a["launches"][0]["warp_instructions"], b["launches"][0]["warp_instructions"]) << name;
  }
}

// Multiple launches with the buffers swapped in between, at the workload's test size (40x40, ph 2,
// 4 steps: 2 launches). The temperatures differ (the program's are not the workload's uniform
// random ones) but HotSpot's branches depend on indices only and its buffers are allocated in the
// workload's order and sizes, so every launch takes the workload's cycles.
TEST_F(CudaPrograms, EachLaunchOfAMultiLaunchProgramTakesTheCyclesOfTheWorkloadsLaunch) {
  const std::string as_program = scratch("hotspot_program.json"),
                    as_workload = scratch("hotspot_workload.json");
  const ProgramRun p = cuda("hotspot", "--stats '" + as_program + "'", "40 40 2 4");
  ASSERT_EQ(p.exit_code, 0) << p.out << p.err;
  EXPECT_TRUE(contains(p.out, "hotspot: PASSED (40x40, ph 2, 4 steps in 2 launches")) << p.out;
  const ProgramRun w = run_gputlm(
      "run --config configs/fermi-gtx480.json --workload traces/rodinia-like/hotspot --size test "
      "--stats '" +
      as_workload + "'");
  ASSERT_EQ(w.exit_code, 0) << w.out << w.err;
  const nlohmann::json a = nlohmann::json::parse(read(as_program)),
                       b = nlohmann::json::parse(read(as_workload));
  ASSERT_EQ(a["launches"].size(), 2u);
  ASSERT_EQ(b["launches"].size(), 2u);
  for (size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(a["launches"][i]["cycles"], b["launches"][i]["cycles"]) << i;
    EXPECT_EQ(a["launches"][i]["warp_instructions"], b["launches"][i]["warp_instructions"]) << i;
  }
}

// Device printf (CUDA programming guide, "Formatted Output"): the text of each synchronisation
// comes out at it, in order with the program's own output, on the timing model and the
// functional engine alike; a kernel never synchronised prints at exit.
TEST_F(CudaPrograms, DevicePrintfReachesStdoutWhenTheHostSynchronises) {
  const std::string device =
      "block 0 thread 0: f=0.000 i=00000 x=0xff s=gpu c=a ll=0 e=1.000000e-03\n"
      "block 0 thread 1: f=1.500 i=00001 x=0x100 s=gpu c=b ll=0 e=2.000000e-03\n"
      "block 0 thread 2: f=3.000 i=00002 x=0x101 s=gpu c=c ll=0 e=3.000000e-03\n"
      "block 1 thread 0: f=0.000 i=00100 x=0xff s=gpu c=a ll=8589934592 e=1.000000e-03\n"
      "block 1 thread 1: f=1.500 i=00101 x=0x100 s=gpu c=b ll=8589934592 e=2.000000e-03\n"
      "block 1 thread 2: f=3.000 i=00102 x=0x101 s=gpu c=c ll=8589934592 e=3.000000e-03\n";
  const std::string expected = "fifo 1048576 bytes\nhost: launched\n" + device +
                               "host: synchronised\n"
                               "even|   0|-0.0\n"
                               "odd |   1|-0.2\n"
                               "host: printf returned 3 and 3\n"
                               "printf: PASSED\n"
                               "bye from the device\n";
  for (const char* mode : {"", "--functional"}) {
    const ProgramRun r = cuda("printf", mode);
    EXPECT_EQ(r.exit_code, 0) << mode << "\n" << r.out << r.err;
    EXPECT_EQ(r.out, expected) << mode;
  }
}

// A failed device assert (CUDA programming guide, "Assertion"): the message on stderr names the
// block and thread, the synchronisation and every later call return cudaErrorAssert, and the
// program ends as it chooses (not with gputlm's kernel-fault status).
TEST_F(CudaPrograms, AFailedDeviceAssertIsCudaErrorAssertFromTheNextSynchronisation) {
  for (const char* mode : {"", "--functional"}) {
    const ProgramRun r = cuda("assert", mode);
    EXPECT_EQ(r.exit_code, 0) << mode << "\n" << r.out << r.err;
    EXPECT_EQ(r.out, "synchronize: cudaErrorAssert\nlater call: cudaErrorAssert\nassert: PASSED\n")
        << mode;
    EXPECT_TRUE(contains(r.err,
                         "assert.cu:11: void check(const int *, int): block: [1,0,0], thread: "
                         "[5,0,0] Assertion `v[i] >= 0` failed.\n"))
        << mode << "\n"
        << r.err;
    EXPECT_FALSE(contains(r.err, "gputlm cuda: ")) << "not a fatal end: " << r.err;
  }
}

// Device malloc/free (CUDA programming guide, "Dynamic Global Memory Allocation and Operations").
TEST_F(CudaPrograms, DeviceMallocBlocksOutliveTheirKernelUntilFreedAndRunOutAsTheHeapLimitSays) {
  for (const char* mode : {"", "--functional"}) {
    const ProgramRun r = cuda("device_malloc", mode);
    EXPECT_EQ(r.exit_code, 0) << mode << "\n" << r.out << r.err;
    EXPECT_EQ(
        r.out,
        "device_malloc: PASSED (heap 3072 bytes, 48 of 64 threads got a block, 48 after freeing)\n")
        << mode;
  }
}

TEST_F(CudaCommand, TheProgramsExitStatusPassesThrough) {
  const ProgramRun r =
      run_gputlm("cuda --config configs/fermi-gtx480.json -- sh -c 'echo hello; exit 7'");
  EXPECT_EQ(r.exit_code, 7) << r.err;
  EXPECT_EQ(r.out, "hello\n");
}

TEST_F(CudaCommand, ABadConfigIsAnErrorBeforeTheProgramRuns) {
  const ProgramRun r = run_gputlm("cuda --config configs/no-such.json -- sh -c 'echo ran'");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_TRUE(contains(r.err, "no-such.json")) << r.err;
}

TEST_F(CudaCommand, ABadVcdWindowIsAnErrorBeforeTheProgramRuns) {
  const ProgramRun r = run_gputlm("cuda --config configs/fermi-gtx480.json --vcd '" +
                                  scratch("w.vcd") + "' --vcd-window 9:3 -- sh -c 'echo ran'");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_TRUE(contains(r.err, "cuda: --vcd-window ends before it starts")) << r.err;
}

TEST_F(CudaCommand, AMissingProgramIsAnError) {
  const ProgramRun r = run_gputlm("cuda --config configs/fermi-gtx480.json");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(contains(r.err, "give the program after '--'")) << r.err;
}

}  // namespace
