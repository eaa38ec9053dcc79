// Splits a channel address into bank, row and column by the config's bit layout (DramSpec).
#pragma once

#include <cstdint>

#include "models/mem/dram/dram_spec.h"

namespace gputlm::mem {

struct DramCoord {
  uint32_t bank = 0;
  uint64_t row = 0;
  uint64_t column = 0;
};

class AddressMap {
 public:
  explicit AddressMap(const DramSpec& spec) : m_fields(spec.address_map) {}
  DramCoord map(uint64_t address) const {
    DramCoord c;
    unsigned shift = 0;
    for (const AddressField& f : m_fields) {
      const uint64_t v = f.bits ? (address >> shift) & ((1ull << f.bits) - 1) : 0;
      if (f.field == "bank") c.bank = static_cast<uint32_t>(c.bank | (v << bank_shift(f)));
      else if (f.field == "column") c.column |= v;
      shift += f.bits;
    }
    c.row = address >> shift;
    return c;
  }

 private:
  // Bank bits may be split over several fields; later fields are more significant.
  unsigned bank_shift(const AddressField& at) const {
    unsigned s = 0;
    for (const AddressField& f : m_fields) {
      if (&f == &at) break;
      if (f.field == "bank") s += f.bits;
    }
    return s;
  }
  std::vector<AddressField> m_fields;
};

}  // namespace gputlm::mem
