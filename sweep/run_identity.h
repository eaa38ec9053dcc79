// What a sweep run's result depends on, as one 128-bit identity (its directory name under runs/):
// the resolved config (canonical JSON: content, not formatting or file times), the workload's
// files or the trace's (relative path and content, sorted), the size, the run options (gputlm
// predict, a DRAM trace, --sample) and the simulator itself (the running gputlm executable's
// bytes), so a rebuild with changed code makes new runs.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "sweep/hash128.h"

namespace gputlm::sweep {

// Every regular file under `path` (or `path` itself if it is a file): relative path, size and
// content, in sorted path order. InputError if it cannot be read.
Hash128 hash_tree(const std::string& path);
// The running executable (/proc/self/exe) as executable_image() leaves it.
Hash128 hash_executable();
// An executable's bytes without what a commit changes when no code changes: the version field
// after each "gputlm-git-version:" marker (sc_main/git_version.h) zeroed, and of an ELF file only
// the sections loaded into memory (not the notes, whose build id hashes the whole file, nor the
// debug information, which a comment changes).
std::string executable_image(std::string bytes);

// The run's identity: 32 hex digits. `kind` is "workload" or "trace"; `size` is empty for a trace;
// `options` are the run options that differ from the default (RunOptions::non_default(); with none,
// the identity is what it was before run options existed).
std::string run_id(const nlohmann::json& resolved_config, const std::string& kind,
                   const Hash128& inputs, const std::string& size, const Hash128& simulator,
                   const nlohmann::json& options = nlohmann::json::object());

}  // namespace gputlm::sweep
