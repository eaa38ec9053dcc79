// Checks the command-line executables make before any work: options parsed with a suggestion for
// a misspelt flag, and output files that can be written (so a long run is not lost at its end).
#pragma once

#include <boost/program_options.hpp>
#include <string>
#include <vector>

namespace gputlm::app {

// Parses `args` against `opts`; an unknown flag is an InputError naming the nearest known one
// ("run: unknown option '--vdc' (did you mean '--vcd'?)"; no prefix when `command` is empty).
// Other parse errors stay po::error. `positional` names the options that arguments without a flag
// fill (none when null).
boost::program_options::variables_map parse_options(
    const std::vector<std::string>& args, const boost::program_options::options_description& opts,
    const std::string& command,
    const boost::program_options::positional_options_description* positional = nullptr);

// InputError "<path>: cannot write <what> (...)" unless `path` can be created or overwritten: not
// a directory, its directory exists (or, with `creates_directories`, can be made) and is writable.
void check_writable(const std::string& path, const std::string& what,
                    bool creates_directories = false);

// `text` broken at spaces into lines of at most `width` columns (a longer word stands alone),
// each starting with `indent` spaces and ending in a newline.
std::string wrap(const std::string& text, size_t width, size_t indent);
// The terminal width gputlm formats tables for: $COLUMNS when it is set and at least 60, else 100.
size_t terminal_width();

// `text` as "FROM:TO" (cycles, FROM <= TO): the --vcd-window of gputlm run and gputlm cuda.
// InputError starting with `what` otherwise.
void parse_vcd_window(const std::string& text, const std::string& what, uint64_t& from,
                      uint64_t& to);
// Nsight Compute's --cache-control value of gputlm cuda and gputlm validate: true for "all"
// (empty the caches before each timed launch), false for "none"; InputError starting with
// `what` otherwise.
bool cache_control_flushes(const std::string& value, const std::string& what);

}  // namespace gputlm::app
