// A DRAM controller's timing model: when the requests of its queue take their steps. The module
// shell (dram_controller.h) owns the TLM socket, the queue, the scheduling policy, the clock,
// the statistics and the waves; each cycle it has work it asks its timing model to take a step,
// and the model says which request's data transfer it scheduled. Chosen by name from a registry
// (the config's "timing_model"):
//   latency  the papers' abstraction (latency_model.h): one queue of queue_depth entries; the
//            policy starts at most one whole access a cycle among banks that can take one.
//   command  JEDEC command timing (command_model.h): a read queue of queue_depth and a write queue
//            of write_queue_depth, drained by watermark; each cycle the policy picks one command
//            (ACT, PRE, RD, WR) among the requests whose next command is ready, so later requests
//            fill the slots behind earlier ones; all-bank refresh every tREFI.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "models/common/clock.h"
#include "models/mem/dram/dram_counters.h"
#include "models/mem/dram/dram_queue.h"
#include "models/mem/dram/dram_scheduler.h"
#include "models/mem/dram/dram_spec.h"
#include "models/mem/dram/dram_waves.h"

namespace gputlm::mem {

// What a timing model works on: the controller's, which outlive it.
struct DramTimingContext {
  const DramSpec& spec;
  const ClockDomain& clock;
  DramQueue& queue;
  IDramScheduler& scheduler;
  DramCounters& counters;
  DramWaves& waves;
  std::string owner;  // the controller's name, for errors
};

// A queued request whose data transfer a step scheduled: it leaves the queue, and its response
// goes when the transfer ends.
struct DramStart {
  size_t index = 0;  // its place in the queue
  Cycle done = 0;    // the last cycle of its data transfer
};

class IDramTiming {
 public:
  virtual ~IDramTiming() = default;
  // Whether the queue can take a request (a write if `write`).
  virtual bool has_room(bool write) const = 0;
  // Request i, the newest, was queued.
  virtual void queued(size_t i) = 0;
  // Takes the step of this controller cycle, if one may go: at most one access (or command) of a
  // queued request, or a refresh. The request whose data transfer it scheduled, if any, which the
  // controller then takes out of the queue (and calls started). Not called while the controller
  // is idle (nothing queued, nothing in the banks).
  virtual std::optional<DramStart> step(Cycle now) = 0;
  // Request `e` (with `r`) left the queue.
  virtual void started(const DramQueueEntry& e, const DramRequest& r) = 0;
  // The controller is idle at `now`.
  virtual void idle(Cycle /*now*/) {}
  // The first cycle after `now` at which a step may go (kNever: not before a request comes). Not
  // called while the controller is idle.
  virtual Cycle next_wake(Cycle now) const = 0;
};

// What both timing models hold: the controller's parts from the context (references, which the
// controller outlives) and the page policy, decided once.
class DramTimingModel : public IDramTiming {
 protected:
  explicit DramTimingModel(const DramTimingContext& c)
      : m_spec(c.spec),
        m_clock(c.clock),
        m_queue(c.queue),
        m_scheduler(c.scheduler),
        m_counters(c.counters),
        m_waves(c.waves),
        m_owner(c.owner),
        m_open_page(c.spec.page_policy == DramSpec::PagePolicy::Open) {}

  const DramSpec& m_spec;
  const ClockDomain& m_clock;
  DramQueue& m_queue;
  IDramScheduler& m_scheduler;
  DramCounters& m_counters;
  DramWaves& m_waves;
  const std::string m_owner;  // the controller's name, for errors
  const bool m_open_page;     // page_policy is open
};

using DramTimingFactory = std::function<std::unique_ptr<IDramTiming>(const DramTimingContext&)>;

// Registers a timing model under `name` (the config value).
struct DramTimingRegistration {
  DramTimingRegistration(const char* name, DramTimingFactory f);
};
std::unique_ptr<IDramTiming> make_dram_timing(const std::string& name,
                                              const DramTimingContext& context);

}  // namespace gputlm::mem
