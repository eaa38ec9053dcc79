// The two ends of a TLM-2.0 base-protocol link (4-phase, non-blocking), shared by every memory
// module so that the protocol and its back-pressure are written once.
//
// TargetEnd (a module's upstream side): a BEGIN_REQ is held at the port and the owner is woken;
// the owner takes the request when it has room and only then does the port send END_REQ. Until
// then the initiator may not send another request (the base protocol's request exclusion rule):
// that is the back-pressure, and the sender simply retries when END_REQ arrives.
// InitiatorEnd (a module's downstream side): sends one request at a time, waits for END_REQ,
// and accepts every response at once (BEGIN_RESP is completed immediately: modules bound their
// outstanding requests with MSHRs or queues instead).
#pragma once

#include <deque>
#include <string>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

namespace gputlm::mem {

class TargetEnd {
 public:
  // `wake` is notified (next delta) when a request arrives or the response channel frees.
  TargetEnd(const char* socket_name, sc_core::sc_event& wake);

  tlm_utils::simple_target_socket<TargetEnd> socket;

  // The request waiting at the port, or nullptr.
  tlm::tlm_generic_payload* peek() const { return m_request; }
  // Takes the waiting request: sends END_REQ, so the initiator may send the next one.
  tlm::tlm_generic_payload* take();
  bool can_respond() const { return !m_response_busy; }
  // Sends the response (BEGIN_RESP); the payload's response status is set to OK.
  void respond(tlm::tlm_generic_payload& p);

 private:
  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& p, tlm::tlm_phase& phase, sc_core::sc_time& delay);

  sc_core::sc_event& m_wake;
  tlm::tlm_generic_payload* m_request = nullptr;
  bool m_response_busy = false;
};

class InitiatorEnd {
 public:
  // `wake` is notified when END_REQ frees the request channel or a response arrives; so is
  // `*poke` raised, if given (an owner that runs several parts in one process learns which).
  InitiatorEnd(const char* socket_name, sc_core::sc_event& wake, bool* poke = nullptr);

  tlm_utils::simple_initiator_socket<InitiatorEnd> socket;

  bool can_send() const { return !m_request_busy; }
  // Sends BEGIN_REQ; requires can_send().
  void send(tlm::tlm_generic_payload& p);
  // Responses received, oldest first.
  bool has_response() const { return !m_responses.empty(); }
  tlm::tlm_generic_payload& front_response() const { return *m_responses.front(); }
  void pop_response() { m_responses.pop_front(); }

 private:
  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& p, tlm::tlm_phase& phase, sc_core::sc_time& delay);

  sc_core::sc_event& m_wake;
  bool* m_poke;
  tlm::tlm_generic_payload* m_in_flight = nullptr;
  bool m_request_busy = false;
  std::deque<tlm::tlm_generic_payload*> m_responses;
};

}  // namespace gputlm::mem
