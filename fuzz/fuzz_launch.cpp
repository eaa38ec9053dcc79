// Fuzz target: a workload's launch description (launch.json) read for the sizes "test" and
// "study": JSON, size variables, the integer expression evaluator (grid, block, counts, values),
// buffers and their generators' values, launches with parameters, repeats and swaps.
#include "fuzz/harness.h"
#include "io/workload/launch_spec.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return gputlm::fuzz::guarded(data, size, [](const std::string& text) {
    for (const char* s : {"test", "study"})
      gputlm::workload::parse_workload_spec(text, "launch.json", s, "fuzz/launch");
  });
}
