// The interconnect between N cores (upstream ports) and M L2 slices (downstream ports). A
// request goes to slice (address / interleave_bytes) mod M (or as XbarSpec::slice_hash says). Each
// output port grants one request a cycle among the inputs that want it, round-robin (fair), and its
// link then carries that request's flits (a read: the header; a write: header and data) at
// flit_bytes a cycle; the request arrives latency cycles after winning. Responses return to the
// port their request came from in arrival order over that port's link (a read response carries the
// line). A full output queue leaves requests unaccepted at their input ports (back-pressure).
#pragma once

#include <deque>
#include <memory>
#include <systemc>
#include <vector>

#include "models/common/clock.h"
#include "models/common/clocked_module.h"
#include "models/common/index_set.h"
#include "models/common/shared_edges.h"
#include "models/common/stats.h"
#include "models/common/wakeup.h"
#include "models/common/waves.h"
#include "models/mem/tlm_ends.h"
#include "models/mem/xbar/xbar_spec.h"

namespace gputlm::mem {

class Xbar : public ClockedModule<>, public StatProvider, public WaveProvider {
 public:
  Xbar(sc_core::sc_module_name name, const XbarSpec& spec, uint32_t inputs, uint32_t outputs,
       double reference_mhz);

  TargetEnd& upstream(uint32_t i) { return *m_up[i]; }
  InitiatorEnd& downstream(uint32_t m) { return *m_down[m]; }
  // The slice an address belongs to.
  uint32_t slice_of(uint64_t address) const {
    return m_modulo ? static_cast<uint32_t>((address / m_spec.interleave_bytes) % m_down.size())
                    : m_spec.slice_of(address, static_cast<uint32_t>(m_down.size()));
  }

  void prepare_waves() override;
  void declare_waves(WaveList& waves) const override;

 private:
  struct Hop {
    Cycle at;  // arrival at the far end
    tlm::tlm_generic_payload* payload;
  };
  Cycle cycle(Cycle now) override;
  void arbitrate_requests(Cycle now);
  void look_at_head(uint32_t input, uint32_t from);
  void collect_responses(Cycle now);
  void deliver(Cycle now);
  Cycle next_wake(Cycle now) const;
  uint32_t flits(const tlm::tlm_generic_payload& p, bool response) const;

  XbarSpec m_spec;
  bool m_modulo;  // slice_hash "modulo"
  std::vector<std::unique_ptr<TargetEnd>> m_up;
  std::vector<std::unique_ptr<InitiatorEnd>> m_down;
  std::vector<std::deque<Hop>> m_to_slice;  // per output: granted requests in flight
  std::vector<Cycle> m_out_link_free;       // per output
  std::vector<uint32_t> m_round_robin;      // per output: input to favour next
  std::vector<std::deque<tlm::tlm_generic_payload*>> m_waiting_responses;  // per input
  std::vector<std::deque<Hop>> m_to_core;  // per input: responses in flight
  std::vector<Cycle> m_in_link_free;       // per input (response direction)
  uint64_t m_in_flight = 0;  // requests granted whose response has not come back (traced)
  static constexpr uint32_t kNoSlice = ~0u;
  std::vector<uint32_t> m_head_slice;  // per input: the slice its visible request goes to
  std::vector<const tlm::tlm_generic_payload*> m_head_payload;  // per input: ... that request
  std::vector<std::vector<uint32_t>> m_asking;  // per output: inputs whose head goes to it, this
                                                // cycle, ascending
  std::vector<uint32_t> m_asked;                // outputs with m_asking not empty
  // The ports with something to look at, so that a cycle touches those and not every port of a
  // large GPU (132 cores, 160 slices): inputs a request arrived at (erased once empty), outputs a
  // response arrived at (erased once none is pending), outputs with m_to_slice not empty, inputs
  // with m_waiting_responses or m_to_core not empty. Visited in ascending order, as a loop over
  // every port would.
  IndexSet m_active_inputs, m_responding_outputs, m_queued_outputs, m_waiting_inputs,
      m_returning_inputs;

  uint64_t m_requests = 0, m_responses = 0, m_conflicts = 0, m_request_flits = 0,
           m_response_flits = 0;
  std::vector<uint64_t> m_per_slice, m_per_core;
};

}  // namespace gputlm::mem
