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
  r.finish();
  return s;
}

}  // namespace gputlm::mem
