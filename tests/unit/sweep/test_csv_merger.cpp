#include <gtest/gtest.h>

#include "sweep/csv_merger.h"

namespace gputlm::sweep {
namespace {

TEST(CsvMerger, TablesWithTheSameHeaderAreAppendedRowByRow) {
  CsvMerger m;
  EXPECT_EQ(m.add("a,b\n1,2\n"), 1u);
  EXPECT_EQ(m.add("a,b\n3,4\n5,6\n"), 2u);
  EXPECT_EQ(m.str(), "a,b\n1,2\n3,4\n5,6\n");
}

TEST(CsvMerger, TheHeaderIsTheUnionOfColumnsAndMissingCellsAreEmpty) {
  CsvMerger m;
  m.add("a,b\n1,2\n");
  m.add("a,c,b\n3,x,4\n");  // a new column, and b moved
  m.add("c\ny\n");
  EXPECT_EQ(m.str(), "a,b,c\n1,2,\n3,4,x\n,,y\n");
  EXPECT_EQ(m.rows(), 3u);
}

TEST(CsvMerger, QuotedCellsKeepTheirCommasQuotesAndLineBreaks) {
  CsvMerger m;
  m.add("k,v\n\"a,\"\"b\"\"\",1\n\"two\nlines\",2\n");
  m.add("v,k\n3,\"c,d\"\n");
  EXPECT_EQ(m.str(), "k,v\n\"a,\"\"b\"\"\",1\n\"two\nlines\",2\n\"c,d\",3\n");
}

TEST(CsvMerger, AnEmptyTableAddsNothing) {
  CsvMerger m;
  EXPECT_EQ(m.add(""), 0u);
  EXPECT_EQ(m.add("a\n"), 0u);
  EXPECT_EQ(m.str(), "a\n");
}

}  // namespace
}  // namespace gputlm::sweep
