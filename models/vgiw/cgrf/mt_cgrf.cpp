#include "models/vgiw/cgrf/mt_cgrf.h"

#include <algorithm>
#include <sstream>

#include "models/func/kernel_fault.h"

namespace gputlm::vgiw {

namespace {
uint32_t wheel_size(const VgiwSpec& s, const Fabric& f) {
  const uint32_t longest =
      std::max({s.compute_latency, s.int_div_latency, s.float_div_latency, s.sfu_latency,
                s.join_latency, s.control_latency, s.shared_latency, s.param_latency}) +
      2 * (f.width() + f.height()) + 2;
  uint32_t w = 64;
  while (w < longest) w *= 2;
  return w;
}
}  // namespace

MtCgrf::MtCgrf(sc_core::sc_module_name name, const VgiwSpec& spec, const Fabric& fabric,
               uint32_t core_id, double reference_mhz)
    : ClockedModule(name, spec.clock_mhz, reference_mhz),
      from_scheduler("from_scheduler", m_wake, m_clock),
      to_scheduler("to_scheduler"),
      m_spec(spec),
      m_fabric(fabric),
      m_core_id(core_id),
      m_units(fabric.units()),
      m_wheel(wheel_size(spec, fabric)),
      m_wave_units(static_cast<int>(fabric.units())) {
  uint32_t ldst = 0, lvu = 0;
  for (uint32_t u = 0; u < fabric.units(); ++u) {
    if (fabric.type(u) == UnitType::LoadStore) m_units[u].port = static_cast<int32_t>(ldst++);
    if (fabric.type(u) == UnitType::LiveValue) m_units[u].port = static_cast<int32_t>(lvu++);
  }
  for (uint32_t i = 0; i < ldst; ++i)
    m_l1_ports.push_back(
        std::make_unique<mem::InitiatorEnd>(("l1_" + std::to_string(i)).c_str(), m_wake, m_clock));
  for (uint32_t i = 0; i < lvu; ++i)
    m_lvc_ports.push_back(
        std::make_unique<mem::InitiatorEnd>(("lvc_" + std::to_string(i)).c_str(), m_wake, m_clock));
  for (size_t t = 0; t < kUnitTypes; ++t) {
    const std::string n = unit_type_name(static_cast<UnitType>(t));
    m_stats.counter("firings_" + n, m_firings[t], "count",
                    "firings of " + n + " units (one thread each)");
  }
  m_stats.counter("threads_started", m_threads_started, "count",
                  "threads the initiators started (one per block run)");
  m_stats.counter("threads_finished", m_threads_finished, "count",
                  "threads the terminators passed on or retired");
  m_stats.counter("memory_accesses", m_memory_accesses, "count",
                  "load/store unit accesses sent to the L1");
  m_stats.counter("shared_accesses", m_shared_accesses, "count",
                  "load/store unit accesses to shared memory");
  m_stats.counter("live_value_loads", m_live_loads, "count",
                  "live-value unit loads from the live value cache");
  m_stats.counter("live_value_stores", m_live_stores, "count",
                  "live-value unit stores to the live value cache");
  m_stats.formula(
      "live_value_accesses", [this] { return double(m_live_loads + m_live_stores); }, "count",
      "live value cache accesses (loads + stores)");
  m_stats.counter("reservation_stalls", m_reservation_stalls, "count",
                  "times a ready memory or live-value node could not issue (reservation buffer "
                  "full or port busy)");
  m_stats.counter("busy_cycles", m_busy_cycles, "cycles", "cycles with a thread in the fabric");
  for (size_t i = 0; i < core::kFabricPhases; ++i) {
    const std::string n = core::fabric_phase_name(static_cast<core::FabricPhase>(i));
    m_stats.counter("cycles_" + n, m_phase_cycles[i], "cycles", "cycles a block streamed: " + n);
  }
  m_stats.counter("configurations", m_configurations, "count",
                  "configurations loaded (block runs)");
  m_stats.counter("token_hops", m_token_hops, "count",
                  "grid hops of every token sent (each token adds the hops of its route)");
  m_stats.maximum("max_threads_in_flight", m_max_in_flight, "count",
                  "most threads in the fabric at once");
}

Cycle MtCgrf::cycle(Cycle now) {
  const bool new_cycle = now != m_last_tick;
  if (new_cycle) count_phases(now);
  if (m_tracing && new_cycle) {
    m_wave_fired.fill(0);
    m_wave_units = 0;
  }
  receive_messages();
  receive_memory(now);
  if (new_cycle) {
    m_last_tick = now;
    std::vector<Token>& bucket = m_wheel[now % m_wheel.size()];
    for (const Token& t : bucket) arrive(t.unit, t.channel);
    m_tokens_in_wheel -= bucket.size();
    bucket.clear();
    std::vector<uint32_t> active;
    active.swap(m_active);
    for (uint32_t u : active) {
      m_units[u].listed = false;
      if (m_units[u].count) fire(u, now);
      if (m_units[u].count && !m_units[u].listed) {
        m_units[u].listed = true;
        m_active.push_back(u);
      }
    }
    inject(now);
    if (m_threads_in_flight) ++m_busy_cycles;
  }
  check_drained();  // also on a later tick of the cycle: the last "no more" may come then
  m_wave_in_flight = m_threads_in_flight;
  m_busy_after = m_threads_in_flight > 0;
  m_phase_now = phase(now, true);
  m_phase_after = phase(now, false);
  Cycle next = next_token_cycle(now);
  const bool injectable = m_phase_after == static_cast<int>(core::FabricPhase::Injecting);
  if (!m_active.empty() || injectable || (m_tracing && m_wave_units.or_reduce())) next = now + 1;
  return next;
}

int MtCgrf::phase(Cycle now, bool this_cycle) const {
  using P = core::FabricPhase;
  if (!m_streaming) return -1;
  if (this_cycle && m_injected_at == now) return static_cast<int>(P::Injecting);
  bool full = false, waiting = false, injectable = false;
  for (const Initiator& i : m_initiators) {
    full |= i.held && i.free_channels.empty();
    injectable |= i.held && !i.free_channels.empty();
    waiting |= !i.held && !i.no_more;
  }
  if (injectable) return static_cast<int>(P::Injecting);
  if (full) return static_cast<int>(P::ChannelsFull);
  return static_cast<int>(waiting ? P::WaitingBatches : P::Draining);
}

// Cycle m_last_tick in its phase, the cycles slept through since in theirs.
void MtCgrf::count_phases(Cycle now) {
  if (m_last_tick == kNever) return;
  auto add = [&](int p, uint64_t n) {
    if (p < 0 || !n) return;
    m_phase_cycles[static_cast<size_t>(p)] += n;
    m_hooks.counters->fabric.fabric_cycles[static_cast<size_t>(p)] += n;
  };
  add(m_phase_now, 1);
  add(m_phase_after, now - m_last_tick - 1);
  // The cycles the fabric slept through kept the threads it held when it last ran.
  if (m_busy_after) m_busy_cycles += now - m_last_tick - 1;
}

Cycle MtCgrf::next_token_cycle(Cycle now) const {
  if (m_tokens_in_wheel == 0) return kNever;
  for (Cycle c = now + 1; c <= now + m_wheel.size(); ++c)
    if (!m_wheel[c % m_wheel.size()].empty()) return c;
  return kNever;
}

void MtCgrf::receive_messages() {
  while (!from_scheduler.empty()) {
    const BatchMessage m = from_scheduler.pop();
    switch (m.kind) {
      case BatchMessage::Kind::Configure:
        configure(m.block);
        break;
      case BatchMessage::Kind::Batch: {
        Initiator& in = m_initiators.at(m.replica);
        in.buffers[in.held++] = m.batch;
        --in.requested;
        break;
      }
      case BatchMessage::Kind::NoMore: {
        Initiator& in = m_initiators.at(m.replica);
        in.no_more = true;
        --in.requested;
        break;
      }
      default:
        throw std::logic_error(std::string(name()) + ": unexpected message from the scheduler");
    }
  }
}

void MtCgrf::configure(uint32_t segment) {
  if (m_streaming)
    throw std::logic_error(std::string(name()) + ": configured while threads are in flight");
  m_config = &m_hooks.config(segment);
  ++m_configurations;
  ++m_hooks.counters->fabric.block_runs;
  m_streaming = true;
  m_wave_segment = segment;
  for (UnitState& u : m_units) {
    u.replica = -1;
    u.count = u.head = 0;
  }
  const uint32_t v = m_spec.virtual_channels;
  for (uint32_t r = 0; r < m_config->replicas; ++r)
    for (uint32_t n = 0; n < m_config->nodes.size(); ++n) {
      UnitState& u = m_units[m_config->unit[m_config->index(r, n)]];
      u.replica = static_cast<int32_t>(r);
      u.node = n;
      if (u.ready.size() != v) u.ready.assign(v, 0);
    }
  m_channels.resize(size_t{m_config->replicas} * v);
  for (Channel& c : m_channels)
    if (c.accesses.size() < m_config->memory_instructions)
      c.accesses.resize(m_config->memory_instructions);
  std::vector<uint32_t> inputs;
  for (const ConfiguredNode& n : m_config->nodes) inputs.push_back(n.inputs);
  m_tokens.configure(static_cast<uint32_t>(m_channels.size()), std::move(inputs));
  m_initiators.assign(m_config->replicas, Initiator{});
  for (uint32_t r = 0; r < m_config->replicas; ++r) {
    Initiator& in = m_initiators[r];
    for (uint32_t c = v; c-- > 0;) in.free_channels.push_back(r * v + c);
    request(r);
    request(r);  // double buffering (Sec. 3.5, control vector units)
  }
}

void MtCgrf::request(uint32_t replica) {
  ++m_initiators[replica].requested;
  BatchMessage m;
  m.kind = BatchMessage::Kind::Request;
  m.replica = replica;
  to_scheduler.send(m);
}

void MtCgrf::receive_memory(Cycle now) {
  auto drain = [&](std::vector<std::unique_ptr<mem::InitiatorEnd>>& ports) {
    for (auto& p : ports)
      while (p->has_response()) {
        tlm::tlm_generic_payload& r = p->front_response();
        p->pop_response();
        auto it = m_waiting.find(&r);
        const Token t = it->second;
        m_waiting.erase(it);
        r.release();
        --m_units[t.unit].outstanding;
        emit(t.unit, t.channel, now);
      }
  };
  drain(m_l1_ports);
  drain(m_lvc_ports);
}

void MtCgrf::arrive(uint32_t unit, uint32_t channel) {
  UnitState& u = m_units[unit];
  if (!m_tokens.deliver(channel, u.node)) return;
  u.ready[(u.head + u.count++) % u.ready.size()] = channel;
  if (!u.listed) {
    u.listed = true;
    m_active.push_back(unit);
  }
}

void MtCgrf::emit(uint32_t unit, uint32_t channel, Cycle at) {
  const UnitState& u = m_units[unit];
  for (const Successor& s :
       m_config->succs[m_config->index(static_cast<uint32_t>(u.replica), u.node)]) {
    m_wheel[(at + s.hops) % m_wheel.size()].push_back(
        {m_config->unit[m_config->index(static_cast<uint32_t>(u.replica), s.node)], channel});
    ++m_tokens_in_wheel;
    m_token_hops += s.hops;
  }
}

bool MtCgrf::fire(uint32_t unit, Cycle now) {
  UnitState& u = m_units[unit];
  const uint32_t channel = u.ready[u.head];
  const ConfiguredNode& n = m_config->nodes[u.node];
  switch (n.role) {
    case GraphNode::Role::Terminator:
      if (!m_config->entry_of.empty() && m_channels[channel].next >= 0)
        steer(static_cast<uint32_t>(u.replica), unit, channel, now + n.latency);
      else
        terminate(static_cast<uint32_t>(u.replica), channel);
      break;
    case GraphNode::Role::LiveLoad:
    case GraphNode::Role::LiveStore:
      if (!fire_memory(u, unit, channel, now)) return false;
      break;
    default:
      if (n.unit == UnitType::LoadStore) {
        if (!fire_memory(u, unit, channel, now)) return false;
        break;
      }
      if (n.unit == UnitType::Special) {
        auto& busy = u.special_done;
        busy.erase(std::remove_if(busy.begin(), busy.end(), [now](Cycle c) { return c <= now; }),
                   busy.end());
        if (busy.size() >= m_spec.special_instances) return false;
        busy.push_back(now + n.latency);
      }
      emit(unit, channel, now + n.latency);
  }
  u.head = (u.head + 1) % u.ready.size();
  --u.count;
  ++m_firings[static_cast<size_t>(n.unit)];
  if (m_tracing) {
    ++m_wave_fired[static_cast<size_t>(n.unit)];
    m_wave_units[static_cast<int>(unit)] = 1;
  }
  return true;
}

// A load/store or live-value node: shared memory, parameters and threads whose guard failed
// answer at a fixed latency; the rest go to the unit's cache port if the reservation buffer has
// room.
bool MtCgrf::fire_memory(UnitState& u, uint32_t unit, uint32_t channel, Cycle now) {
  const ConfiguredNode& n = m_config->nodes[u.node];
  Channel& ch = m_channels[channel];
  uint64_t address;
  uint32_t bytes;
  mem::AccessKind kind;
  mem::InitiatorEnd* port;
  if (n.unit == UnitType::LoadStore) {
    const MemAccess& a = ch.accesses[n.memory_ordinal];
    if (!a.active || a.space == isa::Space::Param || a.space == isa::Space::Shared) {
      const uint32_t latency = !a.active                      ? 1
                               : a.space == isa::Space::Param ? m_spec.param_latency
                                                              : m_spec.shared_latency;
      m_shared_accesses += a.active && a.space == isa::Space::Shared;
      emit(unit, channel, now + latency);
      return true;
    }
    address = a.address;
    bytes = a.bytes;
    kind = a.kind;
    port = m_l1_ports[static_cast<size_t>(u.port)].get();
  } else {
    address = m_tile->live_address(n.live_id, ch.tid);
    bytes = m_tile->live_bytes(n.live_id);
    kind = n.role == GraphNode::Role::LiveLoad ? mem::AccessKind::Load : mem::AccessKind::Store;
    port = m_lvc_ports[static_cast<size_t>(u.port)].get();
  }
  if (u.outstanding >= m_spec.reservation_entries || !port->can_send()) {
    ++m_reservation_stalls;
    return false;
  }
  tlm::tlm_generic_payload& p = m_pool.make(address, bytes, kind, m_clock.time());
  mem::MemExtension& e = mem::MemExtension::of(p);
  e.core = m_core_id;
  e.warp = channel;
  e.lanes = 1;
  e.pc = n.pc;
  e.issued_ps = sim_now().value();
  m_waiting[&p] = {unit, channel};
  ++u.outstanding;
  if (n.unit == UnitType::LoadStore)
    ++m_memory_accesses;
  else {
    (kind == mem::AccessKind::Load ? m_live_loads : m_live_stores)++;
    ++m_hooks.counters->fabric.live_value_accesses;
  }
  port->send(p);
  return true;
}

void MtCgrf::terminate(uint32_t replica, uint32_t channel) {
  Channel& ch = m_channels[channel];
  Initiator& in = m_initiators[replica];
  if (ch.next >= 0) {
    const auto& d = m_config->destinations;
    const size_t k = static_cast<size_t>(
        std::find(d.begin(), d.end(), static_cast<uint32_t>(ch.next)) - d.begin());
    if (k >= 2 || k >= d.size())
      throw std::logic_error(std::string(name()) +
                             ": a thread left for a block its terminator does not name");
    const ThreadBatch out = in.collectors[k].add(ch.tid);
    if (!out.empty())
      to_scheduler.send(
          {BatchMessage::Kind::Returned, static_cast<uint32_t>(ch.next), replica, out});
  }
  in.free_channels.push_back(channel);
  --m_threads_in_flight;
  ++m_threads_finished;
}

bool MtCgrf::run_segment(Channel& ch, Cycle now) {
  try {
    ch.next =
        m_tile->run(ch.segment, ch.tid, now, ch.accesses, &m_hooks.counters->thread_instructions);
  } catch (const func::KernelFault& f) {
    m_hooks.fault(f.what());
    return false;
  }
  return true;
}

void MtCgrf::steer(uint32_t replica, uint32_t unit, uint32_t channel, Cycle at) {
  Channel& ch = m_channels[channel];
  ch.segment = static_cast<uint32_t>(ch.next);
  if (!run_segment(ch, at)) return;
  m_tokens.start(channel);  // every node of the block it left has fired: the entries are free again
  const uint32_t to = m_config->unit[m_config->index(replica, m_config->entry_of[ch.segment])];
  m_wheel[(at + m_fabric.hops(unit, to)) % m_wheel.size()].push_back({to, channel});
  ++m_tokens_in_wheel;
}

void MtCgrf::inject(Cycle now) {
  if (!m_streaming) return;
  for (uint32_t r = 0; r < m_initiators.size(); ++r) {
    Initiator& in = m_initiators[r];
    if (!in.held) continue;
    if (in.free_channels.empty()) continue;
    ThreadBatch& b = in.buffers[0];
    const uint32_t tid = b.base + static_cast<uint32_t>(__builtin_ctzll(b.bitmap));
    b.bitmap &= b.bitmap - 1;
    if (b.empty()) {  // the buffer is free: ask for the next batch at once
      in.buffers[0] = in.buffers[1];
      --in.held;
      if (!in.no_more) request(r);
    }
    const uint32_t channel = in.free_channels.back();
    in.free_channels.pop_back();
    m_injected_at = now;
    Channel& ch = m_channels[channel];
    ch.tid = tid;
    ch.segment = m_config->segment;
    if (!run_segment(ch, now)) return;
    if (m_hooks.counters->first_issue_ns == ~0ull)
      m_hooks.counters->first_issue_ns = sim_now().value() / 1000;
    m_tokens.start(channel);
    ++m_threads_in_flight;
    ++m_threads_started;
    ++m_hooks.counters->fabric.block_run_threads;
    m_max_in_flight = std::max<uint64_t>(m_max_in_flight, m_threads_in_flight);
    const uint32_t unit = m_config->unit[m_config->index(r, 0)];
    ++m_firings[static_cast<size_t>(UnitType::ControlVector)];
    if (m_tracing) m_wave_units[static_cast<int>(unit)] = 1;
    emit(unit, channel, now + m_spec.control_latency);
  }
}

void MtCgrf::check_drained() {
  if (!m_streaming || m_threads_in_flight) return;
  for (const Initiator& in : m_initiators)
    if (in.held || in.requested || !in.no_more) return;
  for (uint32_t r = 0; r < m_initiators.size(); ++r)
    for (uint32_t k = 0; k < 2; ++k)
      for (const ThreadBatch& b : m_initiators[r].collectors[k].flush())
        to_scheduler.send({BatchMessage::Kind::Returned, m_config->destinations[k], r, b});
  m_streaming = false;
  BatchMessage m;
  m.kind = BatchMessage::Kind::Drained;
  m.block = m_config->segment;
  to_scheduler.send(m);
}

std::string MtCgrf::dump() const {
  std::ostringstream os;
  os << (m_streaming ? "streaming segment " + std::to_string(m_wave_segment) : std::string("idle"))
     << ", " << m_threads_in_flight << " threads in flight, " << m_waiting.size()
     << " memory accesses out, " << m_tokens_in_wheel << " tokens travelling";
  uint32_t holding = 0, asking = 0, done = 0;
  for (const Initiator& i : m_initiators) {
    holding += i.held > 0;
    asking += i.requested > 0;
    done += i.no_more;
  }
  if (m_streaming)
    os << "; initiators: " << m_initiators.size() << ", " << holding << " holding batches, "
       << asking << " waiting for one, " << done << " told no more";
  return os.str();
}

void MtCgrf::prepare_waves() { m_tracing = true; }

void MtCgrf::declare_waves(WaveList& waves) const {
  const std::string n = name();
  // fired_<type>: firings this cycle; unit_fired: a bit per grid unit (row-major) that fired
  waves.group(n + ": segment, threads, firings");
  waves.add(m_wave_segment, n + ".segment", 16);
  waves.add(m_wave_in_flight, n + ".threads_in_flight", 16);
  for (size_t t = 0; t < kUnitTypes; ++t)
    waves.add(m_wave_fired[t], n + ".fired_" + unit_type_name(static_cast<UnitType>(t)), 8);
  waves.add(m_wave_units, n + ".unit_fired", m_fabric.units(), WaveSignal::Format::Bin);
}

}  // namespace gputlm::vgiw
