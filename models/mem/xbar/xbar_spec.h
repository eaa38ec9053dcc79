// Configuration of the interconnect between cores and L2 slices ("xbar" in a config). The papers
// give none of it (single core, single channel); every value is chosen and stays a config key.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

namespace gputlm::mem {

struct XbarSpec {
  double clock_mhz = 1000.0;
  uint32_t latency = 4;             // cycles from winning arbitration to arrival
  uint32_t flit_bytes = 32;         // bytes a port moves per cycle (its bandwidth)
  uint32_t header_bytes = 8;        // bytes of address and command on the link
  uint32_t interleave_bytes = 256;  // consecutive bytes mapped to one slice
  uint32_t queue_depth = 8;         // requests buffered per output port
  // How the block number (address / interleave_bytes) picks a slice: "modulo" (block mod M) or
  // "ipoly" (block as a polynomial over GF(2) modulo an irreducible one of degree
  // ceil(log2 M), then mod M when M is not a power of two): Rau's pseudo-randomly interleaved
  // memory (ISCA 1991), Accel-Sim's -gpgpu_memory_partition_indexing 2 (addrdec.cc, hashing.cc).
  // Every power-of-two stride of blocks then spreads over all slices (2^k-aligned runs of M).
  std::string slice_hash = "modulo";

  // The slice of `address` among `slices` (> 0).
  uint32_t slice_of(uint64_t address, uint32_t slices) const;

  static XbarSpec from_json(const nlohmann::json& j, const std::string& where,
                            const std::string& path);
};

}  // namespace gputlm::mem
