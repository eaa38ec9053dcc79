// Input generator and CPU reference for db/index_* (the dissertation's index-based search).
//
// Generator: `levels` row-buffer levels of the breadth-first tree of ../index_kernels.cuh (962
// nodes of 4KB for two levels: 923,520 keys). The keys are unique random 32-bit values below
// 0xFFFFFFFF (random gaps of mean 0.98 * 2^32 / keys), written in sorted order by an in-order walk
// of the tree's lines, so that a line's 30 keys bound its 31 subtrees; pad words are 0xFFFFFFFF.
// Lookups: uniformly random keys of the tree, except 1 in 1024 (section 6.3) a value that is not
// in it (a key + 1 where the next key is further).
// Reference: results[q] = the word index of lookups[q] in the tree, 0xFFFFFFFF if it is absent,
// found by a hash of the tree's words (independent of the kernel's traversal).
#include <functional>
#include <unordered_map>

#include "tb/workload/reference.h"

namespace {
constexpr uint32_t kNodeWords = 1024, kLineWords = 32, kKeysPerLine = 30, kFanout = 961;
constexpr uint32_t kPad = 0xFFFFFFFFu;

uint64_t tree_nodes(int64_t levels) {
  uint64_t nodes = 0, at_level = 1;
  for (int64_t l = 0; l < levels; ++l, at_level *= kFanout) nodes += at_level;
  return nodes;
}
}  // namespace

GPUTLM_GENERATOR("db/index_search") {
  auto& rng = ctx.rng();
  const int64_t levels = ctx.var("levels");
  const uint64_t nodes = tree_nodes(levels);
  if (levels < 1 || levels > 2 || ctx.count("tree") != nodes * kNodeWords)
    throw gputlm::InputError("db/index_search generator: levels must be 1 or 2 (three need 3.8 GB) and tree must hold " +
                             std::to_string(nodes * kNodeWords) + " words");
  const uint64_t keys = nodes * (kKeysPerLine + kLineWords * 0 + 31 * kKeysPerLine);  // 960 a node
  const uint64_t gap = static_cast<uint64_t>(0.98 * 4294967296.0 / static_cast<double>(keys));
  std::vector<uint32_t> sorted(keys);
  uint64_t v = 0;
  for (uint64_t i = 0; i < keys; ++i) {
    v += 1 + static_cast<uint64_t>(rng.uniform_int(0, static_cast<int64_t>(2 * gap - 2)));
    if (v >= kPad) throw gputlm::InputError("db/index_search generator: keys overflowed 32 bits");
    sorted[i] = static_cast<uint32_t>(v);
  }
  std::vector<uint32_t> tree(nodes * kNodeWords, kPad);
  uint64_t next = 0;
  // In-order walk of the line tree: line j of node n.
  std::function<void(uint64_t, uint32_t)> walk = [&](uint64_t n, uint32_t j) {
    for (uint32_t c = 0; c <= kKeysPerLine; ++c) {
      if (j == 0) {
        walk(n, c + 1);  // line 0's gap c leads to line c + 1 of the same node
      } else if (const uint64_t child = n * kFanout + 1 + (j - 1) * 31 + c; child < nodes) {
        walk(child, 0);
      }
      if (c < kKeysPerLine) tree[n * kNodeWords + j * kLineWords + c] = sorted[next++];
    }
  };
  walk(0, 0);
  if (next != keys) throw gputlm::InputError("db/index_search generator: the tree walk placed the wrong number of keys");

  const size_t queries = ctx.count("lookups");
  std::vector<uint32_t> lookups(queries);
  for (size_t q = 0; q < queries; ++q) {
    const uint64_t i = static_cast<uint64_t>(rng.uniform_int(0, static_cast<int64_t>(keys) - 1));
    lookups[q] = sorted[i];
    if (rng.uniform_int(0, 1023) == 0) {  // absent: between this key and the next one
      uint64_t k = i;
      while (k + 1 < keys && sorted[k + 1] == sorted[k] + 1) ++k;
      lookups[q] = sorted[k] + 1;
    }
  }
  ctx.fill("tree", tree);
  ctx.fill("lookups", lookups);
}

GPUTLM_REFERENCE("db/index_search") {
  const auto tree = ctx.input<uint32_t>("tree");
  const auto lookups = ctx.input<uint32_t>("lookups");
  std::unordered_map<uint32_t, uint32_t> where;
  where.reserve(tree.size());
  for (uint32_t i = 0; i < tree.size(); ++i)
    if (tree[i] != kPad) where.emplace(tree[i], i);
  std::vector<uint32_t> results(lookups.size(), kPad);
  for (size_t q = 0; q < lookups.size(); ++q)
    if (auto it = where.find(lookups[q]); it != where.end()) results[q] = it->second;
  ctx.expect("results", results);
}
