// Fuzz target: the PTX front end as `gputlm run --functional` uses it before execution: parse
// (lexer, parser, kernel IR), the CFG with post-dominators and liveness (analysed while parsing),
// and binding every instruction to its semantic function (func::BoundKernel).
#include "fuzz/harness.h"
#include "models/func/bound_kernel.h"
#include "models/isa/ptx_parser.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return gputlm::fuzz::guarded(data, size, [](const std::string& text) {
    const auto module = gputlm::isa::parse_ptx(text, "fuzz.ptx");
    for (const auto& k : module->kernels) gputlm::func::BoundKernel bound(*k);
  });
}
