#include "models/mem/tlm_ends.h"

#include <stdexcept>

namespace gputlm::mem {

using tlm::tlm_phase;
using tlm::tlm_sync_enum;

TargetEnd::TargetEnd(const char* socket_name, sc_core::sc_event& wake) : socket(socket_name), m_wake(wake) {
  socket.register_nb_transport_fw(this, &TargetEnd::nb_transport_fw);
}

tlm_sync_enum TargetEnd::nb_transport_fw(tlm::tlm_generic_payload& p, tlm_phase& phase, sc_core::sc_time&) {
  if (phase == tlm::BEGIN_REQ) {
    if (m_request) throw std::logic_error(std::string(socket.name()) + ": BEGIN_REQ before END_REQ (request exclusion)");
    m_request = &p;
    m_wake.notify(sc_core::SC_ZERO_TIME);
    return tlm::TLM_ACCEPTED;
  }
  if (phase == tlm::END_RESP) {
    m_response_busy = false;
    m_wake.notify(sc_core::SC_ZERO_TIME);
    return tlm::TLM_COMPLETED;
  }
  throw std::logic_error(std::string(socket.name()) + ": unexpected phase on the forward path");
}

tlm::tlm_generic_payload* TargetEnd::take() {
  tlm::tlm_generic_payload* p = m_request;
  m_request = nullptr;
  tlm_phase phase = tlm::END_REQ;
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  socket->nb_transport_bw(*p, phase, delay);
  return p;
}

void TargetEnd::respond(tlm::tlm_generic_payload& p) {
  p.set_response_status(tlm::TLM_OK_RESPONSE);
  tlm_phase phase = tlm::BEGIN_RESP;
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  const tlm_sync_enum s = socket->nb_transport_bw(p, phase, delay);
  m_response_busy = (s == tlm::TLM_ACCEPTED);  // the initiator sends END_RESP later
}

InitiatorEnd::InitiatorEnd(const char* socket_name, sc_core::sc_event& wake, bool* poke)
    : socket(socket_name), m_wake(wake), m_poke(poke) {
  socket.register_nb_transport_bw(this, &InitiatorEnd::nb_transport_bw);
}

void InitiatorEnd::send(tlm::tlm_generic_payload& p) {
  if (m_request_busy) throw std::logic_error(std::string(socket.name()) + ": send while the request channel is busy");
  tlm_phase phase = tlm::BEGIN_REQ;
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  m_in_flight = &p;
  const tlm_sync_enum s = socket->nb_transport_fw(p, phase, delay);
  m_request_busy = !(s == tlm::TLM_UPDATED && phase == tlm::END_REQ) && s != tlm::TLM_COMPLETED;
  if (s == tlm::TLM_UPDATED && phase == tlm::BEGIN_RESP) {
    m_request_busy = false;
    m_responses.push_back(&p);
  }
  if (s == tlm::TLM_COMPLETED) m_responses.push_back(&p);
}

tlm_sync_enum InitiatorEnd::nb_transport_bw(tlm::tlm_generic_payload& p, tlm_phase& phase, sc_core::sc_time&) {
  if (phase == tlm::END_REQ) {
    m_request_busy = false;
    if (m_poke) *m_poke = true;
    m_wake.notify(sc_core::SC_ZERO_TIME);
    return tlm::TLM_ACCEPTED;
  }
  if (phase == tlm::BEGIN_RESP) {
    if (m_request_busy && &p == m_in_flight) m_request_busy = false;  // BEGIN_RESP implies END_REQ
    m_responses.push_back(&p);
    if (m_poke) *m_poke = true;
    m_wake.notify(sc_core::SC_ZERO_TIME);
    return tlm::TLM_COMPLETED;
  }
  throw std::logic_error(std::string(socket.name()) + ": unexpected phase on the backward path");
}

}  // namespace gputlm::mem
