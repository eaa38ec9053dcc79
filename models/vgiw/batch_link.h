// The link between the VGIW basic-block scheduler and the MT-CGRF fabric (Voitsechov & Etsion,
// Sec. 3.2 and Fig. 4): a TLM socket pair of our own protocol type carrying BatchMessages. The
// scheduler sends a configuration and thread batches (answers to initiators' requests); the
// fabric sends batch requests, terminators' batches and "drained" once every thread of the block
// has left. A receiver queues what arrives and is woken (the scheduler's CVT write port and the
// initiators' double buffers bound what is in flight, so the queue is not a hardware buffer).
#pragma once

#include <deque>
#include <stdexcept>
#include <string>
#include <systemc>
#include <tlm>

#include "models/common/clock.h"
#include "models/common/wakeup.h"
#include "models/vgiw/thread_batch.h"

namespace gputlm::vgiw {

struct BatchMessage {
  enum class Kind : uint8_t {
    Configure,  // scheduler -> fabric: the configuration of `block` is loaded; stream it
    Batch,      // scheduler -> fabric: a batch of `block` for the initiator of `replica`
    NoMore,     // scheduler -> fabric: `block` has no more threads for `replica`
    Request,    // fabric -> scheduler: the initiator of `replica` has a free batch buffer
    Returned,   // fabric -> scheduler: threads that go on to `block` (a terminator's batch)
    Drained,    // fabric -> scheduler: every thread of the block has left the fabric
  };
  Kind kind = Kind::Batch;
  uint32_t block = 0;
  uint32_t replica = 0;
  ThreadBatch batch;
};

struct BatchProtocol {
  typedef BatchMessage tlm_payload_type;
  typedef tlm::tlm_phase tlm_phase_type;
};

// The receiving end: queues each message (BEGIN_REQ completed at once) and runs its owner when
// the message becomes visible. A registered link, like the memory links of mem/tlm_ends.h: when
// a message is seen, and the time it counts at (the owner's clock's base time plus the sender's
// annotation), are docs/design/time-model.md "Mechanisms" (Registered links) and rule 4.
class BatchIn : public tlm::tlm_fw_transport_if<BatchProtocol> {
 public:
  BatchIn(const char* name, Wakeup& wake, const ClockDomain& clock)
      : socket(name), m_wake(wake), m_clock(clock) {
    socket.bind(*this);
  }
  tlm::tlm_target_socket<32, BatchProtocol> socket;

  // Whether no message is visible now.
  bool empty() const { return m_queue.empty() || m_queue.front().from > m_clock.base_time(); }
  BatchMessage pop() {
    BatchMessage m = std::move(m_queue.front().message);
    m_queue.pop_front();
    return m;
  }

  tlm::tlm_sync_enum nb_transport_fw(BatchMessage& m, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay) override {
    if (phase != tlm::BEGIN_REQ)
      throw std::logic_error(std::string(socket.name()) + ": protocol violation");
    const sc_core::sc_time from = m_clock.edge_after(m_clock.base_time() + delay);
    m_queue.push_back({m, from});
    m_wake.at(from);
    phase = tlm::END_REQ;
    return tlm::TLM_COMPLETED;
  }
  void b_transport(BatchMessage&, sc_core::sc_time&) override {
    throw std::logic_error("batch links are non-blocking");
  }
  bool get_direct_mem_ptr(BatchMessage&, tlm::tlm_dmi&) override { return false; }
  unsigned int transport_dbg(BatchMessage&) override { return 0; }

 private:
  struct Queued {
    BatchMessage message;
    sc_core::sc_time from;
  };
  Wakeup& m_wake;
  const ClockDomain& m_clock;
  std::deque<Queued> m_queue;
};

// The sending end.
class BatchOut : public tlm::tlm_bw_transport_if<BatchProtocol> {
 public:
  explicit BatchOut(const char* name) : socket(name) { socket.bind(*this); }
  tlm::tlm_initiator_socket<32, BatchProtocol> socket;

  void send(BatchMessage m) {
    tlm::tlm_phase phase = tlm::BEGIN_REQ;
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    socket->nb_transport_fw(m, phase, delay);
  }
  tlm::tlm_sync_enum nb_transport_bw(BatchMessage&, tlm::tlm_phase&, sc_core::sc_time&) override {
    throw std::logic_error(std::string(socket.name()) + ": batch links have no backward path");
  }
  void invalidate_direct_mem_ptr(sc_dt::uint64, sc_dt::uint64) override {}
};

}  // namespace gputlm::vgiw
