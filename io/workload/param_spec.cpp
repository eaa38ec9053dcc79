#include "io/workload/param_spec.h"

#include <algorithm>
#include <cstring>

#include "io/workload/launch_spec.h"
#include "io/workload/spec_reader.h"
#include "models/common/error.h"
#include "models/common/nearest_name.h"

namespace gputlm::workload {
namespace {

const std::vector<std::string> kTypes = {"u8",  "s8",  "u16", "s16", "u32",
                                         "s32", "u64", "s64", "f32", "f64"};

size_t align_up(size_t n, size_t a) { return (n + a - 1) / a * a; }

template <class T>
std::vector<uint8_t> bytes_of(T v) {
  std::vector<uint8_t> b(sizeof(T));
  std::memcpy(b.data(), &v, sizeof(T));  // little-endian host, as the device
  return b;
}

// One value of scalar type `type` as its bytes; `as_double` gets it for references.
std::vector<uint8_t> scalar_bytes(const SpecReader& r, const std::string& type, const json& v,
                                  const std::string& path, double& as_double) {
  if (type[0] == 'f') {
    if (!v.is_number() && !v.is_string()) r.fail(path, "must be a number");
    as_double = r.real(v, path);
    if (!fits_type(type, as_double)) r.fail(path, "is not a value of type " + type);
    return type == "f32" ? bytes_of(static_cast<float>(as_double)) : bytes_of(as_double);
  }
  if (type == "u64" && v.is_number_unsigned()) {  // the upper half of u64, beyond int64 expressions
    as_double = static_cast<double>(v.get<uint64_t>());
    return bytes_of(v.get<uint64_t>());
  }
  const int64_t n = r.integer(v, path);
  if (!fits_int_type(type, n)) r.fail(path, "is not a value of type " + type);
  as_double = static_cast<double>(n);
  std::vector<uint8_t> b = bytes_of(n);
  b.resize(buffer_type_size(type));  // little-endian truncation
  return b;
}

// The keys `v` may have besides its kind's key; any other is an error naming the nearest.
void only_keys(const SpecReader& r, const json& v, const std::string& path,
               const std::vector<std::string>& allowed) {
  for (auto it = v.begin(); it != v.end(); ++it)
    if (std::find(allowed.begin(), allowed.end(), it.key()) == allowed.end())
      r.fail(path + "." + it.key(), "unknown key" + did_you_mean(it.key(), allowed));
}

void read_pointer(const SpecReader& r, const json& v, const std::string& path,
                  const WorkloadSpec& spec, ParamSpec& p) {
  only_keys(r, v, path, {"buffer", "offset"});
  ParamPiece piece;
  piece.buffer = r.string(v.at("buffer"), path + ".buffer");
  const BufferSpec* b = spec.buffer(piece.buffer);
  if (!b) {
    std::vector<std::string> names;
    for (const BufferSpec& s : spec.buffers) names.push_back(s.name);
    r.fail(path + ".buffer",
           "no buffer named '" + piece.buffer + "'" + did_you_mean(piece.buffer, names));
  }
  const uint64_t bytes = b->count * b->elem_size;
  if (v.contains("offset")) {
    const int64_t off = r.integer(v.at("offset"), path + ".offset");
    if (off < 0 || static_cast<uint64_t>(off) > bytes)
      r.fail(path + ".offset", "must be between 0 and " + std::to_string(bytes) +
                                   ", the byte size of buffer '" + piece.buffer + "' (is " +
                                   std::to_string(off) + ")");
    piece.offset = static_cast<uint64_t>(off);
  }
  p.kind = "pointer";
  p.size = p.align = 8;
  p.pieces.push_back(std::move(piece));
}

void read_scalar(const SpecReader& r, const json& v, const std::string& path, ParamSpec& p) {
  only_keys(r, v, path, {"type", "value"});
  const std::string type = r.string(v.at("type"), path + ".type");
  const size_t elem = buffer_type_size(type);
  if (elem == 0)
    r.fail(path + ".type", "unknown type '" + type + "'" + did_you_mean(type, kTypes) +
                               " (known: u8 s8 u16 s16 u32 s32 u64 s64 f32 f64)");
  const json& value = r.at(v, "value", path + ".value");
  ParamPiece piece;
  double d = 0;
  if (value.is_array()) {  // a vector: .param .align 16 .b8 p[16] for a float4
    if (value.empty()) r.fail(path + ".value", "must not be an empty list");
    for (size_t i = 0; i < value.size(); ++i) {
      const std::vector<uint8_t> b =
          scalar_bytes(r, type, value[i], path + ".value[" + std::to_string(i) + "]", d);
      piece.bytes.insert(piece.bytes.end(), b.begin(), b.end());
    }
    p.kind = "vector";
  } else {
    piece.bytes = scalar_bytes(r, type, value, path + ".value", d);
    p.kind = "scalar";
    p.scalar = d;
  }
  p.size = piece.bytes.size();
  p.align = elem;
  p.pieces.push_back(std::move(piece));
}

void read_bytes(const SpecReader& r, const json& v, const std::string& path, ParamSpec& p) {
  only_keys(r, v, path, {"bytes"});
  const std::string hex = r.string(v.at("bytes"), path + ".bytes");
  auto digit = [](char c) {
    return c >= '0' && c <= '9'   ? c - '0'
           : c >= 'a' && c <= 'f' ? c - 'a' + 10
           : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                  : -1;
  };
  if (hex.empty() || hex.size() % 2 ||
      !std::all_of(hex.begin(), hex.end(), [&](char c) { return digit(c) >= 0; }))
    r.fail(path + ".bytes",
           "must be hex digits, two per byte in memory order (\"0a000000\" is the u32 10)");
  ParamPiece piece;
  for (size_t i = 0; i < hex.size(); i += 2)
    piece.bytes.push_back(static_cast<uint8_t>(digit(hex[i]) * 16 + digit(hex[i + 1])));
  p.kind = "bytes";
  p.size = piece.bytes.size();
  p.align = 1;
  p.pieces.push_back(std::move(piece));
}

void read_struct(const SpecReader& r, const json& v, const std::string& path,
                 const WorkloadSpec& spec, ParamSpec& p) {
  only_keys(r, v, path, {"struct"});
  const json& fields = r.list(v.at("struct"), path + ".struct");
  if (fields.empty()) r.fail(path + ".struct", "must list at least one field");
  size_t at = 0;
  for (size_t i = 0; i < fields.size(); ++i) {
    const ParamSpec f = read_param(r, fields[i], path + ".struct[" + std::to_string(i) + "]", spec);
    at = align_up(at, f.align);  // C layout: each field at a multiple of its alignment
    for (ParamPiece piece : f.pieces) {
      piece.at += at;
      p.pieces.push_back(std::move(piece));
    }
    at += f.size;
    p.align = std::max(p.align, f.align);
  }
  p.kind = "struct";
  p.size = align_up(at, p.align);  // tail padding, as sizeof
}

}  // namespace

const std::string& ParamSpec::buffer() const {
  static const std::string none;
  return kind == "pointer" ? pieces.front().buffer : none;
}

ParamSpec read_param(const SpecReader& r, const json& v, const std::string& path,
                     const WorkloadSpec& spec) {
  ParamSpec p;
  p.path = path;
  r.object(v, path);
  const std::vector<std::string> kinds = {"buffer", "type", "bytes", "struct"};
  std::vector<std::string> given;
  for (const std::string& k : kinds)
    if (v.contains(k)) given.push_back(k);
  if (given.size() > 1)
    r.fail(path, "give one of \"buffer\", \"type\", \"bytes\" or \"struct\" (has \"" + given[0] +
                     "\" and \"" + given[1] + "\")");
  if (given.empty()) {
    std::string hint;
    for (auto it = v.begin(); it != v.end() && hint.empty(); ++it)
      hint = did_you_mean(it.key(), kinds);
    r.fail(path,
           "needs \"buffer\" (a pointer), \"type\" and \"value\" (a scalar or vector), \"bytes\" "
           "or \"struct\"" +
               hint);
  }
  if (given[0] == "buffer")
    read_pointer(r, v, path, spec, p);
  else if (given[0] == "type")
    read_scalar(r, v, path, p);
  else if (given[0] == "bytes")
    read_bytes(r, v, path, p);
  else
    read_struct(r, v, path, spec, p);
  return p;
}

void check_param(const ParamSpec& p, const isa::VarDecl& d, const std::string& file) {
  if (p.size != d.size)
    throw ConfigError(file, p.path,
                      "is " + std::to_string(p.size) + " bytes (" + p.kind +
                          ") but PTX parameter '" + d.name + "' is " + std::to_string(d.size) +
                          " bytes");
  if (p.align > d.align)
    throw ConfigError(file, p.path,
                      "needs " + std::to_string(p.align) + "-byte alignment (" + p.kind +
                          ") but PTX parameter '" + d.name + "' is .align " +
                          std::to_string(d.align));
}

void encode_param(const ParamSpec& p, const isa::VarDecl& d,
                  const std::map<std::string, uint64_t>& address, std::vector<uint8_t>& out) {
  for (const ParamPiece& piece : p.pieces) {
    uint8_t* dst = out.data() + d.offset + piece.at;
    if (piece.buffer.empty()) {
      std::copy(piece.bytes.begin(), piece.bytes.end(), dst);  // may be empty (an empty struct)
      continue;
    }
    auto it = address.find(piece.buffer);
    const uint64_t addr =
        it == address.end() ? 0
                            : it->second + piece.offset;  // 0 before setup (a check of the layout)
    std::memcpy(dst, &addr, 8);
  }
}

}  // namespace gputlm::workload
