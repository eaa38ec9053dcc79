// Which line of a set to evict: a plain C++ policy chosen by name ("replacement"), registered in
// a Registry and unit-tested without a SystemC kernel. Invalid ways are always filled first (the
// tag array handles that); the policy only ranks valid lines.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

namespace gputlm::mem {

class IReplacement {
 public:
  virtual ~IReplacement() = default;
  // A line was filled into (set, way).
  virtual void on_fill(uint32_t set, uint32_t way) = 0;
  // A line was hit.
  virtual void on_hit(uint32_t set, uint32_t way) = 0;
  // The way of `set` to evict (all ways valid).
  virtual uint32_t victim(uint32_t set) = 0;
};

using ReplacementFactory =
    std::function<std::unique_ptr<IReplacement>(uint32_t sets, uint32_t ways)>;

struct ReplacementRegistration {
  ReplacementRegistration(const char* name, ReplacementFactory f);
};
std::unique_ptr<IReplacement> make_replacement(const std::string& name, uint32_t sets,
                                               uint32_t ways);

}  // namespace gputlm::mem
