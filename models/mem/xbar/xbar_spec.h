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

  static XbarSpec from_json(const nlohmann::json& j, const std::string& where,
                            const std::string& path);
};

}  // namespace gputlm::mem
