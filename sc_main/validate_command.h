// gputlm validate: simulated cycles beside measured ones, as Accel-Sim's correlation does. Each
// program of a manifest is built with nvcc (-cudart shared -arch=sm_75) and run under
// `gputlm cuda --stats`; its kernels' launches are averaged and matched by mangled name to the
// rows of a hardware CSV (AccelWattch's hw_perf.csv layout); validate.csv, validate.md and
// scatter.svg go to the output folder (docs/user-guide/validation.md). The comparison is app/'s
// (hw_counters, validate_manifest, validate_stats, validate_report, scatter_svg); this file builds
// and runs the programs.
#pragma once

#include <string>
#include <vector>

namespace gputlm {

// `args` are the command's arguments after "validate"; `argv0` is how gputlm was called and
// `commit` its git_version(), both for validate.md's header. Returns 0 when every program ran and
// every hardware row of theirs has a simulated kernel, 1 otherwise (2 for bad input: an
// InputError thrown).
int cmd_validate(const std::vector<std::string>& args, const char* argv0,
                 const std::string& commit);

}  // namespace gputlm
