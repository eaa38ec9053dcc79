// The commit gputlm was built from (`git describe --always --dirty` at build time, "unknown"
// outside git): gputlm --version prints it and each sweep run records it. The source is generated
// by cmake/git_version.cmake.
#pragma once

#include <cstddef>

namespace gputlm {

// The text sits in the executable after the marker "gputlm-git-version:" in a field of this many
// bytes; sweep::hash_executable() leaves the field out, so a commit that changes no code keeps
// the sweep results made before it.
constexpr size_t kGitVersionMarkerSize = 19;
constexpr size_t kGitVersionFieldSize = 64;

const char* git_version();

}  // namespace gputlm
