// Formatting of device printf (CUDA programming guide, "Formatted Output"): nvcc lowers
// printf(format, ...) to vprintf(format, args), args pointing at a buffer that holds the
// arguments in order, each at the next multiple of its own size, after C's default argument
// promotions (char and short as 4-byte int, float as 8-byte double; pointers 8 bytes). The
// conversions are C's (C11 7.21.6.1): %[flags][width][.precision][length]conversion with flags
// "-+ #0", width and precision digits or '*' (taken from a 4-byte int argument), length hh h l ll
// j z t L, conversions d i u o x X c s p f F e E g G a A and %%. CUDA formats on the host with the
// host's C library, so each conversion is formatted by the host's snprintf; what reading the
// arguments needs (their size, the device string of %s) is decided here.
//
// CUDA's rules beside C's: printf takes at most 32 arguments after the format, and a conversion
// beyond them is written out as it stands; the return value is the number of arguments parsed
// (0 without arguments, -1 for a null format; "Formatted Output", "Limitations"). A conversion
// CUDA does not list (%n, an unknown letter) is written out as it stands and takes no argument.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace gputlm::func {

// Where a printf's conversions take their values from.
class PrintfArguments {
 public:
  virtual ~PrintfArguments() = default;
  // The next argument of `bytes` bytes (4 or 8), at the next multiple of its size in the buffer.
  virtual uint64_t next(unsigned bytes) = 0;
  // The NUL-terminated device string at `address`, at most `max` bytes of it (%s; a precision
  // bounds what is read, and the string need not end within it then).
  virtual std::string string_at(uint64_t address, size_t max) = 0;
};

struct PrintfOutput {
  std::string text;
  int arguments = 0;  // arguments parsed (vprintf's return value)
  // Bytes the record takes in the printf FIFO: a 16-byte header, each argument in an 8-byte slot
  // and each %s string copied with its NUL, rounded up to 8 bytes (the guide says only that the
  // FIFO carries the arguments and internal metadata; this layout is ours).
  uint64_t record_bytes = 16;
};

// Formats `format` with the arguments `args` gives, as CUDA's printf does.
PrintfOutput format_printf(std::string_view format, PrintfArguments& args);

// The most arguments one printf takes ("Formatted Output", "Limitations").
constexpr int kMaxPrintfArguments = 32;

}  // namespace gputlm::func
