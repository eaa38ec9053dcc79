// Sparse workload buffers ("init": {"gen": "custom", "sparse": true}) and the index-search tree
// arithmetic that fills one (traces/db/index_tree.h).
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "io/workload/launch_spec.h"
#include "io/workload/reference.h"
#include "models/common/error.h"
#include "traces/db/index_tree.h"

namespace gputlm::workload {
namespace {

std::string spec_error(const std::string& buffers) {
  const auto dir =
      std::filesystem::temp_directory_path() / ("gputlm_sparse_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto file = dir / "launch.json";
  std::ofstream(file)
      << R"({"description": "x", "seed": 1, "generator": "g", "sizes": {"test": {"n": 4}}, "buffers": [)"
      << buffers << R"(], "launches": [{"kernel": "k", "grid": 1, "block": 1, "params": []}]})";
  try {
    read_workload_spec(file.string(), "test", "x/y");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(SparseBuffers, OnlyCustomUncheckedBuffersMayBeSparse) {
  EXPECT_EQ(
      spec_error(
          R"({"name": "t", "type": "u32", "count": 8, "init": {"gen": "custom", "sparse": true}})"),
      "");
  EXPECT_NE(
      spec_error(
          R"({"name": "t", "type": "u32", "count": 8, "init": {"gen": "zeros", "sparse": true}})")
          .find("buffers[0].init.sparse': needs \"gen\": \"custom\""),
      std::string::npos);
  EXPECT_NE(
      spec_error(
          R"({"name": "t", "type": "u32", "count": 8, "init": {"gen": "custom", "sparse": true}, "check": {"mode": "exact"}})")
          .find("a checked buffer cannot be sparse"),
      std::string::npos);
  EXPECT_NE(
      spec_error(
          R"({"name": "t", "type": "u32", "count": 8, "init": {"gen": "custom", "sparse": 1}})")
          .find("must be true or false"),
      std::string::npos);
}

TEST(SparseBuffers, GeneratorsWritePiecesAndReferencesCannotReadThemWhole) {
  std::vector<HostBuffer> buffers(2);
  buffers[0].name = "tree";
  buffers[0].count = 1u << 30;  // 4 GB if it were dense
  buffers[0].sparse = true;
  buffers[1].name = "dense";
  buffers[1].count = 4;
  buffers[1].bytes.assign(16, 0);
  GenContext gen("test", {}, buffers, 1);
  gen.fill_at("tree", 1000, std::vector<uint32_t>{7, 8});
  gen.fill_at("dense", 2, std::vector<uint32_t>{9});
  ASSERT_EQ(buffers[0].pieces.size(), 1u);
  EXPECT_EQ(buffers[0].pieces.at(1000).size(), 8u);
  EXPECT_EQ(buffers[1].bytes[8], 9);
  EXPECT_THROW(gen.fill("tree", std::vector<uint32_t>{1}), InputError);
  EXPECT_THROW(gen.fill_at("dense", 3, std::vector<uint32_t>{1, 2}), InputError) << "past the end";
  RefContext ref("test", {}, buffers, {});
  EXPECT_THROW(ref.input<uint32_t>("tree"), InputError);
}

// Every key of a 2-level tree sits where position() says, the words of each node are in
// in-order (keys below a line-0 key fill the line before it), and rank_of inverts key.
TEST(IndexTree, PositionsAndNodeWordsAgree) {
  const db_index::Tree tree(2);
  EXPECT_EQ(tree.nodes(), 962u);
  EXPECT_EQ(tree.keys(), 962u * 960);
  EXPECT_EQ(db_index::Tree(3).keys(), 887503680u);
  std::vector<uint32_t> words(tree.nodes() * db_index::kNodeWords, 0);
  // Node bases: the root's subtree starts at rank 0; node 1 + j*31 + c under line j+1's gap c.
  auto fill = [&](uint64_t n, int l, uint64_t base) {
    const auto w = tree.node_words(l, base);
    std::copy(w.begin(), w.end(),
              words.begin() + static_cast<std::ptrdiff_t>(n * db_index::kNodeWords));
  };
  fill(0, 0, 0);
  for (uint64_t j = 0; j < 31; ++j)
    for (uint64_t c = 0; c < 31; ++c)
      fill(1 + j * 31 + c, 1, j * (tree.lines_below(0) + 1) + c * (tree.sub(1) + 1));
  for (uint64_t r = 0; r < tree.keys(); r += 7) {
    const uint64_t p = tree.position(r);
    ASSERT_LT(p, words.size());
    ASSERT_EQ(words[p], tree.key(r)) << "rank " << r;
    ASSERT_EQ(tree.rank_of(tree.key(r)), static_cast<int64_t>(r));
    ASSERT_EQ(tree.rank_of(tree.key(r) + 1), -1) << "key + 1 is absent";
  }
  // In the root: line j's keys lie between line 0's keys j-1 and j (the gaps they stand for).
  for (uint32_t j = 1; j <= 31; ++j) {
    const uint32_t lo = words[j * 32], hi = words[j * 32 + 29];
    if (j > 1) {
      EXPECT_GT(lo, words[j - 2]) << "line " << j;
    }
    if (j < 31) {
      EXPECT_LT(hi, words[j - 1]) << "line " << j;
    }
    EXPECT_EQ(words[j * 32 + 30], db_index::kPad);
  }
  EXPECT_EQ(words[30], db_index::kPad);
}

}  // namespace
}  // namespace gputlm::workload
