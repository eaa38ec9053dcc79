// PTX front end: text -> Module of Kernels with decoded instructions and analysed CFG.
// Accepts what `nvcc -ptx` (CUDA 13, sm_75+) emits for our workloads (docs/design/architecture.md):
// directives, .entry signatures, .reg/.shared/.local declarations, { } scopes with local registers,
// labels, guards, vector operands, [reg+imm] and [symbol+imm] addressing. Anything else is a
// SourceError naming file, line and the offending text; nothing is skipped silently.
#pragma once

#include <memory>
#include <string>

#include "models/isa/kernel.h"

namespace gputlm::isa {

std::unique_ptr<Module> parse_ptx(const std::string& text, const std::string& file);
// Reads and parses a file; a missing file is an InputError.
std::unique_ptr<Module> parse_ptx_file(const std::string& path);

}  // namespace gputlm::isa
