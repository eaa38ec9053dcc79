// A kernel's name as a person reads it. The kernels of CUDA programs have mangled PTX entry names
// (_Z6vecaddPKfS0_Pfi); summaries and the statistics show them demangled as Nsight Compute does
// (vecadd(float const*, float const*, float*, int), the C++ runtime's spelling). The statistics
// keep the PTX name as `kernel`: what workloads, traces and studies match launches by.
#pragma once

#include <string>

namespace gputlm::app {

// `ptx_name` demangled (abi::__cxa_demangle); a name that is not a mangled C++ name (extern "C"
// kernels, the workloads' kernels, one the demangler refuses) as it is.
std::string demangled_kernel_name(const std::string& ptx_name);

}  // namespace gputlm::app
