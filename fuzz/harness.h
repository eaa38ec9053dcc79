// What every fuzz target shares. A target hands one input to a reader through guarded(): the
// reader's InputError (bad input, one clear message) is the expected outcome and is swallowed;
// any other exception is a finding and aborts, so libFuzzer saves the input. Crashes, sanitizer
// reports, hangs (-timeout) and memory blow-ups (-rss_limit_mb) are findings by themselves.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

namespace gputlm::fuzz {

// Runs `read` on the input as text. Returns 0 (libFuzzer's "keep going").
int guarded(const uint8_t* data, size_t size, const std::function<void(const std::string&)>& read);

// A directory of this process under the system's temporary directory, made on first use and
// removed at exit; for readers that only take files (configs with "base", trace directories).
const std::string& scratch_dir();
// Writes `text` to `path` (whole file, replaced).
void write_file(const std::string& path, const std::string& text);

}  // namespace gputlm::fuzz
