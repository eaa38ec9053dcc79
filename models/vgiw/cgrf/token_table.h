// The operand side of the MT-CGRF's token buffers (Voitsechov & Etsion, Sec. 3.5): for every
// virtual channel (one thread) and every node of the configured graph, the tokens still to
// arrive. An entry becomes ready (its unit may fire it) when its last operand or control token
// arrives, never before: the dataflow firing rule. Plain C++, no SystemC.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <vector>

namespace gputlm::vgiw {

class TokenTable {
 public:
  // `inputs[n]`: tokens node n takes per thread.
  void configure(uint32_t channels, std::vector<uint32_t> inputs) {
    m_inputs = std::move(inputs);
    m_remaining.assign(size_t{channels} * m_inputs.size(), 0);
  }
  // A thread enters `channel`: every node waits for all its tokens.
  void start(uint32_t channel) {
    uint16_t* r = &m_remaining[size_t{channel} * m_inputs.size()];
    for (size_t n = 0; n < m_inputs.size(); ++n) r[n] = static_cast<uint16_t>(m_inputs[n]);
  }
  // A token for `node` of `channel` arrives; true when that was the last one (the entry is ready).
  bool deliver(uint32_t channel, uint32_t node) {
    uint16_t& r = m_remaining[size_t{channel} * m_inputs.size() + node];
    if (r == 0) throw std::logic_error("a token arrived for a node that has all its operands");
    return --r == 0;
  }
  uint32_t remaining(uint32_t channel, uint32_t node) const {
    return m_remaining[size_t{channel} * m_inputs.size() + node];
  }

 private:
  std::vector<uint32_t> m_inputs;
  std::vector<uint16_t> m_remaining;
};

}  // namespace gputlm::vgiw
