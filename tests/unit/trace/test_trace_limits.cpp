// Both trace readers on hostile numbers: warp and CTA indices outside the launch, warp
// instruction counts, barrier IDs, memory widths and launch shapes are checked against the launch
// and models/common/limits.h before anything is allocated; each is one error naming file and line.
#include <gtest/gtest.h>

#include <unistd.h>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "io/trace/accel_sim.h"
#include "io/trace/trace_format.h"
#include "support/input_error.h"

namespace gputlm::trace {
namespace {

// Reads a gputlm trace whole.
void read_trace(const std::string& text) {
  std::istringstream in(text);
  trace::TraceReader r(in, "bad.trace");
  while (r.next() != trace::TraceReader::Kind::End) {}
}

const std::string kHead =
    "gputlm-trace 1\nworkload w size test\nmodule 0\nlaunch 0 kernel k grid 2 1 1 block 64 1 1 "
    "shared 0 registers 4\n";

TEST(TraceReader, RejectsWarpIndexOutsideTheBlock) {
  test::input_error([] { read_trace(kHead + "warp 0 4294967295 1\n0 0 1 ret - - x\n"); },
                    {"bad.trace:5:", "warp 4294967295 is outside"});
  test::input_error([] { read_trace(kHead + "warp 0 2 1\n0 0 1 ret - - x\n"); },
                    {"bad.trace:5:", "outside the launch's block (64,1,1)"});
  test::input_error([] { read_trace(kHead + "warp 2 0 1\n0 0 1 ret - - x\n"); },
                    {"bad.trace:5:", "CTA 2 is outside"});
}

TEST(TraceReader, RejectsWarpInstructionCountsAboveTheLimit) {
  test::input_error([] { read_trace(kHead + "warp 0 0 1000000000000\n"); },
                    {"bad.trace:5:", "max_warp_instructions"});
}

TEST(TraceReader, RejectsBarrierIdsBeyondTheSixteenBarriers) {
  test::input_error([] { read_trace(kHead + "warp 0 0 1\n0 0 1 bar.sync - - b 99 0\n"); },
                    {"bad.trace:6:", "barrier 99"});
  test::input_error([] { read_trace(kHead + "warp 0 0 1\n0 0 1 bar.sync - - b 0 4096\n"); },
                    {"bad.trace:6:"});
}

TEST(TraceReader, RejectsMalformedMemoryFieldInsteadOfEndingTheLine) {
  test::input_error(
      [] {
        read_trace(kHead + "warp 0 0 1\n0 0 1 ld.global.u32 %r1 %rd1 m global four 1 s 100 0\n");
      },
      {"bad.trace:6:", "field 'm' is incomplete"});
}

TEST(TraceReader, RejectsMemoryWidthsOutsideOneTo32Bytes) {
  for (const char* w : {"0", "65536", "2147483648", "3"})
    test::input_error(
        [&] {
          read_trace(kHead + "warp 0 0 1\n0 0 1 ld.global.u32 %r1 %rd1 m global " + w +
                     " 1 s 100 0\n");
        },
        {"bad.trace:6:", "max_access_bytes"});
}

TEST(TraceReader, RejectsLaunchShapesOfZeroOrTooMany) {
  const std::string head = "gputlm-trace 1\nworkload w size test\nmodule 0\n";
  test::input_error(
      [&] {
        read_trace(head + "launch 0 kernel k grid 0 1 1 block 32 1 1 shared 0 registers 4\n");
      },
      {"bad.trace:4:", "dimension is 0"});
  test::input_error(
      [&] {
        read_trace(head +
                   "launch 0 kernel k grid 2147483647 1 1 block 32 1 1 shared 0 registers 4\n");
      },
      {"bad.trace:4:", "max_ctas_per_launch"});
  test::input_error(
      [&] {
        read_trace(head +
                   "launch 0 kernel k grid 1 1 1 block 65536 65536 1 shared 0 registers 4\n");
      },
      {"bad.trace:4:", "max_threads_per_cta"});
  test::input_error(
      [&] {
        read_trace(head +
                   "launch 0 kernel k grid 1 1 1 block 32 1 1 shared 4294967295 registers 4\n");
      },
      {"bad.trace:4:", "max_shared_bytes"});
}

// Reads an Accel-Sim .traceg whole.
void read_traceg(const std::string& text) {
  std::istringstream in(text);
  accelsim::TracegReader r(in, "bad.traceg");
  while (r.next() != accelsim::TracegReader::Kind::End) {}
}

std::string traceg_header(const std::string& grid = "(2,1,1)",
                          const std::string& block = "(64,1,1)") {
  return "-kernel name = k\n-kernel id = 1\n-grid dim = " + grid + "\n-block dim = " + block +
         "\n-shmem = 0\n-nregs = 8\n-binary version = 61\n-accelsim tracer version = 4\n\n";
}

TEST(AccelSimReader, RejectsWarpIndexOutsideTheBlock) {
  test::input_error(
      [] {
        read_traceg(traceg_header() +
                    "#BEGIN_TB\nthread block = 0,0,0\nwarp = 4294967295\ninsts = 0\n#END_TB\n");
      },
      {"bad.traceg:12:", "warp 4294967295 is outside"});
}

TEST(AccelSimReader, RejectsThreadBlocksOutsideTheGrid) {
  test::input_error(
      [] { read_traceg(traceg_header() + "#BEGIN_TB\nthread block = 2,0,0\n#END_TB\n"); },
      {"bad.traceg:11:", "outside the grid"});
}

TEST(AccelSimReader, RejectsWarpInstructionCountsAboveTheLimit) {
  test::input_error(
      [] {
        read_traceg(traceg_header() +
                    "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 1000000000000\n");
      },
      {"bad.traceg:13:", "max_warp_instructions"});
}

TEST(AccelSimReader, RejectsMemoryWidthsAbove32Bytes) {
  test::input_error(
      [] {
        read_traceg(traceg_header() +
                    "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 1\n0000 00000001 1 R1 "
                    "LDG.E 1 R2 2147483648 1 0x10 4\n");
      },
      {"bad.traceg:14:", "max_access_bytes"});
}

TEST(AccelSimReader, RejectsGridsOfZeroOrTooMany) {
  test::input_error([] { read_traceg(traceg_header("(0,1,1)")); },
                    {"bad.traceg:", "dimension is 0"});
  test::input_error([] { read_traceg(traceg_header("(2147483647,1,1)")); },
                    {"bad.traceg:", "max_ctas_per_launch"});
}

// Fuzz finding (fuzz_accel_sim): a kernelslist.g line longer than a file name may be made
// std::filesystem throw instead of reporting the kernel trace as missing.
TEST(AccelSimReader, RejectsKernelsListNamesTooLongForTheFileSystem) {
  namespace fs = std::filesystem;
  const fs::path dir =
      fs::temp_directory_path() / ("gputlm-kernelslist-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "kernelslist.g") << "MemcpyHtoD,0x10,4\n"
                                       << std::string(5000, 'k') << ".traceg\n";
  test::input_error([&] { accelsim::read_kernelslist(dir.string()); },
                    {"kernelslist.g:2:", "no kernel trace"});
  std::ofstream(dir / "kernelslist.g") << "# only a comment\nMemcpyHtoD,0x10,4\n";
  test::input_error([&] { accelsim::read_kernelslist(dir.string()); },
                    {"kernelslist.g", "no kernel trace listed"});
  fs::remove_all(dir);
}

}  // namespace
}  // namespace gputlm::trace
