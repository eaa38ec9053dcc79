#include "models/vgiw/basic_block_scheduler.h"

#include <stdexcept>

namespace gputlm::vgiw {

BasicBlockScheduler::BasicBlockScheduler(sc_core::sc_module_name name, const VgiwSpec& spec,
                                         double reference_mhz)
    : ClockedModule(name, spec.clock_mhz, reference_mhz),
      to_fabric("to_fabric"),
      from_fabric("from_fabric", m_wake, m_clock),
      m_spec(spec) {
  m_stats.counter("tiles", m_tiles, "count",
                  "tiles run (groups of CTAs the control vector table holds at once)");
  m_stats.counter("block_runs", m_block_runs, "count",
                  "blocks (segments) streamed through the fabric");
  m_stats.counter("reconfigurations", m_reconfigurations, "count",
                  "fabric reconfigurations (a block run whose block was not loaded)");
  m_stats.counter("reconfiguration_cycles", m_reconfiguration_cycles, "cycles",
                  "cycles spent reconfiguring the fabric");
  m_stats.counter("batches_sent", m_batches_sent, "count", "thread batches sent to initiators");
  m_stats.counter("threads_sent", m_threads_sent, "count", "threads in those batches");
  m_stats.counter("batches_returned", m_batches_returned, "count",
                  "thread batches returned by terminators");
  m_stats.counter("cvt_word_reads", m_word_reads, "count",
                  "64-bit control vector table words read (and reset)");
  m_stats.counter("cvt_word_updates", m_word_updates, "count",
                  "64-bit control vector table words ORed");
}

void BasicBlockScheduler::start_tile(uint32_t blocks, uint32_t threads) {
  if (m_state != State::Idle)
    throw std::logic_error(std::string(name()) + ": a tile started while another runs");
  m_cvt = std::make_unique<ControlVectorTable>(blocks, threads, m_spec.cvt_banks);
  m_cvt->set_first(0, threads);
  ++m_tiles;
  m_state = State::Pick;
  m_wake.now();
}

Cycle BasicBlockScheduler::cycle(Cycle now) {
  if (m_credit_cycle != now) {
    m_credit_cycle = now;
    m_read_credit = m_write_credit = m_spec.cvt_banks;
  }
  receive();
  apply_updates();
  if (m_state == State::Streaming) {
    serve_requests();
    if (m_drained) {
      m_drained = false;
      m_state = State::Pick;
    }
  }
  if (m_state == State::Reconfiguring && now >= m_reconfigured_at) {
    m_state = State::Streaming;
    m_configured = static_cast<int32_t>(m_block);
    to_fabric.send({BatchMessage::Kind::Configure, m_block, 0, {}});
  }
  if (m_state == State::Pick && m_updates.empty()) pick(now);
  if (m_tracing) {
    m_wave_state = static_cast<uint64_t>(m_state);
    m_wave_block = m_state == State::Idle ? 0xFFFF : m_block;
    m_wave_sent = m_batches_sent;
    m_wave_returned = m_batches_returned;
    uint64_t pending = 0;
    if (m_cvt)
      for (uint32_t b = 0; b < m_cvt->blocks(); ++b) pending += m_cvt->pending(b);
    m_wave_occupancy = pending;
  }
  Cycle next = kNever;
  if (m_state == State::Reconfiguring) next = m_reconfigured_at;
  if (!m_updates.empty() || (m_state == State::Streaming && !m_requests.empty()) ||
      m_state == State::Pick)
    next = now + 1;
  return next;
}

void BasicBlockScheduler::receive() {
  while (!from_fabric.empty()) {
    const BatchMessage m = from_fabric.pop();
    switch (m.kind) {
      case BatchMessage::Kind::Request:
        m_requests.push_back(m.replica);
        break;
      case BatchMessage::Kind::Returned:
        m_updates.emplace_back(m.block, m.batch);
        ++m_batches_returned;
        break;
      case BatchMessage::Kind::Drained:
        m_drained = true;
        break;
      default:
        throw std::logic_error(std::string(name()) + ": unexpected message from the fabric");
    }
  }
}

// The write port: each returned batch ORs one word, or two when it straddles a word boundary.
void BasicBlockScheduler::apply_updates() {
  while (!m_updates.empty() && m_write_credit > 0) {
    const auto& [block, batch] = m_updates.front();
    const uint32_t words = batch.base % ControlVectorTable::kWordBits ? 2 : 1;
    m_cvt->or_batch(block, batch);
    m_word_updates += words;
    m_write_credit -= std::min<uint64_t>(m_write_credit, words);
    m_updates.pop_front();
  }
}

// The read port: each request gets the block's next non-empty word, or "no more".
void BasicBlockScheduler::serve_requests() {
  while (!m_requests.empty() && m_read_credit > 0) {
    const uint32_t replica = m_requests.front();
    m_requests.pop_front();
    const uint32_t before = m_cursor;
    const ThreadBatch b = m_cvt->next_batch(m_block, &m_cursor);
    const uint64_t words = std::max<uint32_t>(m_cursor - before, 1);
    m_word_reads += words;
    m_read_credit -= std::min(m_read_credit, words);
    if (b.empty()) {
      to_fabric.send({BatchMessage::Kind::NoMore, m_block, replica, {}});
    } else {
      ++m_batches_sent;
      m_threads_sent += b.count();
      to_fabric.send({BatchMessage::Kind::Batch, m_block, replica, b});
    }
  }
}

// Sec. 3.1: the smallest block ID whose thread vector is not empty.
void BasicBlockScheduler::pick(Cycle now) {
  const int b = m_cvt->first_nonempty();
  if (b < 0) {
    m_state = State::Idle;
    m_cvt.reset();
    if (on_tile_done) on_tile_done();
    return;
  }
  m_block = static_cast<uint32_t>(b);
  m_cursor = 0;
  m_requests.clear();
  ++m_block_runs;
  if (m_configured == b) {
    m_state = State::Streaming;
    to_fabric.send({BatchMessage::Kind::Configure, m_block, 0, {}});
    return;
  }
  ++m_reconfigurations;
  m_reconfiguration_cycles += m_spec.reconfiguration_cycles;
  if (reconfiguration_counter) *reconfiguration_counter += m_spec.reconfiguration_cycles;
  m_reconfigured_at = now + m_spec.reconfiguration_cycles;
  m_state = State::Reconfiguring;
}

std::string BasicBlockScheduler::dump() const {
  static const char* const kStates[] = {"idle", "picking", "reconfiguring", "streaming"};
  std::string s = std::string(kStates[static_cast<size_t>(m_state)]) + " block " +
                  std::to_string(m_block) + ", " + std::to_string(m_requests.size()) +
                  " batch requests, " + std::to_string(m_updates.size()) + " updates waiting";
  return s;
}

void BasicBlockScheduler::prepare_waves() { m_tracing = true; }

void BasicBlockScheduler::declare_waves(WaveList& waves) const {
  const std::string n = name();
  // state: 0 idle, 1 pick, 2 reconfigure, 3 stream; current_block 65535: idle
  waves.group(n + ": block, state, batches, CVT threads");
  waves.add(m_wave_block, n + ".current_block", 16);
  waves.add(m_wave_state, n + ".state", 2);
  waves.add(m_wave_sent, n + ".batches_sent", 32);
  waves.add(m_wave_returned, n + ".batches_returned", 32);
  waves.add(m_wave_occupancy, n + ".cvt_threads", 32);
}

}  // namespace gputlm::vgiw
