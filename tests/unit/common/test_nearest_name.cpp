// "Did you mean ...?": the nearest known name by edit distance, and the VCD time unit and text
// wrapping the command line uses.
#include <gtest/gtest.h>

#include "app/cli_support.h"
#include "app/vcd_file.h"
#include "models/common/nearest_name.h"

namespace gputlm {
namespace {

TEST(NearestName, CountsASwapOfNeighboursAsOneEdit) {
  EXPECT_EQ(edit_distance("bnaks", "banks"), 1u);
  EXPECT_EQ(edit_distance("clok_mhz", "clock_mhz"), 1u);
  EXPECT_EQ(edit_distance("RR", "rr"), 0u) << "case is ignored";
  EXPECT_EQ(edit_distance("", "abc"), 3u);
}

TEST(NearestName, SuggestsOnlyNamesNearEnoughToBeATypo) {
  const std::vector<std::string> keys{"banks", "row_bytes", "queue_depth", "scheduler"};
  EXPECT_EQ(nearest_name("bnaks", keys), "banks");
  EXPECT_EQ(nearest_name("sheduler", keys), "scheduler");
  EXPECT_EQ(nearest_name("zebra", keys), "") << "five letters allow one edit";
  EXPECT_EQ(did_you_mean("queue_deph", keys), " (did you mean 'queue_depth'?)");
  EXPECT_EQ(did_you_mean("latency", keys), "");
}

TEST(NearestName, ANameCutShortSuggestsTheFirstNameItStarts) {
  EXPECT_EQ(nearest_name("fermi", {"dwf", "fermi-gtx480", "vgiw"}), "fermi-gtx480");
  EXPECT_EQ(nearest_name("fe", {"fermi-gtx480"}), "") << "too short to guess from";
}

TEST(VcdTimeUnit, IsTheLargestUnitThatHoldsEveryClockEdge) {
  EXPECT_EQ(app::vcd_unit_ps({1000, 1000, 2000}), 1000u);
  EXPECT_EQ(app::vcd_unit_ps({1000, 1500}), 100u);
  EXPECT_EQ(app::vcd_unit_ps({1000, 2000, 1515}), 1u) << "fermi-gtx480: 1.4 GHz, 700 MHz, 924 MHz";
  EXPECT_EQ(app::vcd_unit_ps({1000, 1250, 730}), 10u);
}

TEST(Wrap, BreaksAtSpacesWithinTheWidthAndIndentsEveryLine) {
  EXPECT_EQ(app::wrap("aaa bbb ccc", 9, 2), "  aaa bbb\n  ccc\n");
  EXPECT_EQ(app::wrap("averyveryverylongword x", 8, 0), "averyveryverylongword\nx\n")
      << "a long word stands alone";
  EXPECT_EQ(app::wrap("", 80, 4), "");
}

}  // namespace
}  // namespace gputlm
