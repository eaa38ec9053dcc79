// Trace files on disk: plain text, or gzip-compressed (Boost.Iostreams). Reading detects gzip by
// its magic bytes, whatever the file is called; writing compresses when asked.
#pragma once

#include <istream>
#include <memory>
#include <ostream>
#include <string>

namespace gputlm::trace {

enum class Compression { None, Gzip };

// Throws InputError when the file cannot be opened.
std::unique_ptr<std::istream> open_trace(const std::string& path);
std::unique_ptr<std::ostream> create_trace(const std::string& path, Compression compression);
// Flushes and closes what create_trace returned (a gzip stream writes its trailer); throws
// InputError when the data did not reach the file.
void finish_trace(std::unique_ptr<std::ostream> out, const std::string& path);

}  // namespace gputlm::trace
