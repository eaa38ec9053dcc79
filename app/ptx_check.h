// `gputlm ptx check FILE...`: what the front end and the functional engine take of PTX files.
// Every kernel of each file is parsed (with the device functions it calls) and bound; the report
// says per kernel ok or the first error (file, line, text), and counts kernels found (.entry
// directives in the text), parsed and bound.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace gputlm::app {

struct PtxCheckCounts {
  size_t found = 0, parsed = 0, bound = 0;
};

// Checks `files`, writing one line per kernel to `out`; a file that cannot be read or whose
// module-level syntax fails counts its kernels as found only.
PtxCheckCounts check_ptx_files(const std::vector<std::string>& files, std::ostream& out);

}  // namespace gputlm::app
