#include <gtest/gtest.h>

#include "models/vgiw/cgrf/token_table.h"

namespace gputlm::vgiw {
namespace {

TEST(TokenTable, AnEntryIsReadyOnlyWhenItsLastOperandArrives) {
  TokenTable t;
  t.configure(4, {0, 3, 1});  // node 1 takes three operands, node 2 one
  t.start(2);
  EXPECT_FALSE(t.deliver(2, 1));
  EXPECT_FALSE(t.deliver(2, 1));
  EXPECT_EQ(t.remaining(2, 1), 1u);
  EXPECT_TRUE(t.deliver(2, 1));
  EXPECT_TRUE(t.deliver(2, 2));
  EXPECT_THROW(t.deliver(2, 2), std::logic_error);  // a token too many is a wiring error
}

TEST(TokenTable, ChannelsAreIndependentThreads) {
  TokenTable t;
  t.configure(2, {0, 2});
  t.start(0);
  t.start(1);
  EXPECT_FALSE(t.deliver(0, 1));
  EXPECT_FALSE(t.deliver(1, 1));  // thread 1's first operand does not complete thread 0's entry
  EXPECT_TRUE(t.deliver(1, 1));
  EXPECT_EQ(t.remaining(0, 1), 1u);
  t.start(1);  // a new thread in channel 1 waits for all its operands again
  EXPECT_EQ(t.remaining(1, 1), 2u);
}

}  // namespace
}  // namespace gputlm::vgiw
