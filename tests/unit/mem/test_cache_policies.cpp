// Cache policies and tag array without a simulation kernel.
#include <gtest/gtest.h>

#include "models/common/error.h"
#include "models/mem/cache/cache_spec.h"
#include "models/mem/cache/tag_array.h"

namespace gputlm::mem {
namespace {

TEST(Replacement, LruEvictsTheLeastRecentlyUsedLine) {
  TagArray t(1, 2, make_replacement("lru", 1, 2));
  t.fill(1, false);
  t.fill(2, false);
  t.lookup(1);  // 2 is now the older
  auto v = t.fill(3, false);
  ASSERT_TRUE(v);
  EXPECT_EQ(v->line, 2u);
}

TEST(Replacement, FifoIgnoresHits) {
  TagArray t(1, 2, make_replacement("fifo", 1, 2));
  t.fill(1, false);
  t.fill(2, false);
  t.lookup(1);
  EXPECT_EQ(t.fill(3, false)->line, 1u);
}

// One slice of eight, lines in runs of two (256 B interleave of 128 B lines, modulo): slice 0
// holds lines 0, 1, 16, 17, 32, 33, 48, 49. Indexed by address (line mod 4) they use sets 0 and 1
// only, so a 4-set 2-way array keeps four of them; by the slice-local line (0 .. 7) all eight fit.
uint32_t lines_kept(bool by_slice) {
  TagArray t(4, 2, make_replacement("lru", 4, 2));
  if (by_slice) t.index_by_slice(2, 8);
  const uint64_t lines[] = {0, 1, 16, 17, 32, 33, 48, 49};
  for (uint64_t l : lines) t.fill(l, false);
  uint32_t kept = 0;
  for (uint64_t l : lines) kept += t.lookup(l, false).has_value();
  return kept;
}

TEST(SetIndex, TheSliceLocalIndexUsesEverySetOfASlice) {
  EXPECT_EQ(lines_kept(false), 4u);
  EXPECT_EQ(lines_kept(true), 8u);
}

TEST(Replacement, InvalidWaysFillBeforeAnyEviction) {
  TagArray t(2, 2, make_replacement("random", 2, 2));
  EXPECT_FALSE(t.fill(0, false));
  EXPECT_FALSE(t.fill(2, false));  // same set (line & 1 == 0), second way
  EXPECT_TRUE(t.fill(4, false));
  EXPECT_FALSE(t.fill(1, false));  // the other set is still empty
}

TEST(TagArray, DirtyVictimsReportDirty) {
  TagArray t(1, 1, make_replacement("lru", 1, 1));
  t.fill(7, false);
  t.mark_dirty(7);
  auto v = t.fill(8, false);
  EXPECT_TRUE(v->dirty);
  EXPECT_EQ(v->line, 7u);
}

TEST(CacheSpec, BadValuesNameTheirKey) {
  auto error = [](const std::string& text) {
    try {
      CacheSpec::from_json(nlohmann::json::parse(text), "c.json", "l1");
    } catch (const ConfigError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_NE(error(R"({"replacement": "mru"})")
                .find("key 'l1.replacement': unknown value 'mru' (did you mean 'lru'?) (known: "
                      "fifo, lru, random)"),
            std::string::npos);
  EXPECT_NE(error(R"({"line_bytes": 100})").find("key 'l1.line_bytes': must be a power of two"),
            std::string::npos);
  EXPECT_NE(error(R"({"size_bytes": 1000})").find("key 'l1.size_bytes'"), std::string::npos);
  EXPECT_NE(error(R"({"assoc": -1})").find("key 'l1.assoc': must be a non-negative integer"),
            std::string::npos);
  EXPECT_NE(error(R"({"sise_bytes": 1024})").find("key 'l1.sise_bytes': unknown key"),
            std::string::npos);
}

}  // namespace
}  // namespace gputlm::mem
