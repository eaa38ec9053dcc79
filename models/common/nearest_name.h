// "Did you mean ...?" for unknown names (config keys and values, registered policies, command-line
// flags, commands, workloads, presets): the known name nearest to a misspelt one by edit distance.
#pragma once

#include <string>
#include <vector>

namespace gputlm {

// Edits (insert, delete, substitute, swap two neighbours) from `a` to `b`, ignoring case.
size_t edit_distance(const std::string& a, const std::string& b);
// The known name nearest to `word` if it is near enough to be a likely typo (at most a third of
// its letters edited, at least one), else the first known name `word` is the start of (at least 3
// letters), else "". Ties go to the first in `known`.
std::string nearest_name(const std::string& word, const std::vector<std::string>& known);
// " (did you mean 'x'?)" for the nearest name, or "" when none is near.
std::string did_you_mean(const std::string& word, const std::vector<std::string>& known);
// For a file that does not exist: " (did you mean 'dir/x.json'?)" naming the nearest file of its
// directory with the same extension (a path without one: the nearest directory), or "".
std::string did_you_mean_file(const std::string& path);

}  // namespace gputlm
