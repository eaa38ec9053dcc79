#include "models/sm/stage.h"

namespace gputlm::sm {

Stage::Stage(sc_core::sc_module_name name, CoreContext& core, bool has_input, bool has_output,
             bool news_source)
    : sc_module(name), m_core(core), m_news_source(news_source) {
  if (has_input) in = make_input("in");
  if (has_output) out = make_output("out");
}

void Stage::prepare_waves() { m_core.traced = true; }

void Stage::declare_waves(WaveList& waves) const {
  // Collapsed at first: fetch and writeback (what enters and what retires) open beside the warps.
  declare_stage_waves(waves, "instructions held, oldest's warp and PC", false);
}

void Stage::declare_stage_waves(WaveList& waves, const std::string& what, bool open) const {
  using F = WaveSignal::Format;
  const std::string n = name();
  waves.group(n + ": " + what, open);
  waves.add(m_wave_occupancy, n + ".occupancy", 8);
  waves.add(m_wave_warp, n + ".warp", 16, F::Dec, stage_warp_names());
  waves.add(m_wave_pc, n + ".pc", 32, F::Hex);
}

Cycle DelayStage::cycle(Cycle now) {
  if (m_held && m_ready <= now && out->can_send()) {
    out->send(*m_held);
    m_held = nullptr;
  }
  bool refused = false;
  if (!m_held && in->peek()) {
    if (m_last_take != now && accept(*in->peek(), now)) {  // one instruction enters a cycle
      m_held = in->take();
      m_ready = now + delay(*m_held);
      m_last_take = now;
    } else {
      refused = true;
    }
  }
  show(m_held ? 1 : 0, m_held);
  if (m_held) return m_ready > now ? m_ready : kNever;  // ready: wait for the next stage's END_REQ
  return refused ? now + 1 : kNever;
}

}  // namespace gputlm::sm
