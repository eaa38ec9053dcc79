// Waves of a module: the groups of traced signals a GTKWave save file shows, and a timeline that
// applies traced-value changes at the simulation time they happen (a value changed by a process
// running at another time would be sampled at the wrong time). Both cost nothing when no VCD is
// being written: modules only schedule changes once start_waves() was called on them.
#pragma once

#include <cstdint>
#include <queue>
#include <string>
#include <systemc>
#include <utility>
#include <vector>

#include "models/common/sim_time.h"

namespace gputlm {

// Names GTKWave shows in place of a signal's values (a translate filter file beside the save
// file, `<save file stem>.<id>.txt`); values without a name are shown as decimal numbers.
struct WaveNames {
  std::string id;  // the filter's name, e.g. "warp_state"; empty: numbers
  std::vector<std::pair<uint64_t, std::string>> names;  // value, name
};

// A warp's state in every VCD (the SIMT core's warp slots, the functional stepper's warps).
enum class WaveWarpState : uint8_t { Free = 0, Ready = 1, Barrier = 2, Done = 3 };
inline WaveNames warp_state_names() {
  return {"warp_state", {{0, "free"}, {1, "ready"}, {2, "barrier"}, {3, "done"}}};
}
// A pipeline stage's oldest warp: its number, or "-" when the stage is empty (0xFFFF).
inline WaveNames stage_warp_names() { return {"stage_warp", {{0xFFFF, "-"}}}; }

struct WaveSignal {
  enum class Format { Hex, Dec, Bin };
  std::string name;  // full name as passed to sc_trace
  unsigned bits = 32;
  Format format = Format::Dec;
  WaveNames names = {};  // shown as names (decimal values translated) when names.id is set
};

struct WaveGroup {
  std::string name;  // group title in GTKWave
  std::vector<WaveSignal> signals;
  bool open = true;  // expanded when GTKWave opens the save file (false: collapsed to its title)
};

// Implemented by modules that trace themselves and can describe their waves.
class WaveProvider {
 public:
  virtual ~WaveProvider() = default;
  // Switches the module's waves on, once, before the simulation runs: registers its signals with
  // `tf` and from then on keeps them current (and, where the module could run ahead of the
  // kernel, keeps it in step so that waves are sampled at the kernel's time: time-model.md).
  // The one way waves start; SystemC's const sc_object::trace is not used.
  virtual void start_waves(sc_core::sc_trace_file* tf) = 0;
  virtual std::vector<WaveGroup> wave_groups() const = 0;
};

// A child module that sets traced variables at scheduled times.
class WaveTimeline : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(WaveTimeline);
  explicit WaveTimeline(sc_core::sc_module_name name) : sc_module(name) {
    SC_METHOD(apply);
    sensitive << m_event;
    dont_initialize();
  }
  // Sets *var = value at time `at` (now or later); with a guard, only if *guard == expect then
  // (so a later access can cancel an earlier access's "back to idle").
  void set(const sc_core::sc_time& at, uint64_t* var, uint64_t value,
           const uint64_t* guard = nullptr, uint64_t expect = 0) {
    m_queue.push({at, m_seq++, var, value, guard, expect});
    const sc_core::sc_time now = sim_now();
    m_event.notify(at > now ? at - now : sc_core::SC_ZERO_TIME);
  }

 private:
  struct Change {
    sc_core::sc_time at;
    uint64_t seq;
    uint64_t* var;
    uint64_t value;
    const uint64_t* guard;
    uint64_t expect;
    bool operator>(const Change& o) const { return at != o.at ? at > o.at : seq > o.seq; }
  };
  void apply() {
    const sc_core::sc_time now = sim_now();
    while (!m_queue.empty() && m_queue.top().at <= now) {
      const Change& c = m_queue.top();
      if (!c.guard || *c.guard == c.expect) *c.var = c.value;
      m_queue.pop();
    }
    if (!m_queue.empty()) m_event.notify(m_queue.top().at - now);
  }
  std::priority_queue<Change, std::vector<Change>, std::greater<Change>> m_queue;
  uint64_t m_seq = 0;
  sc_core::sc_event m_event;
};

}  // namespace gputlm
