#include "tb/workload/launch_spec.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>

#include "models/common/error.h"
#include "models/common/limits.h"

namespace gputlm::workload {
namespace {

using nlohmann::json;

// Reads keys of one JSON object with errors that name the key path.
class Reader {
 public:
  Reader(const std::string& file, const ExprVars& vars) : m_file(file), m_vars(vars) {}
  [[noreturn]] void fail(const std::string& key, const std::string& why) const { throw ConfigError(m_file, key, why); }

  const json& at(const json& obj, const std::string& key, const std::string& path) const {
    object(obj, parent(path));
    if (!obj.contains(key)) fail(path, "missing");
    return obj.at(key);
  }
  const json& object(const json& v, const std::string& path) const {
    if (!v.is_object()) fail(path.empty() ? "(root)" : path, "must be a JSON object");
    return v;
  }
  const json& list(const json& v, const std::string& path) const {
    if (!v.is_array()) fail(path, "must be a list");
    return v;
  }
  std::string string(const json& v, const std::string& path) const {
    if (!v.is_string()) fail(path, "must be a string");
    return v.get<std::string>();
  }
  // An integer or an integer expression string.
  int64_t integer(const json& v, const std::string& path) const {
    if (v.is_number_unsigned() && v.get<uint64_t>() > static_cast<uint64_t>(INT64_MAX)) fail(path, "must be at most 2^63-1");
    if (v.is_number_integer()) return v.get<int64_t>();
    if (v.is_string()) {
      try {
        return eval_expr(v.get<std::string>(), m_vars);
      } catch (const InputError& e) {
        fail(path, e.what());
      }
    }
    fail(path, "must be an integer or an integer expression");
  }
  int64_t bounded(const json& v, const std::string& path, int64_t min, uint64_t max, const char* limit = nullptr) const {
    const int64_t n = integer(v, path);
    if (n < min || static_cast<uint64_t>(n) > max)
      fail(path, "must be between " + std::to_string(min) + " and " + std::to_string(max) + " (is " + std::to_string(n) + ")" +
                     (limit ? limits::named(limit) : ""));
    return n;
  }
  // A number, or an integer expression over the size variables.
  double real(const json& v, const std::string& path) const {
    if (v.is_number_float()) return v.get<double>();
    return static_cast<double>(integer(v, path));
  }
  func::Dim3 dim3(const json& v, const std::string& path, const uint64_t (&max)[3]) const {
    func::Dim3 d;
    const json one = json::array({v});
    const json& dims = v.is_array() ? v : one;
    if (dims.empty() || dims.size() > 3) fail(path, "must have 1 to 3 dimensions");
    uint32_t* out[3] = {&d.x, &d.y, &d.z};
    for (size_t i = 0; i < dims.size(); ++i)
      *out[i] = static_cast<uint32_t>(bounded(dims[i], v.is_array() ? path + "[" + std::to_string(i) + "]" : path, 1, max[i]));
    return d;
  }

 private:
  static std::string parent(const std::string& path) {
    const size_t dot = path.rfind('.');
    return dot == std::string::npos ? "" : path.substr(0, dot);
  }
  const std::string& m_file;
  const ExprVars& m_vars;
};

CheckSpec read_check(const Reader& r, const json& v, const std::string& path) {
  CheckSpec c;
  const std::string mode = r.string(r.at(v, "mode", path + ".mode"), path + ".mode");
  if (mode == "exact") c.mode = CheckSpec::Mode::Exact;
  else if (mode == "multiset") c.mode = CheckSpec::Mode::Multiset;
  else if (mode == "float") {
    c.mode = CheckSpec::Mode::Float;
    if (v.contains("rel")) c.rel = r.real(v.at("rel"), path + ".rel");
    if (v.contains("abs")) c.abs = r.real(v.at("abs"), path + ".abs");
    if (!(c.rel >= 0) || !(c.abs >= 0)) r.fail(path, "tolerances must not be negative");
  } else {
    r.fail(path + ".mode", "unknown check mode '" + mode + "' (known: exact, float, multiset)");
  }
  return c;
}

// "init": the generator and its values, each of which must fit the buffer's type.
InitSpec read_init(const Reader& r, const json& v, const BufferSpec& b, const std::string& path) {
  InitSpec in;
  r.object(v, path);
  in.gen = r.string(r.at(v, "gen", path + ".gen"), path + ".gen");
  // `element`: the value is an element's (else a finite step between elements).
  auto value = [&](const char* key, double& out, bool required, bool element = true) {
    if (!v.contains(key)) {
      if (required) r.fail(path + "." + key, "missing");
      return;
    }
    out = r.real(v.at(key), path + "." + key);
    if (element ? !fits_type(b.type, out) : !fits_type("f64", out)) r.fail(path + "." + key, "is not a value of type " + b.type);
  };
  std::vector<std::string> keys{"gen", "sparse"};
  if (in.gen == "const") value("value", in.value, true), keys.push_back("value");
  else if (in.gen == "iota") value("start", in.start, false), value("step", in.step, false, false), keys.insert(keys.end(), {"start", "step"});
  else if (in.gen == "uniform") value("min", in.min, true), value("max", in.max, true), keys.insert(keys.end(), {"min", "max"});
  else if (in.gen != "zeros" && in.gen != "custom") r.fail(path + ".gen", "unknown generator '" + in.gen + "' (known: zeros, const, iota, uniform, custom)");
  if (in.gen == "iota" && b.count > 1 && !fits_type(b.type, in.start + in.step * static_cast<double>(b.count - 1)))
    r.fail(path + ".step", "the last element is not a value of type " + b.type);
  if (in.gen == "uniform" && in.max < in.min) r.fail(path, "max below min");
  for (auto it = v.begin(); it != v.end(); ++it)
    if (std::find(keys.begin(), keys.end(), it.key()) == keys.end()) r.fail(path + "." + it.key(), "unknown key for \"gen\": \"" + in.gen + "\"");
  if (v.contains("sparse")) {
    if (!v.at("sparse").is_boolean()) r.fail(path + ".sparse", "must be true or false");
    in.sparse = v.at("sparse").get<bool>();
  }
  return in;
}

BufferSpec read_buffer(const Reader& r, const json& v, const std::string& path) {
  BufferSpec b;
  b.name = r.string(r.at(v, "name", path + ".name"), path + ".name");
  b.type = r.string(r.at(v, "type", path + ".type"), path + ".type");
  b.elem_size = buffer_type_size(b.type);
  if (b.elem_size == 0) r.fail(path + ".type", "unknown type '" + b.type + "' (known: u8 s8 u16 s16 u32 s32 u64 s64 f32 f64)");
  const json& count = r.at(v, "count", path + ".count");
  b.count = static_cast<size_t>(r.bounded(count, path + ".count", 0, INT64_MAX));
  const bool sparse = v.contains("init") && v.at("init").is_object() && v.at("init").contains("sparse") && v.at("init").at("sparse") == true;
  if (sparse) r.bounded(count, path + ".count", 0, limits::kMaxSparseBufferBytes / b.elem_size, "max_sparse_buffer_bytes");
  else r.bounded(count, path + ".count", 0, limits::kMaxBufferBytes / b.elem_size, "max_buffer_bytes");
  if (v.contains("init")) b.init = read_init(r, v.at("init"), b, path + ".init");
  if (v.contains("check")) b.check = read_check(r, v.at("check"), path + ".check");
  if (b.init.sparse && b.init.gen != "custom") r.fail(path + ".init.sparse", "needs \"gen\": \"custom\"");
  if (b.init.sparse && v.contains("check")) r.fail(path + ".init.sparse", "a checked buffer cannot be sparse");
  return b;
}

ParamSpec read_param(const Reader& r, const json& v, const std::string& path, const WorkloadSpec& spec) {
  ParamSpec p;
  r.object(v, path);
  if (v.contains("buffer")) {
    p.buffer = r.string(v.at("buffer"), path + ".buffer");
    if (!spec.buffer(p.buffer)) r.fail(path + ".buffer", "no buffer named '" + p.buffer + "'");
    return p;
  }
  p.type = r.string(r.at(v, "type", path + ".type"), path + ".type");
  if (buffer_type_size(p.type) == 0) r.fail(path + ".type", "unknown type '" + p.type + "'");
  const json& value = r.at(v, "value", path + ".value");
  if (p.type[0] != 'f') p.value = r.integer(value, path + ".value");
  else if (!value.is_number()) r.fail(path + ".value", "must be a number");
  else p.value = value;
  const bool fits = p.type[0] == 'f' ? fits_type(p.type, p.value.get<double>()) : fits_int_type(p.type, p.value.get<int64_t>());
  if (!fits) r.fail(path + ".value", "is not a value of type " + p.type);
  return p;
}

LaunchSpec read_launch(const Reader& r, const json& v, const std::string& path, const WorkloadSpec& spec) {
  LaunchSpec l;
  l.kernel = r.string(r.at(v, "kernel", path + ".kernel"), path + ".kernel");
  l.grid = r.dim3(r.at(v, "grid", path + ".grid"), path + ".grid", {0x7FFFFFFF, 65535, 65535});
  l.block = r.dim3(r.at(v, "block", path + ".block"), path + ".block", {1024, 1024, 64});
  if (l.block.count() > limits::kMaxThreadsPerCta)
    r.fail(path + ".block", "more than " + std::to_string(limits::kMaxThreadsPerCta) + " threads per CTA (is " + std::to_string(l.block.count()) +
                                ")" + limits::named("max_threads_per_cta"));
  if (l.grid.count() > limits::kMaxCtasPerLaunch)
    r.fail(path + ".grid", "more than " + std::to_string(limits::kMaxCtasPerLaunch) + " CTAs (is " + std::to_string(l.grid.count()) + ")" +
                               limits::named("max_ctas_per_launch"));
  if (v.contains("shared_bytes"))
    l.shared_bytes = static_cast<uint32_t>(r.bounded(v.at("shared_bytes"), path + ".shared_bytes", 0, limits::kMaxSharedBytes, "max_shared_bytes"));
  if (v.contains("repeat")) l.repeat = static_cast<uint64_t>(r.bounded(v.at("repeat"), path + ".repeat", 1, limits::kMaxLaunchRepeat, "max_launch_repeat"));
  const json& params = r.list(r.at(v, "params", path + ".params"), path + ".params");
  for (size_t i = 0; i < params.size(); ++i) l.params.push_back(read_param(r, params[i], path + ".params[" + std::to_string(i) + "]", spec));
  if (v.contains("swap")) {
    const json& swaps = r.list(v.at("swap"), path + ".swap");
    for (const auto& s : swaps) {
      if (!s.is_array() || s.size() != 2 || !s[0].is_string() || !s[1].is_string() || !spec.buffer(s[0].get<std::string>()) ||
          !spec.buffer(s[1].get<std::string>()))
        r.fail(path + ".swap", "must list pairs of buffer names");
      l.swaps.emplace_back(s[0].get<std::string>(), s[1].get<std::string>());
    }
  }
  return l;
}

}  // namespace

const BufferSpec* WorkloadSpec::buffer(const std::string& name) const {
  for (const auto& b : buffers)
    if (b.name == name) return &b;
  return nullptr;
}

size_t buffer_type_size(const std::string& t) {
  if (t == "u8" || t == "s8") return 1;
  if (t == "u16" || t == "s16") return 2;
  if (t == "u32" || t == "s32" || t == "f32") return 4;
  if (t == "u64" || t == "s64" || t == "f64") return 8;
  return 0;
}

bool fits_type(const std::string& t, double v) {
  if (t == "f32") return std::isfinite(v) && std::fabs(v) <= std::numeric_limits<float>::max();
  if (t == "f64") return std::isfinite(v);
  const size_t bits = buffer_type_size(t) * 8;
  if (bits == 0 || !std::isfinite(v)) return false;
  const double lo = t[0] == 's' ? -std::ldexp(1.0, static_cast<int>(bits) - 1) : 0.0;
  const double hi = std::ldexp(1.0, static_cast<int>(t[0] == 's' || bits == 64 ? bits - 1 : bits));  // exclusive
  return v >= lo && v < hi;
}

bool fits_int_type(const std::string& t, int64_t v) {
  const size_t bits = buffer_type_size(t) * 8;
  if (bits == 0 || t[0] == 'f') return false;
  if (bits == 64) return t[0] == 's' || v >= 0;
  const int64_t lo = t[0] == 's' ? -(int64_t{1} << (bits - 1)) : 0;
  const int64_t hi = t[0] == 's' ? (int64_t{1} << (bits - 1)) - 1 : (int64_t{1} << bits) - 1;
  return v >= lo && v <= hi;
}

WorkloadSpec read_workload_spec(const std::string& file, const std::string& size, const std::string& default_reference) {
  std::ifstream in(file);
  if (!in) throw InputError(file + ": cannot open launch description");
  std::stringstream text;
  text << in.rdbuf();
  return parse_workload_spec(text.str(), file, size, default_reference);
}

WorkloadSpec parse_workload_spec(const std::string& text, const std::string& file, const std::string& size,
                                 const std::string& default_reference) {
  WorkloadSpec spec;
  spec.file = file;
  spec.size = size;
  try {
    spec.doc = json::parse(text);
  } catch (const json::exception& e) {  // syntax, or a number out of range (1e400)
    throw InputError(file + ": invalid JSON: " + e.what());
  }
  Reader r(file, spec.vars);
  const json& doc = r.object(spec.doc, "");
  if (doc.contains("seed")) spec.seed = static_cast<uint64_t>(r.bounded(doc.at("seed"), "seed", 0, INT64_MAX));
  spec.reference = doc.contains("reference") ? r.string(doc.at("reference"), "reference") : default_reference;
  if (doc.contains("generator")) spec.generator = r.string(doc.at("generator"), "generator");
  const json& sizes = r.object(r.at(doc, "sizes", "sizes"), "sizes");
  if (!sizes.contains(size)) {
    std::string known;
    for (auto it = sizes.begin(); it != sizes.end(); ++it) known += (known.empty() ? "" : ", ") + it.key();
    r.fail("sizes." + size, "no such size (known: " + known + ")");
  }
  const json& vars = r.object(sizes.at(size), "sizes." + size);
  for (auto it = vars.begin(); it != vars.end(); ++it) {
    if (!it.value().is_number_integer() || (it.value().is_number_unsigned() && it.value().get<uint64_t>() > static_cast<uint64_t>(INT64_MAX)))
      r.fail("sizes." + size + "." + it.key(), "must be an integer (at most 2^63-1)");
    spec.vars[it.key()] = it.value().get<int64_t>();
  }
  const json& buffers = r.list(r.at(doc, "buffers", "buffers"), "buffers");
  uint64_t total = 0;
  for (size_t i = 0; i < buffers.size(); ++i) {
    const std::string path = "buffers[" + std::to_string(i) + "]";
    BufferSpec b = read_buffer(r, buffers[i], path);
    if (spec.buffer(b.name)) r.fail(path + ".name", "duplicate buffer '" + b.name + "'");
    if (!b.init.sparse) total += b.count * b.elem_size;  // a sparse buffer takes only what its generator writes
    if (total > limits::kMaxTotalBufferBytes)
      r.fail(path + ".count", "the buffers take more than " + std::to_string(limits::kMaxTotalBufferBytes) + " bytes" + limits::named("max_total_buffer_bytes"));
    spec.buffers.push_back(std::move(b));
  }
  const json& launches = r.list(r.at(doc, "launches", "launches"), "launches");
  if (launches.empty()) r.fail("launches", "must be a non-empty list");
  for (size_t i = 0; i < launches.size(); ++i)
    spec.launches.push_back(read_launch(r, launches[i], "launches[" + std::to_string(i) + "]", spec));
  return spec;
}

}  // namespace gputlm::workload
