// Reading Accel-Sim SASS traces: the real vectorAdd trace (tracer version 5, Ampere; MIT, see
// traces/accel-sim/vectoradd/ATTRIBUTION.md) reads whole with its address modes decoded; version
// 4 lines, the base+deltas and list modes, and bad traces are checked on small texts.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "io/trace/accel_sim.h"
#include "models/common/error.h"

namespace gputlm::accelsim {
namespace {

const std::string kDir = std::string(GPUTLM_SOURCE_DIR) + "/traces/accel-sim/vectoradd";

TEST(AccelSim, TheKernelsListHasTwoCopiesThenTheKernel) {
  const std::vector<Command> c = read_kernelslist(kDir);
  ASSERT_EQ(c.size(), 3u);
  EXPECT_EQ(c[0].kind, Command::Kind::MemcpyHtoD);
  EXPECT_EQ(c[0].address, 0x00007fb0fc400000ull);
  EXPECT_EQ(c[0].bytes, 200000u);
  EXPECT_EQ(c[2].kind, Command::Kind::Kernel);
  EXPECT_EQ(c[2].file, "kernel-1.traceg");
}

TEST(AccelSim, TheVectorAddTraceReadsWholeWithItsAddresses) {
  std::ifstream in(kDir + "/kernel-1.traceg");
  TracegReader r(in, "kernel-1.traceg");
  EXPECT_EQ(r.header().name, "_Z9vectorAddPKfS0_Pfi");
  EXPECT_EQ(r.header().grid.x, 196u);
  EXPECT_EQ(r.header().block.x, 256u);
  EXPECT_EQ(r.header().binary_version, 80u);
  EXPECT_EQ(r.header().tracer_version, 5u);
  uint64_t blocks = 0, warps = 0, instructions = 0, loads = 0;
  bool checked_first_load = false;
  for (auto k = r.next(); k != TracegReader::Kind::End; k = r.next()) {
    blocks += k == TracegReader::Kind::Block;
    warps += k == TracegReader::Kind::Warp;
    if (k != TracegReader::Kind::Instruction) continue;
    ++instructions;
    if (r.instr.opcode != "LDG.E") continue;
    ++loads;
    EXPECT_EQ(r.instr.width, 4u);
    if (!checked_first_load) {  // block 0, warp 0: "00a0 ffffffff 1 R4 LDG.E 1 R4 4 1
                                // 0x7fb0fc430e00 4 0"
      checked_first_load = true;
      EXPECT_EQ(r.instr.pc, 0xa0u);
      EXPECT_EQ(r.instr.dests, std::vector<std::string>{"R4"});
      for (unsigned l = 0; l < kWarpSize; ++l)
        EXPECT_EQ(r.instr.addr[l], 0x7fb0fc430e00ull + 4 * l) << l;
    }
  }
  EXPECT_EQ(blocks, 196u);
  EXPECT_EQ(warps, 196u * 8);
  EXPECT_EQ(instructions, 1563u * 17 + 5u * 6);  // the last block's 5 idle warps stop at EXIT
  EXPECT_EQ(loads, 2u * 1563);
}

std::string header(int version) {
  return "-kernel name = k\n-kernel id = 1\n-grid dim = (1,1,1)\n-block dim = (32,1,1)\n-shmem = "
         "0\n-nregs = 8\n"
         "-binary version = 61\n-accelsim tracer version = " +
         std::to_string(version) + "\n\n";
}

TEST(AccelSim, Version4LinesAndTheDeltaAndListModesDecode) {
  std::istringstream in(header(4) +
                        "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 2\n"
                        "0010 0000000d 1 R1 LDG.E.64 1 R2 8 2 0x1000 16 -8\n"
                        "0020 00000003 0 STG.E 2 R2 R1 4 0 0xa0 0xb0\n#END_TB\n");
  TracegReader r(in, "v4.traceg");
  ASSERT_EQ(r.next(), TracegReader::Kind::Block);
  ASSERT_EQ(r.next(), TracegReader::Kind::Warp);
  ASSERT_EQ(r.next(), TracegReader::Kind::Instruction);
  EXPECT_EQ(r.instr.addr[0], 0x1000u);  // lanes 0, 2, 3: base, +16, -8
  EXPECT_EQ(r.instr.addr[2], 0x1010u);
  EXPECT_EQ(r.instr.addr[3], 0x1008u);
  ASSERT_EQ(r.next(), TracegReader::Kind::Instruction);
  EXPECT_EQ(r.instr.addr[0], 0xa0u);
  EXPECT_EQ(r.instr.addr[1], 0xb0u);
  EXPECT_EQ(r.instr.srcs.size(), 2u);
  EXPECT_EQ(r.next(), TracegReader::Kind::End);
}

std::string error_of(const std::string& text) {
  std::istringstream in(text);
  try {
    TracegReader r(in, "bad.traceg");
    while (r.next() != TracegReader::Kind::End) {}
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(AccelSim, BadTracesAreOneErrorWithTheirLine) {
  EXPECT_NE(error_of(header(3)).find("tracer version 3 is not supported"), std::string::npos)
      << error_of(header(3));
  EXPECT_NE(error_of("-kernel name = k\n#BEGIN_TB\n").find("the header has no '-kernel id'"),
            std::string::npos);
  const std::string body = "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 2\n";
  const std::string truncated = error_of(header(5) + body + "0000 ffffffff 1 R1 MOV 0 0 0\n");
  EXPECT_NE(truncated.find("truncated: warp 0 lacks 1 instruction line(s)"), std::string::npos)
      << truncated;
  const std::string few =
      error_of(header(5) + body +
               "0000 00000003 1 R1 LDG.E 1 R2 4 0 0x10 0\n0010 ffffffff 0 EXIT 0 0 0\n#END_TB\n");
  EXPECT_NE(few.find("bad.traceg:14: "), std::string::npos) << few;
  const std::string mode =
      error_of(header(5) + body +
               "0000 00000001 1 R1 LDG.E 1 R2 4 7 0x10 0\n0010 ffffffff 0 EXIT 0 0 0\n#END_TB\n");
  EXPECT_NE(mode.find("bad.traceg:14: unknown address mode 7"), std::string::npos) << mode;
  EXPECT_NE(
      error_of(header(5) +
               "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 1\n0000 ffffffff 0 EXIT 0 0 0\n")
          .find("no #END_TB"),
      std::string::npos);
}

}  // namespace
}  // namespace gputlm::accelsim
