// Reads one JSON config object into a Spec struct with every problem named by its key path:
// a wrong type, a value out of range, an unknown name, and also keys nobody reads (typos), which
// finish() reports. Used by every XxxSpec::from_json.
//
//   ConfigReader r(json, "configs/x.json", "dram");
//   spec.banks = r.get_uint("banks", spec.banks, 1, 1024);   // optional key, default kept
//   r.finish();                                               // "dram.bnaks": unknown key
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "models/common/error.h"

namespace gputlm {

class ConfigReader {
 public:
  // `where` names the file (or "command line"); `path` is the key path of `obj` ("" for the root).
  ConfigReader(const nlohmann::json& obj, std::string where, std::string path);

  bool has(const std::string& key) const;
  uint64_t get_uint(const std::string& key, uint64_t fallback, uint64_t min, uint64_t max);
  double get_double(const std::string& key, double fallback, double min, double max);
  bool get_bool(const std::string& key, bool fallback);
  std::string get_string(const std::string& key, const std::string& fallback);
  // A string that must be one of `allowed`.
  std::string get_choice(const std::string& key, const std::string& fallback,
                         const std::vector<std::string>& allowed);
  // A choice read into its enum once: `names` pairs each allowed string with its value; the
  // fallback is the value when the key is absent.
  template <class E>
  E get_enum(const std::string& key, E fallback,
             const std::vector<std::pair<std::string, E>>& names) {
    std::string dflt;
    std::vector<std::string> allowed;
    for (const auto& [n, v] : names) {
      allowed.push_back(n);
      if (v == fallback) dflt = n;
    }
    const std::string s = get_choice(key, dflt, allowed);
    for (const auto& [n, v] : names)
      if (n == s) return v;
    return fallback;  // not reached: get_choice accepted s
  }
  // A nested object (empty object if absent); the caller reads it with its own ConfigReader.
  const nlohmann::json& get_object(const std::string& key);
  // A list (empty if absent).
  const nlohmann::json& get_array(const std::string& key);
  // The full key path of `key`, e.g. "dram.timing.tRCD".
  std::string key_path(const std::string& key) const;
  const std::string& where() const { return m_where; }

  [[noreturn]] void fail(const std::string& key, const std::string& why) const;
  // Throws UnknownKeyError for the first key of the object that no get_* call asked for, with the
  // nearest key that was asked for (or about, with has()) as a suggestion.
  void finish() const;

 private:
  const nlohmann::json* value(const std::string& key);

  const nlohmann::json& m_obj;
  std::string m_where;
  std::string m_path;
  std::set<std::string> m_read;
  mutable std::set<std::string> m_asked;  // keys has() was asked about: known names for suggestions
};

// A key no reader knows (a typo?): what ConfigReader::finish() throws. Readers of whole files
// (GpuSpec::from_file) gather every one of them to report them all at once.
class UnknownKeyError : public ConfigError {
 public:
  using ConfigError::ConfigError;
};

// The JSON of a config file; an unreadable file or invalid JSON is an InputError naming the file.
nlohmann::json read_json_file(const std::string& path);

}  // namespace gputlm
