// The two ends of a TLM-2.0 base-protocol link (4-phase, non-blocking), shared by every memory
// module so that the protocol, its back-pressure and its timing are written once. They are
// registered links: when a request, its END_REQ and a response are seen, and the taken-at rule,
// are docs/design/time-model.md "Mechanisms" (Registered links) and rule 4.
//
// TargetEnd (a module's upstream side): one request register, and a request that finds it full
// waiting at the port without END_REQ (the base protocol's request exclusion) until the owner's
// take(). InitiatorEnd (a module's downstream side): sends at most one request a time step, waits
// for END_REQ, and accepts every response at once (modules bound their outstanding requests with
// MSHRs or queues instead).
#pragma once

#include <deque>
#include <stdexcept>
#include <string>
#include <tlm>

#include "models/common/bound_peer.h"
#include "models/common/clock.h"
#include "models/common/index_set.h"
#include "models/common/wakeup.h"

namespace gputlm::mem {

// Where a link end reports an arrival (report_arrivals_to): member `index` of `set`, if any.
struct ArrivalReport {
  IndexSet* set = nullptr;
  uint32_t index = 0;
  void note() const {
    if (set) set->insert(index);
  }
};

// The memory links' own protocol type: the base protocol's phases and payload type (an address,
// a size and the MemExtension; no data, which the functional engine holds), but not the base
// protocol itself, whose modules expect data and blocking transport: one of those bound to a
// memory link by mistake is a compile error.
struct MemProtocol {
  using tlm_payload_type = tlm::tlm_generic_payload;
  using tlm_phase_type = tlm::tlm_phase;
};

// The ends implement the TLM transport interfaces themselves and bind their plain sockets to
// them: a call crosses one virtual function, without the simple sockets' adapters (which look a
// transaction up in a map on every backward call).
class TargetEnd : public tlm::tlm_fw_transport_if<MemProtocol> {
 public:
  // `wake` runs the owner, whose clock is `clock` (kept by reference), when a request becomes
  // visible to it.
  TargetEnd(const char* socket_name, Wakeup& wake, const ClockDomain& clock);

  // The request in the register if the owner may see it now, or nullptr.
  tlm::tlm_generic_payload* peek() const {
    return m_held && m_held_from.value() <= m_clock.base_value() ? m_held : nullptr;
  }
  // Takes the request peek() returned; a request waiting at the port moves into the register.
  tlm::tlm_generic_payload* take();
  bool can_respond() const { return !m_response_busy; }
  // No request in the register or waiting at the port.
  bool empty() const { return !m_held && !m_waiting; }
  // A request arriving at the port (BEGIN_REQ) also adds `index` to `set`: an owner with many
  // ports looks only at those in the set (it erases a port once empty()).
  void report_arrivals_to(IndexSet& set, uint32_t index) { m_arrivals = {&set, index}; }
  // Sends the response (BEGIN_RESP); the payload's response status is set to OK.
  void respond(tlm::tlm_generic_payload& p);

 private:
  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& p, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay) override;
  void b_transport(tlm::tlm_generic_payload&, sc_core::sc_time&) override {
    throw std::logic_error("memory links are non-blocking");
  }
  bool get_direct_mem_ptr(tlm::tlm_generic_payload&, tlm::tlm_dmi&) override { return false; }
  unsigned int transport_dbg(tlm::tlm_generic_payload&) override { return 0; }
  // Puts `p` in the register, visible from the owner's first edge after `at` (now, or the time
  // the sender annotated).
  void hold(tlm::tlm_generic_payload& p, const sc_core::sc_time& at);

  Wakeup& m_wake;
  const ClockDomain& m_clock;
  tlm::tlm_generic_payload* m_held = nullptr;  // the register
  sc_core::sc_time m_held_from;                // when the owner may see it
  tlm::tlm_generic_payload* m_waiting =
      nullptr;  // arrived while the register was full: no END_REQ yet
  sc_core::sc_time m_taken_at = sc_core::sc_max_time();  // time of the last take()
  ArrivalReport m_arrivals;                              // see report_arrivals_to
  bool m_response_busy = false;
  tlm::tlm_bw_transport_if<MemProtocol>* m_sender = nullptr;  // the bound sender, once known

 public:
  // Last, so that what a cycle reads (above) shares the object's first cache lines.
  tlm::tlm_target_socket<32, MemProtocol> socket;
};

class InitiatorEnd : public tlm::tlm_bw_transport_if<MemProtocol> {
 public:
  // `wake` runs the owner, whose clock is `clock`, when END_REQ or a response becomes visible.
  InitiatorEnd(const char* socket_name, Wakeup& wake, const ClockDomain& clock);

  bool can_send() const {
    const sc_core::sc_time now = m_clock.time();
    return !m_request_busy && m_free_from <= now && m_sent_at != now;
  }
  // Sends BEGIN_REQ; requires can_send(). Unless the owner plans its sends, it runs again at the
  // first edge it may send the next.
  void send(tlm::tlm_generic_payload& p);
  // The owner asks for the edge it may send its next request at itself (next_send_cycle), when it
  // has one: a send then does not wake it (with nothing more to send it would run for nothing).
  void owner_plans_sends() { m_wake_after_send = false; }
  // The first cycle the owner may send again (now or earlier if it may now), or kNever while the
  // request sent waits for END_REQ (whose arrival wakes the owner).
  Cycle next_send_cycle() const {
    if (m_request_busy) return kNever;
    if (m_sent_at == sc_core::sc_max_time()) return m_clock.cycle_at(m_free_from);
    return m_clock.cycle_at(std::max(m_free_from, m_clock.edge_after(m_sent_at)));
  }
  // Responses the owner may see now, oldest first.
  bool has_response() const {
    return !m_responses.empty() && m_responses.front().from <= m_clock.time();
  }
  tlm::tlm_generic_payload& front_response() const { return *m_responses.front().payload; }
  // No request waiting for END_REQ and no response come or coming.
  bool idle() const { return !m_request_busy && m_responses.empty(); }
  void pop_response() { m_responses.pop_front(); }
  // Responses come, seen or not yet.
  bool responses_pending() const { return !m_responses.empty(); }
  // A response arriving (BEGIN_RESP) also adds `index` to `set` (as TargetEnd's).
  void report_arrivals_to(IndexSet& set, uint32_t index) { m_arrivals = {&set, index}; }

 private:
  struct Response {
    tlm::tlm_generic_payload* payload;
    sc_core::sc_time from;  // when the owner may see it
  };
  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& p, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay) override;
  void invalidate_direct_mem_ptr(sc_dt::uint64, sc_dt::uint64) override {}

  Wakeup& m_wake;
  const ClockDomain& m_clock;
  tlm::tlm_generic_payload* m_in_flight = nullptr;
  bool m_request_busy = false;
  sc_core::sc_time m_free_from = sc_core::SC_ZERO_TIME;  // END_REQ seen from then on
  sc_core::sc_time m_sent_at = sc_core::sc_max_time();   // time of the last send
  bool m_wake_after_send = true;                         // see owner_plans_sends
  ArrivalReport m_arrivals;                              // see report_arrivals_to
  std::deque<Response> m_responses;
  tlm::tlm_fw_transport_if<MemProtocol>* m_receiver = nullptr;  // the bound receiver, once known

 public:
  // Last, so that what a cycle reads (above) shares the object's first cache lines.
  tlm::tlm_initiator_socket<32, MemProtocol> socket;
};

}  // namespace gputlm::mem
