#include "models/mem/xbar/xbar_spec.h"

#include "models/common/config_reader.h"

namespace gputlm::mem {

XbarSpec XbarSpec::from_json(const nlohmann::json& j, const std::string& where,
                             const std::string& path) {
  XbarSpec s;
  ConfigReader r(j, where, path);
  s.clock_mhz = r.get_double("clock_mhz", s.clock_mhz, 1.0, 100000.0);
  s.latency = static_cast<uint32_t>(r.get_uint("latency", s.latency, 1, 100000));
  s.flit_bytes = static_cast<uint32_t>(r.get_uint("flit_bytes", s.flit_bytes, 1, 4096));
  s.header_bytes = static_cast<uint32_t>(r.get_uint("header_bytes", s.header_bytes, 0, 4096));
  s.interleave_bytes =
      static_cast<uint32_t>(r.get_uint("interleave_bytes", s.interleave_bytes, 1, 1u << 30));
  s.queue_depth = static_cast<uint32_t>(r.get_uint("queue_depth", s.queue_depth, 1, 4096));
  s.slice_hash = r.get_choice("slice_hash", s.slice_hash, {"modulo", "ipoly"});
  r.finish();
  return s;
}

namespace {
// An irreducible (primitive) polynomial over GF(2) of each degree 1 .. 16, bit i the coefficient
// of x^i (standard tables, e.g. Peterson & Weldon, "Error-Correcting Codes", App. C): degree 5 is
// x^5 + x^2 + 1 and degree 6 x^6 + x + 1, the IPOLY(37) and IPOLY(67) Accel-Sim uses for 32 and
// 64 partitions.
constexpr uint32_t kIrreducible[17] = {0,      0x3,    0x7,    0xB,    0x13,   0x25,
                                       0x43,   0x83,   0x11D,  0x211,  0x409,  0x805,
                                       0x1053, 0x201B, 0x4443, 0x8003, 0x1002D};
}  // namespace

uint32_t XbarSpec::slice_of(uint64_t address, uint32_t slices) const {
  const uint64_t block = address / interleave_bytes;
  if (slice_hash == "modulo" || slices <= 1) return static_cast<uint32_t>(block % slices);
  uint32_t degree = 0;
  while ((uint64_t{1} << degree) < slices) ++degree;
  if (degree >= sizeof kIrreducible / sizeof kIrreducible[0])
    return static_cast<uint32_t>(block % slices);  // beyond the table (65536 slices)
  // The block's bits as a polynomial, reduced modulo the irreducible one: the remainder has
  // `degree` bits. Multiplying by x^k is a bijection modulo an irreducible polynomial (x does not
  // divide it), so blocks i * 2^k, i = 0 .. 2^degree - 1, get distinct remainders.
  // Each step clears the highest bit at or above `degree`.
  uint64_t v = block;
  const uint64_t poly = kIrreducible[degree];
  while (v >> degree) v ^= poly << (63 - __builtin_clzll(v) - static_cast<int>(degree));
  return static_cast<uint32_t>(v % slices);
}

}  // namespace gputlm::mem
