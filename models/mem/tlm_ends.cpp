#include "models/mem/tlm_ends.h"

namespace gputlm::mem {

using tlm::tlm_phase;
using tlm::tlm_sync_enum;

TargetEnd::TargetEnd(const char* socket_name, Wakeup& wake, const ClockDomain& clock)
    : m_wake(wake), m_clock(clock), socket(socket_name) {
  socket.bind(*this);
}

void TargetEnd::hold(tlm::tlm_generic_payload& p, const sc_core::sc_time& at) {
  m_held = &p;
  m_held_from = m_clock.edge_after(at);
  m_wake.at(m_held_from);
}

tlm_sync_enum TargetEnd::nb_transport_fw(tlm::tlm_generic_payload& p, tlm_phase& phase,
                                         sc_core::sc_time& delay) {
  if (phase == tlm::BEGIN_REQ) {
    m_arrivals.note();
    if (m_waiting)
      throw std::logic_error(std::string(socket.name()) +
                             ": BEGIN_REQ before END_REQ (request exclusion)");
    if (m_held) {
      m_waiting = &p;
      return tlm::TLM_ACCEPTED;
    }
    // The sender's time: the system's present plus its annotation (a core running a cycle ahead).
    const sc_core::sc_time base = m_clock.base_time();
    const sc_core::sc_time now = base + delay;
    hold(p, now);
    phase = tlm::END_REQ;
    // A register the owner emptied in this time step: the request may have arrived before the
    // take (and waited) or after it; either way END_REQ counts from the owner's next edge.
    delay = (m_taken_at == now ? m_held_from : now) - base;
    return tlm::TLM_UPDATED;
  }
  if (phase == tlm::END_RESP) {
    m_response_busy = false;
    return tlm::TLM_COMPLETED;
  }
  throw std::logic_error(std::string(socket.name()) + ": unexpected phase on the forward path");
}

tlm::tlm_generic_payload* TargetEnd::take() {
  tlm::tlm_generic_payload* p = m_held;
  m_held = nullptr;
  const sc_core::sc_time now = m_clock.base_time();
  m_taken_at = now;
  if (tlm::tlm_generic_payload* w = m_waiting) {
    m_waiting = nullptr;
    hold(*w, now);
    tlm_phase phase = tlm::END_REQ;
    sc_core::sc_time delay = m_held_from - now;
    bound_peer(m_sender, socket).nb_transport_bw(*w, phase, delay);
  }
  return p;
}

void TargetEnd::respond(tlm::tlm_generic_payload& p) {
  p.set_response_status(tlm::TLM_OK_RESPONSE);
  tlm_phase phase = tlm::BEGIN_RESP;
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  const tlm_sync_enum s = bound_peer(m_sender, socket).nb_transport_bw(p, phase, delay);
  m_response_busy = (s == tlm::TLM_ACCEPTED);  // the initiator sends END_RESP later
}

InitiatorEnd::InitiatorEnd(const char* socket_name, Wakeup& wake, const ClockDomain& clock)
    : m_wake(wake), m_clock(clock), socket(socket_name) {
  socket.bind(*this);
}

void InitiatorEnd::send(tlm::tlm_generic_payload& p) {
  if (!can_send())
    throw std::logic_error(std::string(socket.name()) + ": send while the request channel is busy");
  tlm_phase phase = tlm::BEGIN_REQ;
  const sc_core::sc_time now = m_clock.time();
  const sc_core::sc_time base = m_clock.base_time();
  const sc_core::sc_time lead = now - base;  // a core running a cycle ahead: its lead, annotated
  sc_core::sc_time delay = lead;
  m_in_flight = &p;
  m_sent_at = now;
  const tlm_sync_enum s = bound_peer(m_receiver, socket).nb_transport_fw(p, phase, delay);
  if (s == tlm::TLM_UPDATED && phase == tlm::END_REQ) {
    m_request_busy = false;
    // One request a time step: the owner runs again when it may send the next.
    m_free_from = delay > lead ? m_clock.edge_from(base + delay) : now;
    if (m_wake_after_send) m_wake.at(std::max(m_free_from, m_clock.edge_after(now)));
  } else {
    m_request_busy = true;
  }
}

tlm_sync_enum InitiatorEnd::nb_transport_bw(tlm::tlm_generic_payload& p, tlm_phase& phase,
                                            sc_core::sc_time& delay) {
  const sc_core::sc_time now = m_clock.time();
  if (phase == tlm::END_REQ) {
    m_request_busy = false;
    // Seen from the first edge at or after the annotated time, and after now.
    m_free_from =
        delay > sc_core::SC_ZERO_TIME ? m_clock.edge_from(now + delay) : m_clock.edge_after(now);
    m_wake.at(m_free_from);
    return tlm::TLM_ACCEPTED;
  }
  if (phase == tlm::BEGIN_RESP) {
    if (m_request_busy && &p == m_in_flight) {  // BEGIN_RESP implies END_REQ
      m_request_busy = false;
      m_free_from = m_clock.edge_after(now);
    }
    const sc_core::sc_time from = m_clock.edge_after(now);
    m_responses.push_back({&p, from});
    m_arrivals.note();
    m_wake.at(from);
    return tlm::TLM_COMPLETED;
  }
  throw std::logic_error(std::string(socket.name()) + ": unexpected phase on the backward path");
}

}  // namespace gputlm::mem
