#include "tb/workload/launch_spec.h"

#include <fstream>

#include "models/common/error.h"

namespace gputlm::workload {
namespace {

using nlohmann::json;

// Reads keys of one JSON object with errors that name the key path.
class Reader {
 public:
  Reader(const std::string& file, const ExprVars& vars) : m_file(file), m_vars(vars) {}
  [[noreturn]] void fail(const std::string& key, const std::string& why) const { throw ConfigError(m_file, key, why); }

  const json& at(const json& obj, const std::string& key, const std::string& path) const {
    if (!obj.is_object() || !obj.contains(key)) fail(path, "missing");
    return obj.at(key);
  }
  std::string string(const json& v, const std::string& path) const {
    if (!v.is_string()) fail(path, "must be a string");
    return v.get<std::string>();
  }
  // An integer or an integer expression string.
  int64_t integer(const json& v, const std::string& path) const {
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
  uint32_t positive(const json& v, const std::string& path) const {
    int64_t n = integer(v, path);
    if (n < 1 || n > 0x7FFFFFFF) fail(path, "must be between 1 and 2^31-1 (is " + std::to_string(n) + ")");
    return static_cast<uint32_t>(n);
  }
  func::Dim3 dim3(const json& v, const std::string& path) const {
    func::Dim3 d;
    if (!v.is_array()) {
      d.x = positive(v, path);
      return d;
    }
    if (v.empty() || v.size() > 3) fail(path, "must have 1 to 3 dimensions");
    uint32_t* dims[3] = {&d.x, &d.y, &d.z};
    for (size_t i = 0; i < v.size(); ++i) *dims[i] = positive(v[i], path + "[" + std::to_string(i) + "]");
    return d;
  }

 private:
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
    c.rel = v.value("rel", 0.0);
    c.abs = v.value("abs", 0.0);
    if (c.rel < 0 || c.abs < 0) r.fail(path, "tolerances must not be negative");
  } else {
    r.fail(path + ".mode", "unknown check mode '" + mode + "' (known: exact, float, multiset)");
  }
  return c;
}

BufferSpec read_buffer(const Reader& r, const json& v, const std::string& path) {
  BufferSpec b;
  b.name = r.string(r.at(v, "name", path + ".name"), path + ".name");
  b.type = r.string(r.at(v, "type", path + ".type"), path + ".type");
  b.elem_size = buffer_type_size(b.type);
  if (b.elem_size == 0) r.fail(path + ".type", "unknown type '" + b.type + "' (known: u8 s8 u16 s16 u32 s32 u64 s64 f32 f64)");
  const int64_t count = r.integer(r.at(v, "count", path + ".count"), path + ".count");
  if (count < 0 || count > (int64_t{1} << 34)) r.fail(path + ".count", "out of range: " + std::to_string(count));
  b.count = static_cast<size_t>(count);
  b.init = v.contains("init") ? v.at("init") : json{{"gen", "zeros"}};
  if (!b.init.is_object() || !b.init.contains("gen")) r.fail(path + ".init", "must be an object with \"gen\"");
  if (v.contains("check")) b.check = read_check(r, v.at("check"), path + ".check");
  if (b.init.contains("sparse")) {
    if (!b.init.at("sparse").is_boolean()) r.fail(path + ".init.sparse", "must be true or false");
    if (b.init.at("sparse").get<bool>() && b.init.at("gen") != "custom") r.fail(path + ".init.sparse", "needs \"gen\": \"custom\"");
    if (b.init.at("sparse").get<bool>() && v.contains("check")) r.fail(path + ".init.sparse", "a checked buffer cannot be sparse");
  }
  return b;
}

LaunchSpec read_launch(const Reader& r, const json& v, const std::string& path, const WorkloadSpec& spec) {
  LaunchSpec l;
  l.kernel = r.string(r.at(v, "kernel", path + ".kernel"), path + ".kernel");
  l.grid = r.dim3(r.at(v, "grid", path + ".grid"), path + ".grid");
  l.block = r.dim3(r.at(v, "block", path + ".block"), path + ".block");
  if (l.block.count() > 1024) r.fail(path + ".block", "more than 1024 threads per CTA");
  if (v.contains("shared_bytes")) l.shared_bytes = static_cast<uint32_t>(r.integer(v.at("shared_bytes"), path + ".shared_bytes"));
  if (v.contains("repeat")) l.repeat = r.positive(v.at("repeat"), path + ".repeat");
  const json& params = r.at(v, "params", path + ".params");
  if (!params.is_array()) r.fail(path + ".params", "must be a list");
  for (size_t i = 0; i < params.size(); ++i) {
    const std::string pp = path + ".params[" + std::to_string(i) + "]";
    ParamSpec p;
    if (params[i].contains("buffer")) {
      p.buffer = r.string(params[i].at("buffer"), pp + ".buffer");
      if (!spec.buffer(p.buffer)) r.fail(pp + ".buffer", "no buffer named '" + p.buffer + "'");
    } else {
      p.type = r.string(r.at(params[i], "type", pp + ".type"), pp + ".type");
      if (buffer_type_size(p.type) == 0) r.fail(pp + ".type", "unknown type '" + p.type + "'");
      p.value = r.at(params[i], "value", pp + ".value");
      if (p.type[0] != 'f') p.value = r.integer(p.value, pp + ".value");
      else if (!p.value.is_number()) r.fail(pp + ".value", "must be a number");
    }
    l.params.push_back(p);
  }
  if (v.contains("swap")) {
    for (const auto& s : v.at("swap")) {
      if (!s.is_array() || s.size() != 2 || !spec.buffer(s[0].get<std::string>()) || !spec.buffer(s[1].get<std::string>()))
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

WorkloadSpec read_workload_spec(const std::string& file, const std::string& size, const std::string& default_reference) {
  WorkloadSpec spec;
  spec.file = file;
  spec.size = size;
  std::ifstream in(file);
  if (!in) throw InputError(file + ": cannot open launch description");
  try {
    spec.doc = json::parse(in);
  } catch (const json::parse_error& e) {
    throw InputError(file + ": invalid JSON: " + e.what());
  }
  Reader r(file, spec.vars);
  const json& doc = spec.doc;
  spec.seed = doc.value("seed", 1ull);
  spec.reference = doc.value("reference", default_reference);
  spec.generator = doc.value("generator", std::string());
  const json& sizes = r.at(doc, "sizes", "sizes");
  if (!sizes.contains(size)) {
    std::string known;
    for (auto it = sizes.begin(); it != sizes.end(); ++it) known += (known.empty() ? "" : ", ") + it.key();
    r.fail("sizes." + size, "no such size (known: " + known + ")");
  }
  for (auto it = sizes.at(size).begin(); it != sizes.at(size).end(); ++it) {
    if (!it.value().is_number_integer()) r.fail("sizes." + size + "." + it.key(), "must be an integer");
    spec.vars[it.key()] = it.value().get<int64_t>();
  }
  const json& buffers = r.at(doc, "buffers", "buffers");
  for (size_t i = 0; i < buffers.size(); ++i) {
    BufferSpec b = read_buffer(r, buffers[i], "buffers[" + std::to_string(i) + "]");
    if (spec.buffer(b.name)) r.fail("buffers[" + std::to_string(i) + "].name", "duplicate buffer '" + b.name + "'");
    spec.buffers.push_back(std::move(b));
  }
  const json& launches = r.at(doc, "launches", "launches");
  if (!launches.is_array() || launches.empty()) r.fail("launches", "must be a non-empty list");
  for (size_t i = 0; i < launches.size(); ++i)
    spec.launches.push_back(read_launch(r, launches[i], "launches[" + std::to_string(i) + "]", spec));
  return spec;
}

}  // namespace gputlm::workload
