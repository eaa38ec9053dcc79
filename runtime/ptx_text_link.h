// Device linking of PTX, as nvlink does it for machine code: a program built with -rdc=true
// (separate compilation, needed by CUDA dynamic parallelism) registers one device-linked fat
// binary that holds machine code only; the PTX of each of its objects is in that object's own
// fat binary, which the registration passes along (fat_binary.h, prelinked_ptx). gputlm links
// those PTX modules into one, which the front end then reads as a single module:
//   - the first module's .version, .target and .address_size head the result, the others' are
//     dropped (nvcc writes the same ones for every object of one build);
//   - `.extern` declarations stay (the front end matches them with the definitions: kernels and
//     functions of other objects, device services);
//   - a name of internal linkage (a .global/.const variable or .func without .visible, .extern or
//     .weak) that an earlier module also declares is renamed in the later one, NAME -> NAME$lnkN
//     (N the module's index), as each object's static symbols are its own.
#pragma once

#include <string>
#include <vector>

namespace gputlm::runtime {

std::string link_ptx_modules(const std::vector<std::string>& modules);

}  // namespace gputlm::runtime
