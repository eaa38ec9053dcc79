#include "io/workload/launch_spec.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>

#include "io/workload/param_spec.h"
#include "io/workload/spec_reader.h"
#include "models/common/error.h"
#include "models/common/limits.h"
#include "models/common/text_file.h"

namespace gputlm::workload {
namespace {

using nlohmann::json;

CheckSpec read_check(const SpecReader& r, const json& v, const std::string& path) {
  CheckSpec c;
  const std::string mode = r.string(r.at(v, "mode", path + ".mode"), path + ".mode");
  if (mode == "exact")
    c.mode = CheckSpec::Mode::Exact;
  else if (mode == "multiset")
    c.mode = CheckSpec::Mode::Multiset;
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
InitSpec read_init(const SpecReader& r, const json& v, const BufferSpec& b,
                   const std::string& path) {
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
    if (element ? !fits_type(b.type, out) : !fits_type("f64", out))
      r.fail(path + "." + key, "is not a value of type " + b.type);
  };
  std::vector<std::string> keys{"gen", "sparse"};
  if (in.gen == "const")
    value("value", in.value, true), keys.push_back("value");
  else if (in.gen == "iota")
    value("start", in.start, false), value("step", in.step, false, false),
        keys.insert(keys.end(), {"start", "step"});
  else if (in.gen == "uniform")
    value("min", in.min, true), value("max", in.max, true), keys.insert(keys.end(), {"min", "max"});
  else if (in.gen != "zeros" && in.gen != "custom")
    r.fail(path + ".gen",
           "unknown generator '" + in.gen + "' (known: zeros, const, iota, uniform, custom)");
  if (in.gen == "iota" && b.count > 1 &&
      !fits_type(b.type, in.start + in.step * static_cast<double>(b.count - 1)))
    r.fail(path + ".step", "the last element is not a value of type " + b.type);
  if (in.gen == "uniform" && in.max < in.min) r.fail(path, "max below min");
  for (auto it = v.begin(); it != v.end(); ++it)
    if (std::find(keys.begin(), keys.end(), it.key()) == keys.end())
      r.fail(path + "." + it.key(), "unknown key for \"gen\": \"" + in.gen + "\"");
  if (v.contains("sparse")) {
    if (!v.at("sparse").is_boolean()) r.fail(path + ".sparse", "must be true or false");
    in.sparse = v.at("sparse").get<bool>();
  }
  return in;
}

BufferSpec read_buffer(const SpecReader& r, const json& v, const std::string& path) {
  BufferSpec b;
  b.name = r.string(r.at(v, "name", path + ".name"), path + ".name");
  b.type = r.string(r.at(v, "type", path + ".type"), path + ".type");
  b.elem_size = buffer_type_size(b.type);
  if (b.elem_size == 0)
    r.fail(path + ".type",
           "unknown type '" + b.type + "' (known: u8 s8 u16 s16 u32 s32 u64 s64 f32 f64)");
  const json& count = r.at(v, "count", path + ".count");
  b.count = static_cast<size_t>(r.bounded(count, path + ".count", 0, INT64_MAX));
  const bool sparse = v.contains("init") && v.at("init").is_object() &&
                      v.at("init").contains("sparse") && v.at("init").at("sparse") == true;
  if (sparse)
    r.bounded(count, path + ".count", 0, limits::kMaxSparseBufferBytes / b.elem_size,
              "max_sparse_buffer_bytes");
  else
    r.bounded(count, path + ".count", 0, limits::kMaxBufferBytes / b.elem_size, "max_buffer_bytes");
  if (v.contains("init")) b.init = read_init(r, v.at("init"), b, path + ".init");
  if (v.contains("check")) b.check = read_check(r, v.at("check"), path + ".check");
  if (v.contains("output")) {
    if (!v.at("output").is_boolean()) r.fail(path + ".output", "must be true or false");
    b.output = v.at("output").get<bool>();
  }
  if (b.output && b.init.sparse) r.fail(path + ".output", "a sparse buffer cannot be an output");
  b.output = b.output || v.contains("check");
  if (b.init.sparse && b.init.gen != "custom")
    r.fail(path + ".init.sparse", "needs \"gen\": \"custom\"");
  if (b.init.sparse && v.contains("check"))
    r.fail(path + ".init.sparse", "a checked buffer cannot be sparse");
  return b;
}

LaunchSpec read_launch(const SpecReader& r, const json& v, const std::string& path,
                       const WorkloadSpec& spec) {
  LaunchSpec l;
  l.kernel = r.string(r.at(v, "kernel", path + ".kernel"), path + ".kernel");
  l.grid = r.dim3(r.at(v, "grid", path + ".grid"), path + ".grid", {0x7FFFFFFF, 65535, 65535});
  l.block = r.dim3(r.at(v, "block", path + ".block"), path + ".block", {1024, 1024, 64});
  if (l.block.count() > limits::kMaxThreadsPerCta)
    r.fail(path + ".block", "more than " + std::to_string(limits::kMaxThreadsPerCta) +
                                " threads per CTA (is " + std::to_string(l.block.count()) + ")" +
                                limits::named("max_threads_per_cta"));
  if (l.grid.count() > limits::kMaxCtasPerLaunch)
    r.fail(path + ".grid", "more than " + std::to_string(limits::kMaxCtasPerLaunch) + " CTAs (is " +
                               std::to_string(l.grid.count()) + ")" +
                               limits::named("max_ctas_per_launch"));
  if (v.contains("shared_bytes"))
    l.shared_bytes =
        static_cast<uint32_t>(r.bounded(v.at("shared_bytes"), path + ".shared_bytes", 0,
                                        limits::kMaxSharedBytes, "max_shared_bytes"));
  if (v.contains("repeat"))
    l.repeat = static_cast<uint64_t>(r.bounded(v.at("repeat"), path + ".repeat", 1,
                                               limits::kMaxLaunchRepeat, "max_launch_repeat"));
  const json& params = r.list(r.at(v, "params", path + ".params"), path + ".params");
  for (size_t i = 0; i < params.size(); ++i)
    l.params.push_back(read_param(r, params[i], path + ".params[" + std::to_string(i) + "]", spec));
  if (v.contains("swap")) {
    const json& swaps = r.list(v.at("swap"), path + ".swap");
    for (const auto& s : swaps) {
      if (!s.is_array() || s.size() != 2 || !s[0].is_string() || !s[1].is_string() ||
          !spec.buffer(s[0].get<std::string>()) || !spec.buffer(s[1].get<std::string>()))
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
  const double hi =
      std::ldexp(1.0, static_cast<int>(t[0] == 's' || bits == 64 ? bits - 1 : bits));  // exclusive
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

WorkloadSpec read_workload_spec(const std::string& file, const std::string& size,
                                const std::string& default_reference) {
  std::string text;
  if (!read_text_file(file, text)) throw InputError(file + ": cannot open launch description");
  return parse_workload_spec(text, file, size, default_reference);
}

WorkloadSpec parse_workload_spec(const std::string& text, const std::string& file,
                                 const std::string& size, const std::string& default_reference) {
  WorkloadSpec spec;
  spec.file = file;
  spec.size = size;
  try {
    spec.doc = json::parse(text);
  } catch (const json::exception& e) {  // syntax, or a number out of range (1e400)
    throw InputError(file + ": invalid JSON: " + e.what());
  }
  SpecReader r(file, spec.vars);
  const json& doc = r.object(spec.doc, "");
  if (doc.contains("seed"))
    spec.seed = static_cast<uint64_t>(r.bounded(doc.at("seed"), "seed", 0, INT64_MAX));
  spec.reference_named = doc.contains("reference");
  spec.reference =
      spec.reference_named ? r.string(doc.at("reference"), "reference") : default_reference;
  if (doc.contains("generator")) spec.generator = r.string(doc.at("generator"), "generator");
  const json& sizes = r.object(r.at(doc, "sizes", "sizes"), "sizes");
  if (!sizes.contains(size)) {
    std::string known;
    for (auto it = sizes.begin(); it != sizes.end(); ++it)
      known += (known.empty() ? "" : ", ") + it.key();
    r.fail("sizes." + size, "no such size (known: " + known + ")");
  }
  const json& vars = r.object(sizes.at(size), "sizes." + size);
  for (auto it = vars.begin(); it != vars.end(); ++it) {
    if (!it.value().is_number_integer() ||
        (it.value().is_number_unsigned() &&
         it.value().get<uint64_t>() > static_cast<uint64_t>(INT64_MAX)))
      r.fail("sizes." + size + "." + it.key(), "must be an integer (at most 2^63-1)");
    spec.vars[it.key()] = it.value().get<int64_t>();
  }
  const json& buffers = r.list(r.at(doc, "buffers", "buffers"), "buffers");
  uint64_t total = 0;
  for (size_t i = 0; i < buffers.size(); ++i) {
    const std::string path = "buffers[" + std::to_string(i) + "]";
    BufferSpec b = read_buffer(r, buffers[i], path);
    if (spec.buffer(b.name)) r.fail(path + ".name", "duplicate buffer '" + b.name + "'");
    if (!b.init.sparse)
      total += b.count * b.elem_size;  // a sparse buffer takes only what its generator writes
    if (total > limits::kMaxTotalBufferBytes)
      r.fail(path + ".count", "the buffers take more than " +
                                  std::to_string(limits::kMaxTotalBufferBytes) + " bytes" +
                                  limits::named("max_total_buffer_bytes"));
    spec.buffers.push_back(std::move(b));
  }
  const json& launches = r.list(r.at(doc, "launches", "launches"), "launches");
  if (launches.empty()) r.fail("launches", "must be a non-empty list");
  for (size_t i = 0; i < launches.size(); ++i)
    spec.launches.push_back(
        read_launch(r, launches[i], "launches[" + std::to_string(i) + "]", spec));
  return spec;
}

}  // namespace gputlm::workload
