#include "models/func/printf_format.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

namespace gputlm::func {
namespace {

// Widths and precisions above this are taken as this (a bound on the text one conversion makes).
constexpr int kMaxField = 1000000;

uint64_t align8(uint64_t v) { return (v + 7) / 8 * 8; }

// One conversion specification, as written from '%' to its conversion letter.
struct Spec {
  std::string flags;
  bool width_star = false, precision_star = false, has_precision = false;
  int width = -1, precision = -1;
  std::string length;  // "", hh, h, l, ll, j, z, t, L
  char conversion = 0;
  size_t end = 0;  // one past the conversion letter
};

int digits(std::string_view f, size_t& i) {
  int v = 0;
  while (i < f.size() && f[i] >= '0' && f[i] <= '9')
    v = std::min(kMaxField, v * 10 + (f[i++] - '0'));
  return v;
}

// Parses the specification that starts after the '%' at `i`; false when the format ends first.
bool parse_spec(std::string_view f, size_t i, Spec& s) {
  while (i < f.size() && f[i] && std::strchr("-+ #0", f[i])) s.flags += f[i++];
  if (i < f.size() && f[i] == '*')
    s.width_star = true, ++i;
  else if (i < f.size() && f[i] >= '0' && f[i] <= '9')
    s.width = digits(f, i);
  if (i < f.size() && f[i] == '.') {
    s.has_precision = true;
    ++i;
    if (i < f.size() && f[i] == '*')
      s.precision_star = true, ++i;
    else
      s.precision = digits(f, i);
  }
  for (const char* l : {"hh", "h", "ll", "l", "j", "z", "t", "L"}) {
    if (f.substr(i, std::strlen(l)) == l) {
      s.length = l;
      i += s.length.size();
      break;
    }
  }
  if (i >= f.size()) return false;
  s.conversion = f[i];
  s.end = i + 1;
  return true;
}

// The arguments a conversion takes: its '*' fields and, but for %%, its value.
int arguments_of(const Spec& s) { return int{s.width_star} + int{s.precision_star} + 1; }

template <class T>
void append(std::string& out, const std::string& spec, T value) {
  const int n = std::snprintf(nullptr, 0, spec.c_str(), value);
  if (n <= 0) return;
  const size_t at = out.size();
  out.resize(at + static_cast<size_t>(n) + 1);
  std::snprintf(&out[at], static_cast<size_t>(n) + 1, spec.c_str(), value);
  out.resize(at + static_cast<size_t>(n));
}

// The value of an integer conversion, read at its promoted size and converted as its length says
// (C11 7.21.6.1p7: hh and h convert the promoted int back to char or short).
long long signed_value(const Spec& s, PrintfArguments& args, PrintfOutput& out) {
  const bool wide = !s.length.empty() && s.length != "h" && s.length != "hh";
  const uint64_t raw = args.next(wide ? 8 : 4);
  out.record_bytes += 8;
  if (wide) return static_cast<long long>(raw);
  const auto v = static_cast<int32_t>(raw);
  if (s.length == "hh") return static_cast<signed char>(v);
  if (s.length == "h") return static_cast<short>(v);
  return v;
}
unsigned long long unsigned_value(const Spec& s, PrintfArguments& args, PrintfOutput& out) {
  const bool wide = !s.length.empty() && s.length != "h" && s.length != "hh";
  const uint64_t raw = args.next(wide ? 8 : 4);
  out.record_bytes += 8;
  if (wide) return raw;
  const auto v = static_cast<uint32_t>(raw);
  if (s.length == "hh") return static_cast<unsigned char>(v);
  if (s.length == "h") return static_cast<unsigned short>(v);
  return v;
}

// Formats one conversion that takes arguments; returns how many it took.
int convert(Spec s, PrintfArguments& args, PrintfOutput& out) {
  int taken = 0;
  if (s.width_star) {  // C11 7.21.6.1p5: a negative width is the '-' flag and its magnitude
    const auto w = static_cast<int32_t>(args.next(4));
    out.record_bytes += 8;
    ++taken;
    if (w < 0) s.flags += '-';
    s.width = static_cast<int>(std::min<int64_t>(kMaxField, w < 0 ? -int64_t{w} : w));
  }
  if (s.precision_star) {  // a negative precision is taken as if it were omitted
    const auto p = static_cast<int32_t>(args.next(4));
    out.record_bytes += 8;
    ++taken;
    s.has_precision = p >= 0;
    s.precision = std::min(kMaxField, p);
  }
  std::string spec = "%" + s.flags;
  if (s.width >= 0) spec += std::to_string(s.width);
  if (s.has_precision) spec += "." + std::to_string(s.precision);
  const char c = s.conversion;
  ++taken;
  switch (c) {
    case 'd':
    case 'i':
      append(out.text, spec + "ll" + c, signed_value(s, args, out));
      break;
    case 'u':
    case 'o':
    case 'x':
    case 'X':
      append(out.text, spec + "ll" + c, unsigned_value(s, args, out));
      break;
    case 'c':
      append(out.text, spec + c, static_cast<int>(static_cast<unsigned char>(args.next(4))));
      out.record_bytes += 8;
      break;
    case 'p':
      append(out.text, spec + c, reinterpret_cast<void*>(static_cast<uintptr_t>(args.next(8))));
      out.record_bytes += 8;
      break;
    case 's': {
      const uint64_t address = args.next(8);
      const size_t max = s.has_precision ? static_cast<size_t>(s.precision) : std::string::npos;
      // A null pointer prints as glibc's printf prints one: "(null)", or nothing when the
      // precision cannot hold it.
      const std::string str = address ? args.string_at(address, max) : (max >= 6 ? "(null)" : "");
      out.record_bytes += 8 + align8(str.size() + 1);
      append(out.text, spec + c, str.c_str());
      break;
    }
    default: {  // f F e E g G a A: a double (a float argument was promoted)
      const uint64_t bits = args.next(8);
      double d;
      std::memcpy(&d, &bits, 8);
      out.record_bytes += 8;
      append(out.text, spec + c, d);
    }
  }
  return taken;
}

}  // namespace

PrintfOutput format_printf(std::string_view f, PrintfArguments& args) {
  PrintfOutput out;
  size_t i = 0;
  while (i < f.size()) {
    const size_t pct = f.find('%', i);
    out.text.append(f.substr(i, pct == std::string_view::npos ? std::string_view::npos : pct - i));
    if (pct == std::string_view::npos) break;
    if (pct + 1 < f.size() && f[pct + 1] == '%') {
      out.text += '%';
      i = pct + 2;
      continue;
    }
    Spec s;
    if (!parse_spec(f, pct + 1,
                    s)) {  // the format ends inside a specification: written as it stands
      out.text.append(f.substr(pct));
      break;
    }
    const bool known = s.conversion && std::strchr("diouxXcspfFeEgGaA", s.conversion);
    if (!known || out.arguments + arguments_of(s) > kMaxPrintfArguments)
      out.text.append(f.substr(pct, s.end - pct));
    else
      out.arguments += convert(s, args, out);
    i = s.end;
  }
  out.record_bytes = align8(out.record_bytes);
  return out;
}

}  // namespace gputlm::func
