// The two ends of a pipeline link between stages: a TLM socket pair carrying WarpInstr with the
// base protocol's request phases (the stage protocol's own payload type, so plain tlm sockets
// with the interfaces implemented here). The receiving stage holds an arriving instruction at its
// input (no END_REQ) until it has room; the sender may not send the next one before END_REQ, which
// is the pipeline's back-pressure: a full stage stalls the stages before it. Both ends run in the
// core's one process, so instead of an event each end raises its stage's `poked` flag: the core
// runs a poked stage again in the same cycle. Not registered, unlike the memory links:
// docs/design/time-model.md, rule 4 and "Mechanisms" (Registered links, last point).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <tlm>

#include "models/common/bound_peer.h"
#include "models/sm/warp_instr.h"

namespace gputlm::sm {

// A stage's "poked" flag (a link end moved an instruction since the stage last ran), a bit of the
// core's mask of poked stages, so that the core's same-cycle re-runs visit only the poked stages
// and end without a scan.
class PokeFlag {
 public:
  // `poked` is the core's mask of poked stages (CoreContext::poked_stages), `bit` the stage's.
  PokeFlag(uint64_t& poked, uint64_t bit) : m_poked(poked), m_bit(bit) {}
  bool raised() const { return (m_poked & m_bit) != 0; }
  void raise() { m_poked |= m_bit; }
  void lower() { m_poked &= ~m_bit; }
  // The core gives its stages the bits of the order it runs them in (Core::Core): a pass over the
  // poked stages is then a walk up the mask's set bits.
  void move_to(uint64_t bit) {
    const bool was = raised();
    lower();
    m_bit = bit;
    if (was) raise();
  }

 private:
  uint64_t& m_poked;
  uint64_t m_bit;
};

// Each end keeps what a cycle reads (the held instruction, busy, the flag, the peer's interface)
// ahead of its socket, in the object's first cache line.
class StageIn : public tlm::tlm_fw_transport_if<StageTypes> {
  PokeFlag& m_poked;
  WarpInstr* m_held = nullptr;
  tlm::tlm_bw_transport_if<StageTypes>* m_sender = nullptr;  // the bound sender, once known

 public:
  StageIn(const char* name, PokeFlag& poked) : m_poked(poked), socket(name) { socket.bind(*this); }
  tlm::tlm_target_socket<32, StageTypes> socket;

  WarpInstr* peek() const { return m_held; }
  // Takes the held instruction and lets the sender send the next one.
  WarpInstr* take() {
    WarpInstr* w = m_held;
    m_held = nullptr;
    tlm::tlm_phase phase = tlm::END_REQ;
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    bound_peer(m_sender, socket).nb_transport_bw(*w, phase, delay);
    return w;
  }

  tlm::tlm_sync_enum nb_transport_fw(WarpInstr& w, tlm::tlm_phase& phase,
                                     sc_core::sc_time&) override {
    if (phase != tlm::BEGIN_REQ || m_held)
      throw std::logic_error(std::string(socket.name()) + ": protocol violation");
    m_held = &w;
    m_poked.raise();
    return tlm::TLM_ACCEPTED;
  }
  void b_transport(WarpInstr&, sc_core::sc_time&) override {
    throw std::logic_error("stage links are non-blocking");
  }
  bool get_direct_mem_ptr(WarpInstr&, tlm::tlm_dmi&) override { return false; }
  unsigned int transport_dbg(WarpInstr&) override { return 0; }
};

class StageOut : public tlm::tlm_bw_transport_if<StageTypes> {
  PokeFlag& m_poked;
  bool m_busy = false;
  tlm::tlm_fw_transport_if<StageTypes>* m_receiver = nullptr;  // the bound receiver, once known

 public:
  StageOut(const char* name, PokeFlag& poked) : m_poked(poked), socket(name) { socket.bind(*this); }
  tlm::tlm_initiator_socket<32, StageTypes> socket;

  bool can_send() const { return !m_busy; }
  void send(WarpInstr& w) {
    tlm::tlm_phase phase = tlm::BEGIN_REQ;
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    m_busy = true;
    if (bound_peer(m_receiver, socket).nb_transport_fw(w, phase, delay) == tlm::TLM_UPDATED &&
        phase == tlm::END_REQ)
      m_busy = false;
  }

  tlm::tlm_sync_enum nb_transport_bw(WarpInstr&, tlm::tlm_phase& phase,
                                     sc_core::sc_time&) override {
    if (phase != tlm::END_REQ)
      throw std::logic_error(std::string(socket.name()) + ": protocol violation");
    m_busy = false;
    m_poked.raise();
    return tlm::TLM_ACCEPTED;
  }
  void invalidate_direct_mem_ptr(sc_dt::uint64, sc_dt::uint64) override {}
};

}  // namespace gputlm::sm
