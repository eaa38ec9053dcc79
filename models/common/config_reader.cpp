#include "models/common/config_reader.h"

#include <cmath>
#include <fstream>
#include <sstream>

#include "models/common/error.h"
#include "models/common/nearest_name.h"
#include "models/common/text_file.h"

namespace gputlm {

namespace {
const nlohmann::json& empty_object() {
  static const nlohmann::json e = nlohmann::json::object();
  return e;
}
const nlohmann::json& empty_array() {
  static const nlohmann::json e = nlohmann::json::array();
  return e;
}
}  // namespace

ConfigReader::ConfigReader(const nlohmann::json& obj, std::string where, std::string path)
    : m_obj(obj), m_where(std::move(where)), m_path(std::move(path)) {
  if (!m_obj.is_object())
    throw ConfigError(m_where, m_path.empty() ? "(root)" : m_path, "must be a JSON object");
}

std::string ConfigReader::key_path(const std::string& key) const {
  return m_path.empty() ? key : m_path + "." + key;
}

void ConfigReader::fail(const std::string& key, const std::string& why) const {
  throw ConfigError(m_where, key_path(key), why);
}

bool ConfigReader::has(const std::string& key) const {
  m_asked.insert(key);
  return m_obj.contains(key);
}

const nlohmann::json* ConfigReader::value(const std::string& key) {
  m_read.insert(key);
  auto it = m_obj.find(key);
  return it == m_obj.end() ? nullptr : &*it;
}

uint64_t ConfigReader::get_uint(const std::string& key, uint64_t fallback, uint64_t min,
                                uint64_t max) {
  const nlohmann::json* v = value(key);
  if (!v) return fallback;
  if (!v->is_number_integer() || (!v->is_number_unsigned() && v->get<int64_t>() < 0))
    fail(key, "must be a non-negative integer (is " + v->dump() + ")");
  const uint64_t n = v->get<uint64_t>();
  if (n < min || n > max)
    fail(key, "must be between " + std::to_string(min) + " and " + std::to_string(max) + " (is " +
                  std::to_string(n) + ")");
  return n;
}

double ConfigReader::get_double(const std::string& key, double fallback, double min, double max) {
  const nlohmann::json* v = value(key);
  if (!v) return fallback;
  if (!v->is_number()) fail(key, "must be a number (is " + v->dump() + ")");
  const double d = v->get<double>();
  if (!std::isfinite(d) || d < min || d > max)
    fail(key, "must be between " + std::to_string(min) + " and " + std::to_string(max) + " (is " +
                  v->dump() + ")");
  return d;
}

bool ConfigReader::get_bool(const std::string& key, bool fallback) {
  const nlohmann::json* v = value(key);
  if (!v) return fallback;
  if (!v->is_boolean()) fail(key, "must be true or false (is " + v->dump() + ")");
  return v->get<bool>();
}

std::string ConfigReader::get_string(const std::string& key, const std::string& fallback) {
  const nlohmann::json* v = value(key);
  if (!v) return fallback;
  if (!v->is_string()) fail(key, "must be a string (is " + v->dump() + ")");
  return v->get<std::string>();
}

std::string ConfigReader::get_choice(const std::string& key, const std::string& fallback,
                                     const std::vector<std::string>& allowed) {
  const std::string s = get_string(key, fallback);
  for (const auto& a : allowed)
    if (a == s) return s;
  std::string known;
  for (const auto& a : allowed) known += (known.empty() ? "" : ", ") + a;
  fail(key, "unknown value '" + s + "'" + did_you_mean(s, allowed) + " (known: " + known + ")");
}

const nlohmann::json& ConfigReader::get_object(const std::string& key) {
  const nlohmann::json* v = value(key);
  if (!v) return empty_object();
  if (!v->is_object()) fail(key, "must be an object");
  return *v;
}

const nlohmann::json& ConfigReader::get_array(const std::string& key) {
  const nlohmann::json* v = value(key);
  if (!v) return empty_array();
  if (!v->is_array()) fail(key, "must be a list");
  return *v;
}

void ConfigReader::finish() const {
  for (auto it = m_obj.begin(); it != m_obj.end(); ++it)
    if (!m_read.count(it.key()) && it.key().rfind("_comment", 0) != 0 && it.key() != "//") {
      std::vector<std::string> known(m_read.begin(), m_read.end());
      for (const std::string& k : m_asked)
        if (!m_read.count(k)) known.push_back(k);
      throw UnknownKeyError(m_where, key_path(it.key()),
                            "unknown key" + did_you_mean(it.key(), known));
    }
}

nlohmann::json read_json_file(const std::string& path) {
  std::string text;
  if (!read_text_file(path, text))
    throw InputError(path + ": cannot open config" + did_you_mean_file(path));
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {  // syntax, or a number out of range (1e400)
    throw InputError(path + ": invalid JSON: " + e.what());
  }
}

}  // namespace gputlm
