// Index-based search (Narasiman dissertation section 6.3, Appendix A.2): P-ary search over a
// breadth-first, pointer-free tree of row-buffer-sized nodes (Kim et al.'s FAST layout, Fig. 6.2).
// A node is one 4KB DRAM row of 32 cache lines of 32 words: line 0 holds 30 keys (words 30-31
// pad, 0xFFFFFFFF) whose 31 gaps lead to lines 1-31 of the same node; the 31 gaps of line j lead
// to node n*961 + 1 + (j-1)*31 + c of the next row-buffer level. A warp searches one key at a
// time; per row-buffer level it loads line 0 (the request that opens the row), counts the keys
// below its key (ballot + popc: 30 comparisons at once), loads the chosen line of the same row
// (the anticipated row hit) and counts again for the next node. A warp takes lookups
// w, w + 32, ... and starts its next lookup as soon as one ends (section 6.3).
// Four versions, as Fig. 8.4:
//   index_baseline  ballot/popc traversal
//   index_tt        TREE_TRAVERSE (section 7.2.1) computes both next indices
//   index_hint      the row-opening load carries the row-buffer locality hint (ld.global.rowhint)
//   index_both      both
#pragma once

#define INDEX_NODE_WORDS 1024u  // one 4KB row
#define INDEX_LINE_WORDS 32u
#define INDEX_FANOUT 961u      // row-buffer nodes below a row-buffer node: 31 lines x 31 gaps

// base + (lanes whose key > value) * node_size, through the dissertation's TREE_TRAVERSE.
__device__ __forceinline__ unsigned tree_traverse(unsigned base, unsigned key, unsigned value, unsigned node_size) {
  unsigned next;
  asm volatile("{\n\t.reg .pred p;\n\tsetp.gt.u32 p, %1, %2;\n\ttree.traverse.u32 %0, %3, p, %4;\n\t}"
               : "=r"(next)
               : "r"(key), "r"(value), "r"(base), "r"(node_size));
  return next;
}
// The same on a 64-bit address: the line chosen among a row's lines 1-31 (node size 128 bytes),
// "immediately used to load the values in the next node" (section 7.2.1).
__device__ __forceinline__ const unsigned* tree_traverse_line(const unsigned* lines, unsigned key, unsigned value) {
  unsigned long long next;
  asm volatile("{\n\t.reg .pred p;\n\tsetp.gt.u32 p, %1, %2;\n\ttree.traverse.u64 %0, %3, p, 128;\n\t}"
               : "=l"(next)
               : "r"(key), "r"(value), "l"(lines));
  return reinterpret_cast<const unsigned*>(next);
}

// A global load whose request carries the row-buffer locality hint bit (section 7.2).
__device__ __forceinline__ unsigned load_row_hint(const unsigned* p) {
  unsigned v;
  asm volatile("ld.global.rowhint.u32 %0, [%1];" : "=r"(v) : "l"(__cvta_generic_to_global(p)));
  return v;
}

template <bool kTreeTraverse, bool kHint, unsigned kLevels>
__device__ __forceinline__ void search_levels(const unsigned* __restrict__ tree, const unsigned* __restrict__ lookups,
                                              unsigned* __restrict__ results, unsigned queries) {
  const unsigned lane = threadIdx.x & 31, warps = blockDim.x >> 5;
  for (unsigned q = threadIdx.x >> 5; q < queries; q += warps) {
    const unsigned key = lookups[q];
    unsigned node = 0;
#pragma unroll
    for (unsigned level = 0; level < kLevels; ++level) {
      const unsigned* row = tree + node * INDEX_NODE_WORDS;  // the warp's row-buffer node
      const unsigned value = kHint ? load_row_hint(&row[lane]) : row[lane];  // open the row
      const unsigned* lines = row + INDEX_LINE_WORDS;        // lines 1-31, below line 0's gaps
      const unsigned* chosen;
      if (kTreeTraverse) chosen = tree_traverse_line(lines, key, value);
      else chosen = lines + (__popc(__ballot_sync(0xffffffffu, key > value)) << 5);
      const unsigned next_value = chosen[lane];  // the row hit, if the row is still open
      const unsigned line = static_cast<unsigned>(chosen - lines) / INDEX_LINE_WORDS;
      if (key == value) results[q] = static_cast<unsigned>(&row[lane] - tree);
      if (key == next_value) results[q] = static_cast<unsigned>(&chosen[lane] - tree);
      const unsigned first_child = node * INDEX_FANOUT + 1 + line * 31;
      node = kTreeTraverse ? tree_traverse(first_child, key, next_value, 1)
                           : first_child + __popc(__ballot_sync(0xffffffffu, key > next_value));
    }
  }
}

// The number of levels is the tree's (1 to 3, see index_tree.h); a constant per instantiation, so
// that the level loop unrolls completely as the dissertation's kernel (3 levels, Appendix A.2).
template <bool kTreeTraverse, bool kHint>
__device__ __forceinline__ void index_search(const unsigned* __restrict__ tree, const unsigned* __restrict__ lookups,
                                             unsigned* __restrict__ results, unsigned queries, unsigned levels) {
  if (levels == 3) search_levels<kTreeTraverse, kHint, 3>(tree, lookups, results, queries);
  else if (levels == 2) search_levels<kTreeTraverse, kHint, 2>(tree, lookups, results, queries);
  else search_levels<kTreeTraverse, kHint, 1>(tree, lookups, results, queries);
}
