#include "models/mem/xbar/xbar.h"

#include <algorithm>

#include "models/mem/mem_extension.h"

namespace gputlm::mem {

Xbar::Xbar(sc_core::sc_module_name name, const XbarSpec& spec, uint32_t inputs, uint32_t outputs,
           double reference_mhz)
    : ClockedModule(name, spec.clock_mhz, reference_mhz),
      m_spec(spec),
      m_modulo(spec.slice_hash == "modulo"),
      m_to_slice(outputs),
      m_out_link_free(outputs, 0),
      m_round_robin(outputs, 0),
      m_waiting_responses(inputs),
      m_to_core(inputs),
      m_in_link_free(inputs, 0),
      m_head_slice(inputs, kNoSlice),
      m_head_payload(inputs, nullptr),
      m_asking(outputs),
      m_active_inputs(inputs),
      m_responding_outputs(outputs),
      m_queued_outputs(outputs),
      m_waiting_inputs(inputs),
      m_returning_inputs(inputs),
      m_per_slice(outputs, 0),
      m_per_core(inputs, 0) {
  if (inputs > (uint64_t{1} << MemExtension::kRouteBits))
    throw std::invalid_argument(std::string(this->name()) + ": " + std::to_string(inputs) +
                                " inputs; a crossbar has at most " +
                                std::to_string(uint64_t{1} << MemExtension::kRouteBits));
  for (uint32_t i = 0; i < inputs; ++i) {
    m_up.push_back(
        std::make_unique<TargetEnd>(("up_" + std::to_string(i)).c_str(), m_wake, m_clock));
    m_up.back()->report_arrivals_to(m_active_inputs, i);
  }
  for (uint32_t m = 0; m < outputs; ++m) {
    m_down.push_back(
        std::make_unique<InitiatorEnd>(("down_" + std::to_string(m)).c_str(), m_wake, m_clock));
    m_down.back()->owner_plans_sends();  // next_wake asks for the next send's edge
    m_down.back()->report_arrivals_to(m_responding_outputs, m);
  }
  m_stats.counter("requests", m_requests, "count", "requests carried to the slices");
  m_stats.counter("responses", m_responses, "count", "responses carried back to the cores");
  m_stats.counter("arbitration_conflicts", m_conflicts, "count",
                  "requests that lost arbitration for their output in a cycle");
  m_stats.counter("request_flits", m_request_flits, "count", "link cycles used by requests");
  m_stats.counter("response_flits", m_response_flits, "count", "link cycles used by responses");
  m_stats.histogram("requests_per_slice", m_per_slice, "count", "requests by destination slice");
  m_stats.histogram("responses_per_core", m_per_core, "count",
                    "responses by destination core port");
}

uint32_t Xbar::flits(const tlm::tlm_generic_payload& p, bool response) const {
  const bool carries_data =
      response != p.is_write();  // write requests and read responses carry data (mem_extension.h)
  const uint64_t bytes = m_spec.header_bytes + (carries_data ? p.get_data_length() : 0);
  return static_cast<uint32_t>(
      std::max<uint64_t>(1, (bytes + m_spec.flit_bytes - 1) / m_spec.flit_bytes));
}

Cycle Xbar::cycle(Cycle now) {
  collect_responses(now);
  arbitrate_requests(now);
  deliver(now);
  return next_wake(now);
}

// Each output grants the first input in round-robin order (from the one after its last grant)
// whose head request goes to it; the other inputs asking for it count as conflicts. An input's
// head is looked at once a cycle (m_head_slice); one granted shows the request behind it to the
// outputs arbitrated after this one, as a fresh look at the port would. The inputs asking for
// each output are kept in ascending order (m_asking), so an output looks only at those.
void Xbar::arbitrate_requests(Cycle now) {
  const uint32_t n = static_cast<uint32_t>(m_up.size());
  for (uint32_t m : m_asked) m_asking[m].clear();
  m_asked.clear();
  m_active_inputs.for_each([&](uint32_t i) {
    look_at_head(i, 0);  // an empty input's head is none
    if (m_up[i]->empty()) m_active_inputs.erase(i);
  });
  for (uint32_t m = 0; m < m_down.size(); ++m) {
    std::vector<uint32_t>& asking = m_asking[m];
    if (asking.empty() || m_out_link_free[m] > now || m_to_slice[m].size() >= m_spec.queue_depth)
      continue;
    const auto from = std::lower_bound(asking.begin(), asking.end(), m_round_robin[m]);
    const uint32_t i = from == asking.end() ? asking.front() : *from;
    m_conflicts += asking.size() - 1;
    tlm::tlm_generic_payload* p = m_up[i]->take();
    m_head_payload[i] = nullptr;  // taken: that payload may come back with another address
    look_at_head(i, m + 1);
    const uint32_t f = flits(*p, false);
    m_out_link_free[m] = now + f;
    m_to_slice[m].push_back({now + m_spec.latency + f - 1, p});
    m_queued_outputs.insert(m);
    if (!MemExtension::of(*p).push_route(i))
      throw std::logic_error(std::string(name()) + ": a request crosses more than " +
                             std::to_string(MemExtension::kMaxRouteDepth) + " crossbars at once");
    ++m_in_flight;
    m_round_robin[m] = i + 1 == n ? 0 : i + 1;
    m_request_flits += f;
    ++m_requests;
    ++m_per_slice[m];
  }
}

// Sets m_head_slice[i] (the slice of a payload already seen at the head is remembered) and, if it
// is `from` or later, counts input i among those asking for it.
void Xbar::look_at_head(uint32_t i, uint32_t from) {
  const tlm::tlm_generic_payload* p = m_up[i]->peek();
  if (!p) {
    m_head_slice[i] = kNoSlice;
    return;
  }
  if (p != m_head_payload[i]) {
    m_head_payload[i] = p;
    m_head_slice[i] = slice_of(p->get_address());
  }
  const uint32_t m = m_head_slice[i];
  if (m < from) return;
  std::vector<uint32_t>& asking = m_asking[m];
  if (asking.empty()) m_asked.push_back(m);
  asking.insert(std::upper_bound(asking.begin(), asking.end(), i), i);
}

void Xbar::collect_responses(Cycle now) {
  m_responding_outputs.for_each([&](uint32_t m) {
    while (m_down[m]->has_response()) {
      tlm::tlm_generic_payload& p = m_down[m]->front_response();
      m_down[m]->pop_response();
      const uint32_t i = MemExtension::of(p).pop_route();
      m_waiting_responses[i].push_back(&p);
      m_waiting_inputs.insert(i);
      --m_in_flight;
    }
    if (!m_down[m]->responses_pending()) m_responding_outputs.erase(m);
  });
  m_waiting_inputs.for_each([&](uint32_t i) {
    while (!m_waiting_responses[i].empty() && m_in_link_free[i] <= now) {
      tlm::tlm_generic_payload* p = m_waiting_responses[i].front();
      m_waiting_responses[i].pop_front();
      const uint32_t f = flits(*p, true);
      m_in_link_free[i] = now + f;
      m_to_core[i].push_back({now + m_spec.latency + f - 1, p});
      m_returning_inputs.insert(i);
      m_response_flits += f;
    }
    if (m_waiting_responses[i].empty()) m_waiting_inputs.erase(i);
  });
}

void Xbar::deliver(Cycle now) {
  m_queued_outputs.for_each([&](uint32_t m) {
    while (!m_to_slice[m].empty() && m_to_slice[m].front().at <= now && m_down[m]->can_send()) {
      tlm::tlm_generic_payload* p = m_to_slice[m].front().payload;
      m_to_slice[m].pop_front();
      m_down[m]->send(*p);
    }
    if (m_to_slice[m].empty()) m_queued_outputs.erase(m);
  });
  m_returning_inputs.for_each([&](uint32_t i) {
    while (!m_to_core[i].empty() && m_to_core[i].front().at <= now && m_up[i]->can_respond()) {
      tlm::tlm_generic_payload* p = m_to_core[i].front().payload;
      m_to_core[i].pop_front();
      ++m_responses;
      ++m_per_core[i];
      m_up[i]->respond(*p);
    }
    if (m_to_core[i].empty()) m_returning_inputs.erase(i);
  });
}

Cycle Xbar::next_wake(Cycle now) const {
  Cycle next = kNever;
  auto consider = [&](Cycle c) { next = std::min(next, std::max(now + 1, c)); };
  // A link that has not yet answered END_REQ (its queue is full) or BEGIN_RESP wakes the crossbar
  // when it does: no need to poll it.
  m_queued_outputs.for_each([&](uint32_t m) {
    consider(std::max(m_to_slice[m].front().at, m_down[m]->next_send_cycle()));
  });
  m_returning_inputs.for_each([&](uint32_t i) {
    if (m_up[i]->can_respond()) consider(m_to_core[i].front().at);
  });
  m_waiting_inputs.for_each([&](uint32_t i) { consider(m_in_link_free[i]); });
  m_active_inputs.for_each([&](uint32_t i) {
    if (const uint32_t m = m_head_slice[i];
        m != kNoSlice && m_to_slice[m].size() < m_spec.queue_depth)
      consider(m_out_link_free[m]);
  });
  return next;
}

void Xbar::prepare_waves() {
  m_wake.keep_in_step();  // waves sample at the kernel's time
}

void Xbar::declare_waves(WaveList& waves) const {
  const std::string n = name();
  waves.group(n + ": requests between the cores and the slices", false);
  waves.add(m_in_flight, n + ".requests_in_flight", 16);
}

}  // namespace gputlm::mem
