// Common frame of a pipeline stage: an SC_MODULE in the core's clock domain with an input link
// from the stage before and an output link to the stage after (fetch has no input, writeback no
// output), and its occupancy traced for the waves. The stages have no process of their own: the
// core's one SC_METHOD runs every stage's cycle, last stage first, then again each stage a link
// poked in that cycle, until the links settle (see Core::cycle). DelayStage is a stage that holds
// one instruction for some cycles.
#pragma once

#include <memory>
#include <systemc>

#include "models/common/waves.h"
#include "models/sm/core_context.h"
#include "models/sm/stage_link.h"

namespace gputlm::sm {

class Stage : public sc_core::sc_module, public WaveProvider {
 public:
  // `news_source`: news() may say yes (the stage overrides it).
  Stage(sc_core::sc_module_name name, CoreContext& core, bool has_input, bool has_output,
        bool news_source = false);

  std::unique_ptr<StageIn> in;
  std::unique_ptr<StageOut> out;

  // Runs this cycle's work (again, if the stage was poked); returns the next cycle the stage
  // must run (kNever: only when a link, a memory response or a new warp wakes the core). The
  // core keeps what it returned (Core::cycle) and runs the stage when that cycle has come, when
  // it was poked, or when news came by another way than its links (news()): a stage with nothing
  // to do is not run (its run would change nothing, as when the whole core sleeps).
  Cycle run(Cycle now) {
    m_poked.lower();
    return cycle(now);
  }
  // Whether something the stage has not acted on came other than through its links: its cache
  // answered, or let it send (END_REQ, which wakes the core, not the stage). Only a news source's
  // may say yes.
  virtual bool news() const { return false; }
  bool news_source() const { return m_news_source; }

  // A link end moved an instruction (BEGIN_REQ in, END_REQ out), a memory port answered, or the
  // core started a CTA since the stage last ran.
  bool poked() const { return m_poked.raised(); }
  void poke() { m_poked.raise(); }
  // Its poked flag's bit in CoreContext::poked_stages, chosen by the core (PokeFlag::move_to).
  void move_poke_bit(uint64_t bit) { m_poked.move_to(bit); }

  void prepare_waves() override;
  void declare_waves(WaveList& waves) const override;

 protected:
  // The stage's waves in a group titled `<stage>: <what>`, expanded at first if `open`.
  void declare_stage_waves(WaveList& waves, const std::string& what, bool open) const;
  // This cycle's work; returns the next cycle the stage must run (kNever: when woken).
  virtual Cycle cycle(Cycle now) = 0;  // may run several times in one cycle
  // A further link end poking this stage (a stage with a link per processing block), named `name`.
  std::unique_ptr<StageIn> make_input(const char* name) {
    return std::make_unique<StageIn>(name, m_poked);
  }
  std::unique_ptr<StageOut> make_output(const char* name) {
    return std::make_unique<StageOut>(name, m_poked);
  }
  // Called by a stage whenever its contents change, for the waves.
  void show(uint64_t occupancy, const WarpInstr* head) {
    m_wave_occupancy = occupancy;
    m_wave_warp = head ? head->slot : 0xFFFF;
    m_wave_pc = head ? head->pc : 0;
  }

  CoreContext& m_core;

 private:
  PokeFlag m_poked{m_core.poked_stages, m_core.new_poke_bit()};
  bool m_news_source;
  uint64_t m_wave_occupancy = 0, m_wave_warp = 0xFFFF, m_wave_pc = 0;
};

// A stage that holds one instruction for delay(instr) cycles and may refuse to take one (hold it
// at its input) while accept() says no.
class DelayStage : public Stage {
 public:
  DelayStage(sc_core::sc_module_name name, CoreContext& core) : Stage(name, core, true, true) {}

 protected:
  virtual uint32_t delay(const WarpInstr& w) = 0;
  virtual bool accept(const WarpInstr&, Cycle) { return true; }
  Cycle cycle(Cycle now) override;

 private:
  WarpInstr* m_held = nullptr;
  Cycle m_ready = 0;
  Cycle m_last_take = kNever;
};

}  // namespace gputlm::sm
