// The tags of a set-associative cache: valid and dirty bits per line, lookup, fill with victim
// selection by the replacement policy (invalid ways first). Addresses are line numbers
// (byte address / line size). No data: the functional engine owns values. A sectored cache
// (CacheSpec::sector_bytes) keeps a valid and a dirty bit per sector (bit s: sector s of the
// line); an unsectored one uses bit 0 alone, the whole line.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "models/mem/cache/replacement.h"

namespace gputlm::mem {

class TagArray {
 public:
  struct Victim {
    uint64_t line = 0;
    bool dirty = false;
    uint32_t dirty_sectors = 0;  // its dirty sectors (bit 0 alone when unsectored)
  };

  TagArray(uint32_t sets, uint32_t ways, std::unique_ptr<IReplacement> policy)
      : m_sets(sets), m_ways(ways), m_lines(size_t{sets} * ways), m_policy(std::move(policy)) {}
  // Sets indexed by the slice-local line number (CacheSpec::set_index "slice"): runs of
  // `run_lines` lines go round `slices` slices, so a slice's own lines are the line number with
  // the run's slice taken out: (line / run_lines / slices) x run_lines + line % run_lines.
  void index_by_slice(uint64_t run_lines, uint64_t slices) {
    m_run_lines = run_lines;
    m_slices = slices;
  }

  // The way holding `line`, if present (a hit also updates the replacement state when `touch`).
  std::optional<uint32_t> lookup(uint64_t line, bool touch = true) {
    const uint32_t set = set_of(line);
    for (uint32_t w = 0; w < m_ways; ++w) {
      const Line& l = at(set, w);
      if (l.valid && l.line == line) {
        if (touch) m_policy->on_hit(set, w);
        return w;
      }
    }
    return std::nullopt;
  }
  // Installs `line` with `sectors` valid (dirty too if `dirty`; `partial` of them holding only
  // bytes a store wrote, see store_sectors); returns the valid line it displaced, if any.
  std::optional<Victim> fill(uint64_t line, bool dirty, uint32_t sectors = 1,
                             uint32_t partial = 0) {
    const uint32_t set = set_of(line);
    uint32_t way = m_ways;
    for (uint32_t w = 0; w < m_ways && way == m_ways; ++w)
      if (!at(set, w).valid) way = w;
    std::optional<Victim> victim;
    if (way == m_ways) {
      way = m_policy->victim(set);
      const Line& l = at(set, way);
      victim = Victim{l.line, l.dirty != 0, l.dirty};
    }
    at(set, way) =
        Line{line, true, sectors, dirty ? sectors : 0, partial, dirty ? ++m_dirty_seq : 0};
    m_policy->on_fill(set, way);
    return victim;
  }
  void mark_dirty(uint64_t line, uint32_t sectors = 1) {
    if (auto w = lookup(line, false)) dirty(at(set_of(line), *w), sectors);
  }
  // The valid sectors of `line` (0 if absent); no replacement update.
  uint32_t valid_sectors(uint64_t line) {
    auto w = lookup(line, false);
    return w ? at(set_of(line), *w).sectors : 0;
  }
  // Those a load may read: the valid ones less the partial ones (store_sectors).
  uint32_t readable_sectors(uint64_t line) {
    auto w = lookup(line, false);
    if (!w) return 0;
    const Line& l = at(set_of(line), *w);
    return l.sectors & ~l.partial;
  }
  // A store into the present `line` of the sectors `written`, `whole` of them written whole (a
  // lazily allocating cache, CacheSpec::full_line_stores "lazy"): they become valid and dirty; a
  // sector written in part that was not valid is partial (holds only the stored bytes: a load of
  // it misses, and its fill makes it whole); one written whole is no longer partial. False if the
  // line is absent.
  bool store_sectors(uint64_t line, uint32_t written, uint32_t whole) {
    auto w = lookup(line, false);
    if (!w) return false;
    Line& l = at(set_of(line), *w);
    l.partial = (l.partial & ~whole) | (written & ~whole & ~l.sectors);
    l.sectors |= written;
    dirty(l, written);
    return true;
  }
  // Makes `sectors` of the present `line` valid and whole (and dirty if `dirty`): a sector fill
  // or a store of whole sectors, which evicts nothing. False if the line is absent.
  bool add_sectors(uint64_t line, uint32_t sectors, bool dirty) {
    auto w = lookup(line, false);
    if (!w) return false;
    Line& l = at(set_of(line), *w);
    l.sectors |= sectors;
    l.partial &= ~sectors;  // a fill completes a partial sector
    if (dirty) this->dirty(l, sectors);
    return true;
  }
  // When the set of `line` holds more than `max` dirty lines: cleans the one of them, other than
  // `line`, that became dirty first, and returns it (its dirty sectors, to be written back); it
  // stays valid and in place (CacheSpec::max_dirty_ways).
  std::optional<Victim> clean_over(uint64_t line, uint32_t max) {
    const uint32_t set = set_of(line);
    uint32_t count = 0, oldest = m_ways;
    for (uint32_t w = 0; w < m_ways; ++w) {
      const Line& l = at(set, w);
      if (!l.valid || !l.dirty) continue;
      ++count;
      if (l.line != line && (oldest == m_ways || l.dirtied < at(set, oldest).dirtied)) oldest = w;
    }
    if (count <= max || oldest == m_ways) return std::nullopt;
    Line& l = at(set, oldest);
    const Victim cleaned{l.line, true, l.dirty};
    l.dirty = 0;
    return cleaned;
  }
  void invalidate(uint64_t line) {
    if (auto w = lookup(line, false)) at(set_of(line), *w).valid = false;
  }
  // Every line invalid, dirty or not (the replacement state stays: invalid ways fill first).
  void clear() { std::fill(m_lines.begin(), m_lines.end(), Line{}); }

 private:
  struct Line {
    uint64_t line = 0;
    bool valid = false;
    uint32_t sectors = 0;  // valid sectors
    uint32_t dirty = 0;    // dirty sectors
    uint32_t partial = 0;  // valid sectors holding only bytes a store wrote (store_sectors)
    uint64_t dirtied = 0;  // when it last went from clean to dirty (an order, for clean_over)
  };
  void dirty(Line& l, uint32_t sectors) {
    if (!l.dirty && sectors) l.dirtied = ++m_dirty_seq;
    l.dirty |= sectors;
  }
  uint32_t set_of(uint64_t line) const {
    if (m_slices > 1) line = line / m_run_lines / m_slices * m_run_lines + line % m_run_lines;
    return static_cast<uint32_t>(line & (m_sets - 1));
  }
  Line& at(uint32_t set, uint32_t way) { return m_lines[size_t{set} * m_ways + way]; }

  uint32_t m_sets, m_ways;
  uint64_t m_run_lines = 1, m_slices = 1;
  uint64_t m_dirty_seq = 0;
  std::vector<Line> m_lines;
  std::unique_ptr<IReplacement> m_policy;
};

}  // namespace gputlm::mem
