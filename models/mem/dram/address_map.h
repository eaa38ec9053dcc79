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
  explicit AddressMap(const DramSpec& spec)
      : m_fields(spec.address_map),
        m_run(spec.channel_addresses && spec.channels > 1 ? spec.channel_run_bytes : 0),
        m_group(m_run * spec.channels) {}
  // Fields are listed from the least significant bits; a field split over several entries (bank
  // bits above and below the channel bits, say) is assembled with its later entries higher. The
  // bank group's bits, wherever they sit, become the bank number's high bits.
  DramCoord map(uint64_t address) const {
    if (m_run) address = address / m_group * m_run + address % m_run;  // DramSpec::address_space
    DramCoord c;
    unsigned shift = 0, bank_shift = 0, column_shift = 0, group_shift = 0;
    uint32_t group = 0;
    for (const AddressField& f : m_fields) {
      const uint64_t v = f.bits ? (address >> shift) & ((1ull << f.bits) - 1) : 0;
      if (f.field == "bank") {
        c.bank = static_cast<uint32_t>(c.bank | (v << bank_shift));
        bank_shift += f.bits;
      } else if (f.field == "bank_group") {
        group = static_cast<uint32_t>(group | (v << group_shift));
        group_shift += f.bits;
      } else if (f.field == "column") {
        c.column |= v << column_shift;
        column_shift += f.bits;
      }
      shift += f.bits;
    }
    c.row = address >> shift;
    c.bank |= group << bank_shift;  // bank b is in group b / (banks / bank_groups)
    return c;
  }

 private:
  std::vector<AddressField> m_fields;
  uint64_t m_run, m_group;  // a channel's run and the runs of all channels; 0: global addresses
};

}  // namespace gputlm::mem
