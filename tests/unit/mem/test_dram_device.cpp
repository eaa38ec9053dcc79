// The command model's device without a simulation kernel: every JEDEC constraint of
// CommandTiming moves the commands it governs, in its bank, bank group or the rank; and the
// presets and config keys.
#include <gtest/gtest.h>

#include "models/common/error.h"
#include "models/mem/dram/dram_device.h"

namespace gputlm::mem {
namespace {

using C = DramCmd;

DramSpec ddr4() { return *DramSpec::preset("ddr4-2400"); }

TEST(DramDevice, Ddr4PresetHasTheSpeedBinsValues) {
  const CommandTiming c = ddr4().command;
  EXPECT_EQ(c.tRCD, 16u);
  EXPECT_EQ(c.tRAS, 39u);
  EXPECT_EQ(c.rc(), 55u);
  EXPECT_EQ(c.tCCD_L, 6u);
  EXPECT_EQ(c.tRRD_S, 4u);
  EXPECT_EQ(c.tRRD_L, 6u);
  EXPECT_EQ(c.tFAW, 26u);
  EXPECT_EQ(c.tRTP, 9u);
  EXPECT_EQ(c.tWR, 18u);
  EXPECT_EQ(c.tWTR_L, 9u);
  EXPECT_EQ(c.rtw(), 16u + 4 + 2 - 12);
  EXPECT_EQ(c.tRFC, 420u);
  EXPECT_EQ(c.tREFI, 9360u);
  EXPECT_EQ(c.burst(), 4u);
}

TEST(DramDevice, AnAccessNeedsActPreOrItsColumnCommand) {
  DramDevice d(ddr4());
  EXPECT_EQ(d.next_command(3, 7, false), C::Act);
  d.issue(C::Act, 3, 7, 0);
  EXPECT_EQ(d.next_command(3, 7, false), C::Read);
  EXPECT_EQ(d.next_command(3, 7, true), C::Write);
  EXPECT_EQ(d.next_command(3, 8, false), C::Pre);
  d.issue(C::Pre, 3, 7, 100);
  EXPECT_EQ(d.open_row(3), std::nullopt);
}

TEST(DramDevice, OneBanksActivateReadPrechargeCycle) {
  DramDevice d(ddr4());
  d.issue(C::Act, 0, 1, 10);
  EXPECT_EQ(d.earliest(C::Read, 0), 10u + 16);  // tRCD
  EXPECT_EQ(d.earliest(C::Pre, 0), 10u + 39);   // tRAS
  d.issue(C::Read, 0, 1, 45);
  EXPECT_EQ(d.earliest(C::Pre, 0), 45u + 9);  // tRTP after the read
  d.issue(C::Pre, 0, 1, 54);
  EXPECT_EQ(d.earliest(C::Act, 0), std::max(54u + 16, 10u + 55));  // tRP, and tRC from the last ACT
  EXPECT_EQ(d.data_end(false), 16u + 4);
}

TEST(DramDevice, AWriteKeepsTheBankOpenForWriteRecovery) {
  DramDevice d(ddr4());
  d.issue(C::Act, 0, 1, 0);
  d.issue(C::Write, 0, 1, 16);
  EXPECT_EQ(d.earliest(C::Pre, 0), 16u + 12 + 4 + 18);  // tWL + burst + tWR
}

TEST(DramDevice, ColumnCommandsAreSpacedByBankGroup) {
  DramDevice d(ddr4());  // banks 0-3 are group 0, 4-7 group 1
  for (uint32_t b : {0u, 1u, 4u}) d.issue(C::Act, b, 1, b * 10);
  d.issue(C::Read, 0, 1, 100);
  EXPECT_EQ(d.earliest(C::Read, 1), 100u + 6);                 // same group: tCCD_L
  EXPECT_EQ(d.earliest(C::Read, 4), 100u + 4);                 // another group: tCCD_S
  EXPECT_EQ(d.earliest(C::Write, 4), 100u + 16 + 4 + 2 - 12);  // read to write turnaround
  d.issue(C::Write, 4, 1, 120);
  EXPECT_EQ(d.earliest(C::Read, 5), 120u + 12 + 4 + 9);  // same group: tWTR_L after the write data
  EXPECT_EQ(d.earliest(C::Read, 0), 120u + 12 + 4 + 3);  // another group: tWTR_S
}

TEST(DramDevice, ActivatesAreSpacedByGroupAndFourFitInTFaw) {
  DramDevice d(ddr4());
  d.issue(C::Act, 0, 1, 0);
  EXPECT_EQ(d.earliest(C::Act, 1), 6u);  // same group: tRRD_L
  EXPECT_EQ(d.earliest(C::Act, 4), 4u);  // another group: tRRD_S
  d.issue(C::Act, 4, 1, 4);
  d.issue(C::Act, 8, 1, 8);
  d.issue(C::Act, 12, 1, 12);
  EXPECT_EQ(d.earliest(C::Act, 1), 26u);  // a fifth activate waits for tFAW from the first
}

TEST(DramDevice, OneBankGroupUsesTheShortValuesEverywhere) {
  DramSpec s = ddr4();
  s.command.bank_groups = 1;
  DramDevice d(s);
  d.issue(C::Act, 0, 1, 0);
  d.issue(C::Act, 1, 1, 4);
  d.issue(C::Read, 0, 1, 20);
  EXPECT_EQ(d.earliest(C::Read, 1), 24u);
}

TEST(DramDevice, RefreshFollowsAPrechargeAllAndBlocksActivatesForTRfc) {
  DramDevice d(ddr4());
  d.issue(C::Act, 2, 1, 0);
  d.issue(C::Act, 9, 1, 4);
  EXPECT_TRUE(d.any_open());
  EXPECT_EQ(d.earliest(C::PreAll, 0), 4u + 39);  // the later ACT's tRAS
  d.issue(C::PreAll, 0, 0, 43);
  EXPECT_FALSE(d.any_open());
  EXPECT_EQ(d.earliest(C::Refresh, 0), std::max(43u + 16, 4u + 55));  // tRP, tRC
  d.issue(C::Refresh, 0, 0, 59);
  EXPECT_EQ(d.earliest(C::Act, 5), 59u + 420);  // tRFC
}

TEST(DramDevice, AutoPrechargeClosesTheRowWhenItsConstraintsAllow) {
  DramDevice d(ddr4());
  d.issue(C::Act, 0, 1, 0);
  d.issue(C::Read, 0, 1, 16, true);
  EXPECT_EQ(d.open_row(0), std::nullopt);
  EXPECT_EQ(d.earliest(C::Act, 0), 39u + 16);  // precharge at tRAS (39 > 16 + tRTP), then tRP
}

TEST(DramDevice, TheCommandModelRefreshesByDefault) {
  const DramSpec s = DramSpec::from_json({{"timing_model", "command"}}, "c.json");
  EXPECT_EQ(s.command.tREFI, 3604u);  // the gddr5 preset's 3.9 us
  EXPECT_EQ(s.command.tRFC, 61u);
  EXPECT_EQ(DramSpec::from_json({{"preset", "ddr4-2400"}}, "c.json").command.tREFI, 9360u);
}

TEST(DramDevice, ConfigKeysOverrideAPresetAndBadValuesAreNamed) {
  const DramSpec s = DramSpec::from_json(
      {{"preset", "gddr5"}, {"command", {{"tFAW", 0}, {"tREFI", 0}}}}, "c.json");
  EXPECT_EQ(s.command.tFAW, 0u);
  EXPECT_EQ(s.command.tREFI, 0u);
  EXPECT_EQ(s.command.tCCD_L, 3u);
  EXPECT_EQ(s.clock_mhz, 924.0);
  EXPECT_EQ(DramSpec::from_json({{"preset", "gddr6"}}, "c.json").command.burst(), 2u);
  auto error = [](const nlohmann::json& j) {
    try {
      DramSpec::from_json(j, "c.json");
    } catch (const ConfigError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(error({{"preset", "ddr4-2400"}, {"command", {{"tRC", 20}}}}).find("dram.command.tRC"),
            std::string::npos);
  EXPECT_NE(error({{"preset", "ddr4-2400"}, {"command", {{"tREFI", 100}}}}).find("above tRFC"),
            std::string::npos);
  EXPECT_NE(error({{"banks", 8}, {"command", {{"bank_groups", 3}}}}).find("must divide banks"),
            std::string::npos);
  EXPECT_NE(error({{"preset", "ddr5"}}).find("dram.preset"), std::string::npos);
  EXPECT_NE(error({{"command", {{"tCCD", 2}}}}).find("tCCD"), std::string::npos);
  const nlohmann::json groups = {{"preset", "ddr4-2400"},
                                 {"address_map",
                                  {{{"field", "column"}, {"bits", 13}},
                                   {{"field", "bank_group"}, {"bits", 1}},
                                   {{"field", "bank"}, {"bits", 3}}}}};
  EXPECT_NE(error(groups).find("1 bank group bits but command.bank_groups is 4"), std::string::npos)
      << error(groups);
}

}  // namespace
}  // namespace gputlm::mem
