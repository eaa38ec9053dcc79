// The integer expression evaluator (models/common/expr.h) on hostile input: overflow of any
// operator, INT64_MIN / -1 and nesting are InputErrors naming the expression, never a signal.
#include <gtest/gtest.h>

#include <string>

#include "models/common/expr.h"
#include "support/input_error.h"

namespace gputlm {
namespace {

TEST(Expr, RejectsInt64MinDividedByMinusOne) {
  const ExprVars vars{{"m", INT64_MIN}};
  test::input_error([&] { eval_expr("m / -1", vars); }, {"m / -1", "does not fit in 64 bits"});
  test::input_error([&] { eval_expr("m % -1", vars); }, {"does not fit in 64 bits"});
}

TEST(Expr, RejectsOverflowOfEveryOperator) {
  const ExprVars vars{{"big", INT64_MAX}, {"m", INT64_MIN}};
  for (const char* e :
       {"big + 1", "m - 1", "big * 2", "-m", "4294967296 * 4294967296", "9223372036854775808"})
    test::input_error([&] { eval_expr(e, vars); }, {e});
  EXPECT_EQ(eval_expr("big - 1 + 1", vars), INT64_MAX);
  EXPECT_EQ(eval_expr("-big - 1", vars), INT64_MIN);
}

TEST(Expr, RejectsNestingDeeperThanItsLimit) {
  const std::string deep = std::string(100000, '(') + "1" + std::string(100000, ')');
  test::input_error([&] { eval_expr(deep, {}); }, {"nested deeper than 100 levels"});
  test::input_error([&] { eval_expr(std::string(100000, '-') + "1", {}); }, {"nested deeper"});
  EXPECT_EQ(eval_expr(std::string(40, '(') + "7" + std::string(40, ')'), {}), 7);
}

}  // namespace
}  // namespace gputlm
