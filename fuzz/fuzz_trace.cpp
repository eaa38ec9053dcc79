// Fuzz target: gputlm's own trace (traces/FORMAT.md) as a replay reads it: the header, the PTX
// module it carries (parsed and bound), then every launch (kernel, shape, shared memory) and
// every warp and instruction record.
#include <sstream>

#include "fuzz/harness.h"
#include "io/trace/trace_replay.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return gputlm::fuzz::guarded(data, size, [](const std::string& text) {
    std::istringstream in(text);
    gputlm::trace::TraceReader reader(in, "fuzz.trace");
    gputlm::trace::TraceReplay replay(reader);
    while (replay.next_launch()) {}
  });
}
