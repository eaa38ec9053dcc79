// Waves of a module: the groups of traced signals a GTKWave save file shows, and a timeline that
// applies traced-value changes at the simulation time they happen (a value changed by a process
// running at another time would be sampled at the wrong time). Both cost nothing when no VCD is
// being written: modules only schedule changes once start_waves() was called on them.
#pragma once

#include <cstdint>
#include <functional>
#include <queue>
#include <stdexcept>
#include <string>
#include <systemc>
#include <type_traits>
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

// A module's traced signals, each declared once (WaveProvider::declare_waves): the same list is
// traced into the VCD and shown as GTKWave groups, in declaration order.
class WaveList {
 public:
  // Starts a group (GTKWave's title; open: expanded when GTKWave opens the save file); the signals
  // added next belong to it. A group not `shown` is traced but left out of the save file.
  void group(std::string title, bool open = true, bool shown = true) {
    m_groups.push_back({{std::move(title), {}, open}, shown, {}});
  }
  // Adds `value`, traced as `name` (the full name) with `bits` bits (integers; a bit vector
  // traces its own width) and shown in `format` (with `names` for its values, if any), in the
  // group started last: a signal before the first group is a logic_error.
  template <class T>
  void add(const T& value, std::string name, unsigned bits,
           WaveSignal::Format format = WaveSignal::Format::Dec, WaveNames names = {}) {
    if (m_groups.empty())
      throw std::logic_error("wave signal " + name + " added before any group (WaveList::group)");
    Group& g = m_groups.back();
    g.traces.push_back([&value, bits](sc_core::sc_trace_file* tf, const std::string& n) {
      if constexpr (std::is_integral_v<T>)
        sc_core::sc_trace(tf, value, n, static_cast<int>(bits));
      else
        sc_core::sc_trace(tf, value, n);
    });
    g.group.signals.push_back({std::move(name), bits, format, std::move(names)});
  }
  void trace(sc_core::sc_trace_file* tf) const {
    for (const Group& g : m_groups)
      for (size_t i = 0; i < g.traces.size(); ++i) g.traces[i](tf, g.group.signals[i].name);
  }
  std::vector<WaveGroup> groups() const {
    std::vector<WaveGroup> out;
    for (const Group& g : m_groups)
      if (g.shown) out.push_back(g.group);
    return out;
  }

 private:
  struct Group {
    WaveGroup group;
    bool shown;
    std::vector<std::function<void(sc_core::sc_trace_file*, const std::string&)>> traces;
  };
  std::vector<Group> m_groups;
};

// Implemented by modules that trace themselves: each declares its signals once (declare_waves),
// which both switches them on and describes them.
class WaveProvider {
 public:
  virtual ~WaveProvider() = default;
  // Switches the module's waves on, once, before the simulation runs: prepare_waves (from then on
  // the module keeps its signals current and, where it could run ahead of the kernel, keeps it in
  // step so that waves are sampled at the kernel's time: time-model.md), then traces every signal
  // it declares. The one way waves start; SystemC's const sc_object::trace is not used.
  void start_waves(sc_core::sc_trace_file* tf) {
    prepare_waves();
    WaveList waves;
    declare_waves(waves);
    waves.trace(tf);
  }
  // The groups of the module's waves a GTKWave save file shows.
  std::vector<WaveGroup> wave_groups() const {
    WaveList waves;
    declare_waves(waves);
    return waves.groups();
  }

 protected:
  virtual void prepare_waves() {}
  virtual void declare_waves(WaveList& waves) const = 0;
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
