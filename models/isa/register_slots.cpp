#include "models/isa/register_slots.h"

#include <algorithm>
#include <numeric>

#include "models/isa/kernel.h"
#include "models/isa/reg_set.h"

namespace gputlm::isa {
namespace {

// Above this many registers the interference matrix (n x n bits) would take more than 8 MB: such
// kernels keep one slot a register.
constexpr size_t kMaxRegistersToShare = 8192;

// Row a holds the registers that were live where a was written (and the other registers its
// instruction writes); symmetrized, every register a interferes with.
class Interference {
 public:
  explicit Interference(size_t n) : m_words((n + 63) / 64), m_bits(n * m_words, 0) {}
  size_t words() const { return m_words; }
  void add_row(int32_t a, const RegSet& regs) {
    uint64_t* row = &m_bits[size_t(a) * m_words];
    for (size_t w = 0; w < m_words; ++w) row[w] |= regs[w];
  }
  void add(int32_t a, int32_t b) {
    m_bits[size_t(a) * m_words + size_t(b >> 6)] |= 1ull << (b & 63);
  }
  // Makes the rows symmetric (b in row a whenever a is in row b), a not in its own.
  void symmetrize(size_t n) {
    for (size_t a = 0; a < n; ++a) for_each(a, [&](int32_t b) { add(b, static_cast<int32_t>(a)); });
    for (size_t a = 0; a < n; ++a) m_bits[a * m_words + (a >> 6)] &= ~(1ull << (a & 63));
  }
  // Calls f(b) for every b in row a.
  template <typename F>
  void for_each(size_t a, F f) const {
    for_each_bit(&m_bits[a * m_words], m_words, f);
  }

 private:
  size_t m_words;
  std::vector<uint64_t> m_bits;
};

void identity(Kernel& k) {
  k.reg_slot.resize(k.regs.size());
  std::iota(k.reg_slot.begin(), k.reg_slot.end(), 0);
  k.reg_slots = static_cast<uint32_t>(k.regs.size());
}

}  // namespace

void assign_register_slots(Kernel& k) {
  const size_t n = k.regs.size();
  if (!k.calls.empty() || n > kMaxRegistersToShare || k.cfg.blocks.empty()) {
    identity(k);
    return;
  }
  Interference graph(n);
  RegSet live(graph.words());
  std::vector<int32_t> uses, defs;
  std::vector<bool> own(n, false);  // registers a warp-collective instruction reads or writes
  for (const Instruction& in : k.code) {
    if (!is_warp_collective(in)) continue;
    instruction_registers(in, uses, defs);
    for (int32_t r : uses) own[size_t(r)] = true;
    for (int32_t r : defs) own[size_t(r)] = true;
  }
  for (const BasicBlock& b : k.cfg.blocks) {
    std::fill(live.begin(), live.end(), 0);
    for (int32_t r : b.live_out) set_bit(live, r);
    for (uint32_t pc = b.end; pc-- > b.begin;) {
      const Instruction& in = k.code[pc];
      instruction_registers(in, uses, defs);
      for (int32_t d : defs) {
        graph.add_row(d, live);
        for (int32_t e : defs) graph.add(d, e);
      }
      if (in.guard < 0)
        for (int32_t d : defs) clear_bit(live, d);
      for (int32_t u : uses) set_bit(live, u);
    }
  }
  for (int32_t a : k.cfg.blocks[0].live_in)
    for (int32_t b : k.cfg.blocks[0].live_in) graph.add(a, b);

  graph.symmetrize(n);
  k.reg_slot.assign(n, -1);
  k.reg_slots = 0;
  std::vector<size_t> taken_by;  // per slot: the last register that found it taken
  std::vector<bool> owned;       // per slot: held by an `own` register alone
  for (size_t r = 0; r < n; ++r) {
    if (own[r]) {
      k.reg_slot[r] = static_cast<int32_t>(k.reg_slots++);
      owned.push_back(true);
      continue;
    }
    taken_by.assign(k.reg_slots, n);
    graph.for_each(r, [&](int32_t o) {
      if (size_t(o) < r) taken_by[size_t(k.reg_slot[size_t(o)])] = r;
    });
    uint32_t s = 0;
    while (s < k.reg_slots && (taken_by[s] == r || owned[s])) ++s;
    if (s == k.reg_slots) {
      ++k.reg_slots;
      owned.push_back(false);
    }
    k.reg_slot[r] = static_cast<int32_t>(s);
  }
}

}  // namespace gputlm::isa
