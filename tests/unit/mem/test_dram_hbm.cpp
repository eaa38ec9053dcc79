// The HBM presets (hbm2, hbm2e, hbm3, hbm3e; dram_presets.cpp) on the command model's device,
// without a simulation kernel: each preset's values and bandwidth, and each JEDEC rule with the
// cycles it gives on them. One DRAM channel is one pseudo-channel.
#include <gtest/gtest.h>

#include "models/mem/dram/dram_device.h"

namespace gputlm::mem {
namespace {

using C = DramCmd;

DramSpec preset(const char* name) { return *DramSpec::preset(name); }

// GB/s of one pseudo-channel: bytes a beat x beats a clock x clock.
double gbps(const DramSpec& s) {
  return double(s.command.bus_bytes * s.command.data_rate) * s.clock_mhz / 1000.0;
}

TEST(DramHbm, Hbm2PresetIsV100sHbm2) {
  const DramSpec s = preset("hbm2");
  const CommandTiming& c = s.command;
  EXPECT_EQ(s.clock_mhz, 877.5);
  EXPECT_EQ(s.banks, 16u);
  EXPECT_EQ(c.bank_groups, 4u);
  EXPECT_EQ(s.row_bytes, 1024u);
  EXPECT_EQ(c.burst_length * c.bus_bytes, 32u);  // BL4 on 64 bits
  EXPECT_EQ(c.burst(), 2u);
  EXPECT_EQ(c.tRCD, 13u);  // 14 ns at 877.5 MHz, rounded up
  EXPECT_EQ(c.rcd_write(), 13u);
  EXPECT_EQ(c.tCL, 13u);
  EXPECT_EQ(c.tRP, 13u);
  EXPECT_EQ(c.tRAS, 29u);
  EXPECT_EQ(c.rc(), 42u);
  EXPECT_EQ(c.tWL, 2u);
  EXPECT_EQ(c.tCCD_S, 2u);
  EXPECT_EQ(c.tCCD_L, 4u);
  EXPECT_EQ(c.tRRD_S, 4u);
  EXPECT_EQ(c.tFAW, 14u);
  EXPECT_EQ(c.rtw(), 13u + 2 + 2 - 2);
  EXPECT_EQ(c.tRFC, 229u);
  EXPECT_EQ(c.tREFI, 3423u);
  // 64 pseudo-channels (4 stacks x 8 channels x 2): the whitepaper's 900 GB/s.
  EXPECT_DOUBLE_EQ(gbps(s) * 64, 898.56);
}

TEST(DramHbm, Hbm2ePresetRunsAt3Point2Gbps) {
  const DramSpec s = preset("hbm2e");
  const CommandTiming& c = s.command;
  EXPECT_EQ(s.clock_mhz, 1600.0);
  EXPECT_EQ(c.tRCD, 23u);
  EXPECT_EQ(c.rcd_write(), 19u);
  EXPECT_EQ(c.tCL, 23u);
  EXPECT_EQ(c.rc(), 54u + 23);
  EXPECT_EQ(c.tCCD_L, 6u);
  EXPECT_EQ(c.tRRD_S, 7u);
  EXPECT_EQ(c.tFAW, 24u);
  EXPECT_EQ(c.tRFC, 560u);
  EXPECT_DOUBLE_EQ(gbps(s) * 16, 409.6);  // a stack: 8 channels x 2 pseudo-channels
}

TEST(DramHbm, Hbm3PresetIsRamulator2sHbm3At6Point4Gbps) {
  const DramSpec s = preset("hbm3");
  const CommandTiming& c = s.command;
  EXPECT_EQ(s.clock_mhz, 1600.0);
  EXPECT_EQ(s.banks, 16u);
  EXPECT_EQ(c.burst_length, 8u);
  EXPECT_EQ(c.bus_bytes, 4u);  // 32-bit pseudo-channel
  EXPECT_EQ(c.burst(), 2u);
  EXPECT_EQ(c.tRCD, 31u);
  EXPECT_EQ(c.rcd_write(), 15u);
  EXPECT_EQ(c.tCL, 20u);
  EXPECT_EQ(c.rc(), 72u);
  EXPECT_EQ(c.rtw(), 20u);
  EXPECT_EQ(c.tFAW, 24u);
  EXPECT_EQ(c.tRFC, 560u);
  EXPECT_EQ(c.tREFI, 6240u);
  EXPECT_DOUBLE_EQ(gbps(s) * 32, 819.2);  // a stack: 16 channels x 2 pseudo-channels
}

TEST(DramHbm, Hbm3ePresetRunsAt9Point6Gbps) {
  const DramSpec s = preset("hbm3e");
  const CommandTiming& c = s.command;
  EXPECT_EQ(s.clock_mhz, 2400.0);
  EXPECT_EQ(c.tRCD, 47u);
  EXPECT_EQ(c.rcd_write(), 23u);
  EXPECT_EQ(c.tCL, 30u);
  EXPECT_EQ(c.tRP, 39u);
  EXPECT_EQ(c.rc(), 108u);
  EXPECT_EQ(c.rtw(), 30u);
  EXPECT_EQ(c.tFAW, 36u);
  EXPECT_EQ(c.tRFC, 1080u);
  EXPECT_DOUBLE_EQ(gbps(s) * 32, 1228.8);
}

TEST(DramHbm, TheOtherPresetsKeepOneActivateToColumnDelay) {
  for (const char* name : {"ddr4-2400", "gddr5", "gddr6"}) {
    const CommandTiming c = preset(name).command;
    EXPECT_EQ(c.tRCDWR, 0u) << name;
    EXPECT_EQ(c.rcd_write(), c.tRCD) << name;
  }
}

TEST(DramHbm, KeysBesideAnHbmPresetOverrideIt) {
  const DramSpec s = DramSpec::from_json(
      {{"preset", "hbm3"}, {"command", {{"tRCDWR", 0}, {"tRRD_S", 6}}}}, "c.json");
  EXPECT_EQ(s.command.rcd_write(), 31u);  // 0: tRCD
  EXPECT_EQ(s.command.tRRD_S, 6u);
  EXPECT_EQ(s.command.tCL, 20u);
}

TEST(DramHbm, RowEmptyHitAndConflictOnHbm2) {
  DramDevice d(preset("hbm2"));
  d.issue(C::Act, 0, 1, 0);
  EXPECT_EQ(d.earliest(C::Read, 0), 13u);            // tRCD
  EXPECT_EQ(13u + d.data_end(false), 13u + 13 + 2);  // empty: tRCD + tCL + burst
  d.issue(C::Read, 0, 1, 13);
  EXPECT_EQ(d.earliest(C::Read, 0), 13u + 4);  // the same bank: tCCD_L
  EXPECT_EQ(d.earliest(C::Pre, 0), 29u);       // tRAS over tRTP (13 + 4)
  d.issue(C::Pre, 0, 1, 29);
  EXPECT_EQ(d.earliest(C::Act, 0), 42u);  // tRC (29 + tRP is 42 too)
  d.issue(C::Act, 0, 2, 42);
  EXPECT_EQ(d.earliest(C::Read, 0) + d.data_end(false) - 29, 13u + 13 + 13 + 2);  // conflict
}

TEST(DramHbm, ReadsToAnotherBankGroupAreTCcdSApartAndInTheSameGroupTCcdL) {
  DramDevice d(preset("hbm2"));  // banks 0-3 are group 0, 4-7 group 1
  for (uint32_t b : {0u, 1u, 4u}) d.issue(C::Act, b, 1, b * 4);
  d.issue(C::Read, 0, 1, 100);
  EXPECT_EQ(d.earliest(C::Read, 1), 100u + 4);  // same group: tCCD_L
  EXPECT_EQ(d.earliest(C::Read, 4), 100u + 2);  // another group: tCCD_S, the BL4 burst
  d.issue(C::Write, 4, 1, 120);
  EXPECT_EQ(d.earliest(C::Read, 5), 120u + 2 + 2 + 7);  // same group: tWL + burst + tWTR_L
  EXPECT_EQ(d.earliest(C::Read, 0), 120u + 2 + 2 + 3);  // another group: tWL + burst + tWTR_S
}

TEST(DramHbm, AFifthActivateWaitsForTFawOnHbm3) {
  DramDevice d(preset("hbm3"));
  d.issue(C::Act, 0, 1, 0);
  EXPECT_EQ(d.earliest(C::Act, 1), 5u);  // same group: tRRD_L
  EXPECT_EQ(d.earliest(C::Act, 4), 4u);  // another group: tRRD_S
  d.issue(C::Act, 4, 1, 4);
  d.issue(C::Act, 8, 1, 8);
  d.issue(C::Act, 12, 1, 12);
  EXPECT_EQ(d.earliest(C::Act, 1), 24u);  // tFAW from the first, not 12 + tRRD_S
}

TEST(DramHbm, Hbm2sTFawIsBelowFourTRrdAndNeverWaits) {
  DramDevice d(preset("hbm2"));
  for (uint32_t i = 0; i < 4; ++i) d.issue(C::Act, 4 * i, 1, 4 * i);
  EXPECT_EQ(d.earliest(C::Act, 1), 16u);  // 12 + tRRD; tFAW 14 from 0 is earlier
}

TEST(DramHbm, Hbm3ActivatesToWriteSoonerThanToRead) {
  DramDevice d(preset("hbm3"));
  d.issue(C::Act, 0, 1, 0);
  EXPECT_EQ(d.earliest(C::Write, 0), 15u);  // tRCDWR
  EXPECT_EQ(d.earliest(C::Read, 0), 31u);   // tRCD
  d.issue(C::Write, 0, 1, 15);
  EXPECT_EQ(d.earliest(C::Pre, 0), 15u + 10 + 2 + 33);  // tWL + burst + tWR
}

TEST(DramHbm, Hbm3sRowCycleIsTRcAboveTRasPlusTRp) {
  DramDevice d(preset("hbm3"));
  d.issue(C::Act, 0, 1, 0);
  d.issue(C::Read, 0, 1, 31);
  EXPECT_EQ(d.earliest(C::Pre, 0), 45u);  // tRAS (31 + tRTP is 40)
  d.issue(C::Pre, 0, 1, 45);
  EXPECT_EQ(d.earliest(C::Act, 0), 72u);  // tRC, one after tRAS + tRP
}

TEST(DramHbm, AllBankRefreshBlocksActivatesForTRfc) {
  DramDevice d(preset("hbm2"));
  d.issue(C::Refresh, 0, 0, 0);
  EXPECT_EQ(d.earliest(C::Act, 3), 229u);
  EXPECT_EQ(d.earliest(C::Refresh, 0), 229u);
}

}  // namespace
}  // namespace gputlm::mem
