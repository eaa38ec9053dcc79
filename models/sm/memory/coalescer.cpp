#include "models/sm/memory/coalescer.h"

#include <algorithm>
#include <array>

namespace gputlm::sm {

void coalesce(const func::ExecResult& r, LaneMask lanes, uint32_t line_bytes,
              const std::vector<uint64_t>& addresses, std::vector<LineRequest>& out,
              uint32_t sector_bytes) {
  out.clear();
  // The sectors of bytes [lo, hi] of one line.
  auto sectors = [&](uint64_t lo, uint64_t hi) -> uint32_t {
    if (!sector_bytes) return 0;
    const uint64_t first = lo % line_bytes / sector_bytes, last = hi % line_bytes / sector_bytes;
    return static_cast<uint32_t>(((uint64_t{2} << last) - 1) & ~((uint64_t{1} << first) - 1));
  };
  for_each_lane(lanes, [&](unsigned lane) {
    const uint64_t first = addresses[lane],
                   last = first + std::max<uint32_t>(r.access_bytes, 1) - 1;
    const uint64_t line_address = first / line_bytes * line_bytes;
    if (!out.empty() && out.back().line_address == line_address &&
        last < line_address + line_bytes) {
      out.back().bytes = std::min<uint32_t>(
          line_bytes, out.back().bytes + r.access_bytes);  // same line as the lane before
      out.back().sectors |= sectors(first, last);
      return;
    }
    for (uint64_t line = first / line_bytes; line <= last / line_bytes; ++line) {
      const uint64_t lo = std::max(first, line * line_bytes),
                     hi = std::min(last, line * line_bytes + line_bytes - 1);
      auto it = std::find_if(out.begin(), out.end(), [&](const LineRequest& l) {
        return l.line_address == line * line_bytes;
      });
      if (it == out.end()) {
        out.push_back({line * line_bytes, static_cast<uint32_t>(hi - lo + 1), sectors(lo, hi)});
      } else {
        it->bytes = std::min<uint32_t>(line_bytes, it->bytes + static_cast<uint32_t>(hi - lo + 1));
        it->sectors |= sectors(lo, hi);
      }
    }
  });
}

uint32_t shared_access_cycles(const func::ExecResult& r, LaneMask lanes, uint32_t banks) {
  // The distinct words the lanes touch (a word read by several lanes is broadcast), then the
  // most of them that fall in one bank. No allocation: this runs for every shared access.
  // The common case first: every lane touches one word, and no bank sees two different words
  // (a conflict-free or broadcast access): one cycle, found without sorting.
  if (r.access_bytes <= 4 && banks <= 64) {
    std::array<uint64_t, 64> word_in_bank;
    uint64_t used = 0;  // banks with a word
    bool simple = true;
    for_each_lane(lanes, [&](unsigned lane) {
      if (!simple) return;
      const uint64_t w = r.addr[lane] / 4;
      if ((r.addr[lane] + std::max<uint32_t>(r.access_bytes, 1) - 1) / 4 != w)
        return void(simple = false);  // straddles
      const uint64_t b = w % banks;
      if (!(used >> b & 1)) {
        used |= 1ull << b;
        word_in_bank[b] = w;
      } else if (word_in_bank[b] != w) {
        simple = false;  // a conflict: counted below
      }
    });
    if (simple) return 1;
  }
  constexpr size_t kWordsPerLane = 8;  // up to a 32-byte access (v4 of 64-bit) straddling words
  std::array<uint64_t, kWarpSize*(kWordsPerLane + 1)> words;
  size_t n = 0;
  for_each_lane(lanes, [&](unsigned lane) {
    const uint64_t first = r.addr[lane] / 4,
                   last = (r.addr[lane] + std::max<uint32_t>(r.access_bytes, 1) - 1) / 4;
    for (uint64_t w = first; w <= last && n < words.size(); ++w) words[n++] = w;
  });
  std::sort(words.begin(), words.begin() + n);
  n = static_cast<size_t>(std::unique(words.begin(), words.begin() + n) - words.begin());
  for (size_t i = 0; i < n; ++i) words[i] %= banks;
  std::sort(words.begin(), words.begin() + n);
  size_t worst = 1;
  for (size_t i = 0, run = 0; i < n; ++i) {
    run = i > 0 && words[i] == words[i - 1] ? run + 1 : 1;
    worst = std::max(worst, run);
  }
  return static_cast<uint32_t>(worst);
}

}  // namespace gputlm::sm
