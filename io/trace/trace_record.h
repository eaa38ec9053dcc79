// `gputlm trace record`: runs a workload on the functional engine and writes every launch's
// dynamic trace (io/trace/trace_format.h, traces/FORMAT.md), CTA by CTA, each warp's
// instructions together. Warps of a CTA take turns as in the reference run; for kernels without
// data races between warps each warp's stream is the one a timing run executes.
#pragma once

#include <cstdint>
#include <functional>
#include <ostream>
#include <string>

#include "io/workload/workload.h"

namespace gputlm::trace {

struct RecordSummary {
  uint64_t launches = 0, warp_instructions = 0;
  workload::VerifyReport verify;
  bool stopped = false;  // `stop` ended the recording: the trace is incomplete, outputs not checked
};

// Throws func::KernelFault when the kernel faults and InputError on bad input.
// `ptx`: the text of the workload's kernel.ptx, carried in the trace. `stop` is asked before each
// CTA and every 4096 warp instructions: true ends the recording there.
RecordSummary record(workload::Workload& w, const std::string& ptx, std::ostream& out,
                     uint64_t max_warp_instructions, const std::function<bool()>& stop = {});

}  // namespace gputlm::trace
