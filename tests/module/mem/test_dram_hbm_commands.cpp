// The DRAM controller's command model on the HBM presets (one pseudo-channel each), driven by a
// scripted initiator, with exact expected cycles from the JEDEC rules; refresh off. The presets
// run at 1 GHz here, as the bench's player does, so a cycle is a nanosecond.
#include "tests/module/mem/dram_bench.h"

namespace gputlm::mem {
namespace {

// 16 banks (4 groups of 4) of 1 KB rows.
uint64_t addr(uint32_t bank, uint64_t row, uint64_t column = 0) {
  return (row << 14) | (uint64_t{bank} << 10) | column;
}

// One 32 B burst: BL4 on hbm2's 64 bits, BL8 on hbm3's 32.
tb::TraceRequest burst(tb::TraceRequest r) {
  r.bytes = 32;
  return r;
}

DramSpec hbm(const char* name) {
  DramSpec s = *DramSpec::preset(name);
  s.clock_mhz = 1000;
  s.command.tREFI = 0;
  s.address_map = {{"column", 10}, {"bank", 4}};
  return s;
}

TEST(DramHbmCommands, Hbm2UnloadedLatenciesAreTheTimingParameters) {
  DramBench b(
      {burst(rd(0, addr(0, 1))), burst(rd(100, addr(0, 1, 32))), burst(rd(200, addr(0, 2)))},
      hbm("hbm2"));
  EXPECT_EQ(b.latency(0), 13u + 13 + 2);       // empty: tRCD + tCL + burst
  EXPECT_EQ(b.latency(1), 13u + 2);            // hit: tCL + burst
  EXPECT_EQ(b.latency(2), 13u + 13 + 13 + 2);  // conflict: tRP + tRCD + tCL + burst
  EXPECT_EQ(b.stat("row_empties"), 1);
  EXPECT_EQ(b.stat("row_hits"), 1);
  EXPECT_EQ(b.stat("row_conflicts"), 1);
}

TEST(DramHbmCommands, Hbm2sLineOf128BytesTakesFourBurstsTCcdLApart) {
  DramBench b({rd(0, addr(0, 1))}, hbm("hbm2"));  // 128 B, one bank: tCCD_L between bursts
  EXPECT_EQ(b.latency(0), 13u + 3 * 4 + 13 + 2);
  EXPECT_EQ(b.stat("bus_busy_cycles"), 8);
}

TEST(DramHbmCommands, Hbm2ReadsToTwoBankGroupsGoTCcdSApartAndToOneGroupTCcdL) {
  // Rows 1 open in banks 0, 1 (group 0) and 4 (group 1); then two hits arrive together.
  const std::vector<tb::TraceRequest> open = {burst(rd(0, addr(0, 1))), burst(rd(1, addr(1, 1))),
                                              burst(rd(2, addr(4, 1)))};
  std::vector<tb::TraceRequest> other = open, same = open;
  other.push_back(burst(rd(200, addr(0, 1, 32))));
  other.push_back(burst(rd(200, addr(4, 1, 32))));
  same.push_back(burst(rd(200, addr(0, 1, 32))));
  same.push_back(burst(rd(200, addr(1, 1, 32))));
  DramBench a(other, hbm("hbm2"));
  EXPECT_EQ(a.latency(3), 13u + 2);
  EXPECT_EQ(a.done(4) - a.done(3), 2u);  // tCCD_S
  DramBench b(same, hbm("hbm2"));
  EXPECT_EQ(b.done(4) - b.done(3), 4u);  // tCCD_L
}

TEST(DramHbmCommands, Hbm3UnloadedLatenciesAndTheShorterActivateToWrite) {
  DramBench b({burst(rd(0, addr(0, 1))), burst(rd(200, addr(0, 2))), burst(wr(400, addr(5, 1)))},
              hbm("hbm3"));
  EXPECT_EQ(b.latency(0), 31u + 20 + 2);       // empty: tRCD + tCL + burst
  EXPECT_EQ(b.latency(1), 26u + 31 + 20 + 2);  // conflict: tRP + tRCD + tCL + burst
  EXPECT_EQ(b.latency(2), 15u + 10 + 2);       // write, empty: tRCDWR + tWL + burst
}

TEST(DramHbmCommands, Hbm3sFifthActivateWaitsForTFaw) {
  // Five reads to five closed banks in different groups where they can be: ACTs tRRD_S (4) apart
  // except the fifth, which waits for tFAW (24) from the first; each read tRCD + tCL + burst later.
  std::vector<tb::TraceRequest> s;
  for (uint32_t b : {0u, 4u, 8u, 12u, 1u}) s.push_back(burst(rd(0, addr(b, 1))));
  DramBench b(s, hbm("hbm3"));
  EXPECT_EQ(b.done(0), 31u + 20 + 2);
  EXPECT_EQ(b.done(3), 12u + 31 + 20 + 2);
  EXPECT_EQ(b.done(4), 24u + 31 + 20 + 2);
}

// dual_command_bus: rows 1 of bank 0 and 2 of bank 4 are open; a read of bank 4's row 1 arrives
// at 100 (PRE then, ACT allowed tRP = 13 later, at 113), and a hit to bank 0 at 113. In cycle 113
// both the ACT and the hit's RD may go. One command bus: FR-FCFS sends the hit's RD (done 113 +
// tCL + burst = 128) and the ACT a cycle later (done 114 + tRCD + tCL + burst = 142). HBM's row
// bus beside the column bus: both in cycle 113, the conflict's read done at 141.
TEST(DramHbmCommands, ADualCommandBusIssuesAnActivateBesideAColumnCommand) {
  const std::vector<tb::TraceRequest> s = {burst(rd(0, addr(0, 1))), burst(rd(1, addr(4, 2))),
                                           burst(rd(100, addr(4, 1))),
                                           burst(rd(113, addr(0, 1, 32)))};
  DramSpec one = hbm("hbm2"), two = hbm("hbm2");
  two.command.dual_command_bus = true;
  DramBench a(s, one), b(s, two);
  EXPECT_EQ(a.done(3), 113u + 13 + 2);
  EXPECT_EQ(b.done(3), 113u + 13 + 2);
  EXPECT_EQ(a.done(2), 114u + 13 + 13 + 2);
  EXPECT_EQ(b.done(2), 113u + 13 + 13 + 2);
}

}  // namespace
}  // namespace gputlm::mem
