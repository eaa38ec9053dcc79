// Replays a recorded trace (trace_format.h) on the timing model: each warp instruction's outcome
// comes from the trace instead of the functional engine (func::InstructionSource). The trace is
// read as the cores need it: a CTA's warps are loaded when the CTA first issues and dropped when
// its last warp has finished, so memory follows the CTAs in flight, not the file. The core must
// issue what the trace recorded (same PC and lanes, which static warps do); otherwise, or on a
// bad line, the run stops and error() says where.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "io/trace/replay_source.h"
#include "io/trace/trace_format.h"
#include "models/func/bound_kernel.h"
#include "models/func/launch.h"
#include "models/isa/kernel.h"

namespace gputlm::trace {

class TraceReplay : public ReplaySource {
 public:
  explicit TraceReplay(TraceReader& reader);

  // Moves to the next launch of the trace; false when there is none. Then launch() is that
  // launch as the timing model runs it (parameters zero: nothing reads them) and kernel() its
  // kernel, from the module the trace carries.
  bool next_launch();
  const func::Launch& launch() const { return m_launch; }
  const func::BoundKernel& kernel() const { return *m_bound.at(m_launch.kernel->name); }
  const LaunchHeader& header() const { return m_header; }

  void next(const func::CtaState& cta, uint32_t warp, uint32_t pc, uint32_t lanes,
            func::ExecResult& result) override;

 private:
  // One warp instruction, compact: the accessed lanes' addresses (or the taken lanes' targets, for
  // `addressed` = taken) live in the warp's pool.
  struct Step {
    uint32_t pc;
    LaneMask mask, active, taken, accessed, addressed;
    uint32_t barrier_id, barrier_count, access_bytes;
    isa::Space space;
    bool exit, barrier;
  };
  struct WarpSteps {
    std::vector<Step> steps;
    std::vector<uint64_t> addresses;
    size_t next = 0, next_address = 0;
    bool done() const { return next == steps.size(); }
  };
  void load_through(uint64_t cta);
  void fail(const std::string& message, func::ExecResult& result, uint32_t lanes);

  TraceReader& m_reader;
  std::unique_ptr<isa::Module> m_module;
  std::map<std::string, std::unique_ptr<func::BoundKernel>> m_bound;
  TraceReader::Kind m_pending = TraceReader::Kind::End;  // a record read ahead (Launch) or End
  bool m_started = false;
  LaunchHeader m_header;
  func::Launch m_launch;
  std::map<uint64_t, std::vector<WarpSteps>> m_ctas;  // loaded CTAs, per warp
  int64_t m_loaded = -1;                              // highest CTA loaded in this launch
};

}  // namespace gputlm::trace
