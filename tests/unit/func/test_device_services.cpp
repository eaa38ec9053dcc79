// Calls of CUDA's device services on the functional engine (models/func/semantics/
// service_calls.cpp, device_services.h): printf records in execution order with nvcc's argument
// layout, its return value, assert stopping the launch with CUDA's message, malloc/free on the
// heap. Kernels from tests/data/ptx/services.cu as nvcc 13 emits them (-O3 and -G).
#include <gtest/gtest.h>

#include "models/common/error.h"
#include "models/func/device_services.h"
#include "models/func/kernel_fault.h"
#include "models/isa/ptx_parser.h"
#include "support/module_launch.h"

namespace gputlm::func {
namespace {

using test::ModuleLaunch;

constexpr const char* kBuilds[] = {"services.O3.sm_75.ptx", "services.G.sm_75.ptx"};

FuncStats run(ModuleLaunch& m, DeviceServices& s, const std::string& kernel, uint32_t grid,
              uint32_t block, const std::vector<uint64_t>& params) {
  Launch l = m.launch(kernel, grid, block, params);
  l.services = &s;
  s.begin_launch(*l.kernel, m.memory);
  return run_reference(*m.bound, l);
}

uint64_t float_param(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

TEST(DeviceServices, PrintfRecordsEachThreadsTextWarpByWarpInLaneOrder) {
  for (const char* build : kBuilds) {
    ModuleLaunch m = ModuleLaunch::file(test::ptx_data(build));
    DeviceServices s;
    run(m, s, "print", 2, 3, {5, float_param(0.5f)});
    EXPECT_EQ(s.take_output(),
              "thread 0 of block 0: 0 0.00 even\n"
              "thread 1 of block 0: 1 0.50 odd\n"
              "thread 2 of block 0: 4 1.00 even\n"
              "thread 0 of block 1: 9 1.50 odd\n"
              "thread 1 of block 1: 16 2.00 even\n")
        << build;
    EXPECT_EQ(s.take_output(), "") << "taking the output empties the FIFO";
  }
}

TEST(DeviceServices, PrintfReturnsTheNumberOfArgumentsParsed) {
  for (const char* build : kBuilds) {
    ModuleLaunch m = ModuleLaunch::file(test::ptx_data(build));
    DeviceServices s;
    const uint64_t out = m.memory.allocate(4 * 4, "parsed");
    run(m, s, "count", 1, 2, {out});
    EXPECT_EQ(m.read<int32_t>(out, 4), (std::vector<int32_t>{3, 0, 3, 0})) << build;
    EXPECT_EQ(s.take_output(), "0 1 2\n1 1 2\nnone\nnone\n")
        << build << ": each printf of the warp in turn";
  }
}

TEST(DeviceServices, PercentSReadsAStringInSharedMemory) {
  ModuleLaunch m = ModuleLaunch::file(test::ptx_data("services.O3.sm_75.ptx"));
  DeviceServices s;
  run(m, s, "shared_string", 1, 8, {});
  EXPECT_EQ(s.take_output(), "abcdefg\n");
}

TEST(DeviceServices, RecordsBeyondTheFifoAreDroppedAndTheSizeIsFixedByTheFirstLaunch) {
  ModuleLaunch m = ModuleLaunch::file(test::ptx_data("services.O3.sm_75.ptx"));
  DeviceServices s;
  // A record of "thread %d of block %d: %d %.2f %s\n": 16 + 5 arguments * 8 + "even"/"odd" (8) = 64
  // bytes.
  ASSERT_TRUE(s.set_printf_fifo_bytes(3 * 64));
  run(m, s, "print", 1, 5, {5, float_param(1.0f)});
  EXPECT_EQ(s.take_output(),
            "thread 0 of block 0: 0 0.00 even\nthread 1 of block 0: 1 1.00 odd\nthread 2 of block "
            "0: 4 2.00 even\n");
  EXPECT_EQ(s.dropped_records(), 2u);
  EXPECT_FALSE(s.set_printf_fifo_bytes(1 << 20)) << "a kernel that prints has been launched";
  EXPECT_EQ(s.printf_fifo_bytes(), 3u * 64);
}

TEST(DeviceServices, AFailedAssertStopsTheLaunchWithCudasMessageForEachFailingThread) {
  for (const char* build : kBuilds) {
    ModuleLaunch m = ModuleLaunch::file(test::ptx_data(build));
    DeviceServices s;
    EXPECT_THROW(run(m, s, "check", 2, 4, {2}), KernelFault) << build;
    ASSERT_TRUE(s.has_failed_assertion());
    const std::vector<std::string> messages = s.take_assertions();
    ASSERT_EQ(messages.size(), 2u)
        << build << ": threads 2 and 3 of the first block, then the launch stops";
    EXPECT_EQ(messages[0].substr(messages[0].find(": ", messages[0].find(':') + 1)),
              ": void check(int): block: [0,0,0], thread: [2,0,0] Assertion `threadIdx.x < limit` "
              "failed.")
        << messages[0];
    EXPECT_NE(messages[0].find("services.cu:"), std::string::npos) << messages[0];
    EXPECT_NE(messages[1].find("thread: [3,0,0]"), std::string::npos) << messages[1];
  }
}

TEST(DeviceServices, APassingAssertDoesNothing) {
  ModuleLaunch m = ModuleLaunch::file(test::ptx_data("services.O3.sm_75.ptx"));
  DeviceServices s;
  run(m, s, "check", 2, 4, {4});
  EXPECT_FALSE(s.has_failed_assertion());
}

TEST(DeviceServices, MallocGivesEachThreadItsOwnBlockUntilTheHeapIsExhausted) {
  for (const char* build : kBuilds) {
    ModuleLaunch m = ModuleLaunch::file(test::ptx_data(build));
    DeviceServices s;
    ASSERT_TRUE(s.set_heap_bytes(4 * 64));
    const uint64_t ptrs = m.memory.allocate(8 * 6, "ptrs");
    run(m, s, "allocate", 1, 6, {ptrs, 64});
    const std::vector<uint64_t> p = m.read<uint64_t>(ptrs, 6);
    for (int t = 0; t < 4; ++t) {
      ASSERT_NE(p[t], 0u) << build << " thread " << t;
      EXPECT_EQ(p[t] % 16, 0u);
      EXPECT_EQ(m.read<int32_t>(p[t], 1)[0], t) << "the kernel wrote its index into its block";
    }
    EXPECT_EQ(p[4], 0u) << "the heap holds four blocks of 64 bytes";
    EXPECT_EQ(p[5], 0u);
    EXPECT_FALSE(s.set_heap_bytes(1 << 20)) << "the heap is in use";
    run(m, s, "release", 1, 6, {ptrs});  // free(NULL) of threads 4 and 5 does nothing
    EXPECT_EQ(s.heap()->blocks(), 0u);
    run(m, s, "allocate", 1, 4, {ptrs, 64});
    EXPECT_EQ(m.read<uint64_t>(ptrs, 4), std::vector<uint64_t>(p.begin(), p.begin() + 4))
        << "a later kernel reuses what was freed";
  }
}

TEST(DeviceServices, AlignedMallocPlacesBlocksAtTheAlignmentAndRefusesOneThatIsNoPowerOfTwo) {
  for (const char* build : kBuilds) {
    ModuleLaunch m = ModuleLaunch::file(test::ptx_data(build));
    DeviceServices s;
    const uint64_t ptrs = m.memory.allocate(8 * 3, "ptrs");
    run(m, s, "aligned", 1, 3, {ptrs, 1024});
    for (uint64_t p : m.read<uint64_t>(ptrs, 3)) {
      EXPECT_NE(p, 0u) << build;
      EXPECT_EQ(p % 1024, 0u) << build;
    }
    run(m, s, "aligned", 1, 1, {ptrs, 48});
    EXPECT_EQ(m.read<uint64_t>(ptrs, 1)[0], 0u) << build;
  }
}

TEST(DeviceServices, FreeingAnAddressMallocDidNotReturnIsAKernelFault) {
  ModuleLaunch m = ModuleLaunch::file(test::ptx_data("services.O3.sm_75.ptx"));
  DeviceServices s;
  const uint64_t ptrs = m.memory.allocate(8, "ptrs");
  m.memory.write(ptrs, &ptrs, 8);
  try {
    run(m, s, "release", 1, 1, {ptrs});
    FAIL() << "no fault";
  } catch (const KernelFault& e) {
    EXPECT_NE(std::string(e.what()).find("free of an address device malloc did not return"),
              std::string::npos)
        << e.what();
  }
}

TEST(DeviceServices, ALaunchWithoutServicesFaultsNamingTheCall) {
  ModuleLaunch m = ModuleLaunch::file(test::ptx_data("services.O3.sm_75.ptx"));
  try {
    m.run("print", 1, 1, {1, 0});
    FAIL() << "no fault";
  } catch (const KernelFault& e) {
    EXPECT_NE(std::string(e.what()).find("call to 'vprintf'"), std::string::npos) << e.what();
  }
}

// The front end: a declaration with the wrong prototype is refused at link time, naming it.
TEST(DeviceServices, AServiceDeclaredWithTheWrongParametersIsASourceError) {
  const std::string ptx = R"(.version 9.0
.target sm_75
.address_size 64
.extern .func  (.param .b32 func_retval0) vprintf
(
	.param .b64 vprintf_param_0
)
;
.visible .entry k()
{
	.reg .b32 %r<2>;
	{
	.param .b64 param0;
	st.param.b64 [param0+0], 0;
	.param .b32 retval0;
	call.uni (retval0), vprintf, (param0);
	ld.param.b32 %r1, [retval0+0];
	}
	ret;
}
)";
  const std::unique_ptr<isa::Module> m = isa::parse_ptx(ptx, "bad.ptx");
  try {
    m->get("k");
    FAIL() << "accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("'vprintf' is declared with parameters other than"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace gputlm::func
