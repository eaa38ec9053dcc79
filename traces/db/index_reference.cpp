// Input generator and CPU reference for db/index_* (the dissertation's index-based search).
//
// The tree (index_tree.h) has `levels` row-buffer levels: 3 as the paper, 887,503,680 keys in
// 924,483 nodes of 4KB (3.8 GB). The "tree" buffer is sparse: only the nodes some lookup visits
// are written (the root, the level-1 nodes and one deepest node per lookup); every other word
// would read as zero, and no lookup reads one.
// Lookups: uniformly random ranks, except 1 in 1024 (section 6.3) a value that is no key.
// Generator: walks each lookup down the tree as the kernel does (comparisons on the keys) and
// writes every node it visits.
// Reference: results[q] = the word index of lookups[q] computed from its rank by the tree's
// arithmetic (not by searching), 0xFFFFFFFF if it is absent.
#include <unordered_set>

#include "index_tree.h"
#include "io/workload/reference.h"

using gputlm::db_index::Tree;
namespace ix = gputlm::db_index;

GPUTLM_GENERATOR("db/index_search") {
  auto& rng = ctx.rng();
  const int64_t levels = ctx.var("levels");
  if (levels < 1 || levels > 3)
    throw gputlm::InputError("db/index_search generator: levels must be 1, 2 or 3");
  const Tree tree(static_cast<int>(levels));
  if (ctx.count("tree") != tree.nodes() * ix::kNodeWords)
    throw gputlm::InputError("db/index_search generator: tree must hold " +
                             std::to_string(tree.nodes() * ix::kNodeWords) + " words");

  const size_t queries = ctx.count("lookups");
  std::vector<uint32_t> lookups(queries);
  for (size_t q = 0; q < queries; ++q) {
    const uint64_t r =
        static_cast<uint64_t>(rng.uniform_int(0, static_cast<int64_t>(tree.keys()) - 1));
    lookups[q] = tree.key(r) + (rng.uniform_int(0, 1023) == 0 ? 1 : 0);  // key + 1: absent
  }
  std::unordered_set<uint64_t> written;
  for (const uint32_t v : lookups) {
    uint64_t n = 0, base = 0;
    for (int l = 0; l < tree.levels(); ++l) {
      const std::vector<uint32_t> w = tree.node_words(l, base);
      if (written.insert(n).second) ctx.fill_at("tree", n * ix::kNodeWords, w);
      uint32_t c0 = 0, c1 = 0;
      while (c0 < ix::kLineKeys && w[c0] < v) ++c0;
      while (c1 < ix::kLineKeys && w[(c0 + 1) * ix::kLineWords + c1] < v) ++c1;
      base += c0 * (tree.lines_below(l) + 1) + c1 * (tree.sub(l + 1) + 1);
      n = n * ix::kFanout + 1 + c0 * 31 + c1;
    }
  }
  ctx.fill("lookups", lookups);
}

GPUTLM_REFERENCE("db/index_search") {
  const Tree tree(static_cast<int>(ctx.var("levels")));
  const auto lookups = ctx.input<uint32_t>("lookups");
  std::vector<uint32_t> results(lookups.size(), ix::kPad);
  for (size_t q = 0; q < lookups.size(); ++q)
    if (const int64_t r = tree.rank_of(lookups[q]); r >= 0)
      results[q] = static_cast<uint32_t>(tree.position(static_cast<uint64_t>(r)));
  ctx.expect("results", results);
}
