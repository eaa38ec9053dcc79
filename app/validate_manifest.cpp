#include "app/validate_manifest.h"

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "models/common/error.h"
#include "models/common/nearest_name.h"
#include "models/common/text_file.h"

namespace gputlm::app {

namespace {

std::vector<std::string> strings(const nlohmann::json& program, const char* key,
                                 const std::string& where) {
  if (!program.contains(key)) return {};
  const nlohmann::json& v = program[key];
  if (!v.is_array()) throw InputError(where + ": \"" + key + "\" must be a list of strings");
  std::vector<std::string> out;
  for (const nlohmann::json& s : v) {
    if (!s.is_string())
      throw InputError(where + ": \"" + key + "\" must be a list of strings (has " + s.dump() +
                       ")");
    out.push_back(s.get<std::string>());
  }
  return out;
}

}  // namespace

std::vector<ValidateProgram> parse_manifest(const std::string& text, const std::string& path) {
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    throw InputError(path + ": not JSON: " + e.what());
  }
  if (!j.is_array()) throw InputError(path + ": the manifest must be a list of programs");
  std::vector<ValidateProgram> programs;
  std::set<std::string> names;
  const std::vector<std::string> keys = {"name", "sources", "nvcc_flags", "args", "workdir"};
  for (size_t i = 0; i < j.size(); ++i) {
    std::string where = path + ": program " + std::to_string(i + 1);
    const nlohmann::json& p = j[i];
    if (!p.is_object()) throw InputError(where + ": must be an object");
    if (!p.contains("name") || !p["name"].is_string() || p["name"].get<std::string>().empty())
      throw InputError(where + ": \"name\" (the hardware CSV's Benchmark) must be a string");
    ValidateProgram program;
    program.name = p["name"].get<std::string>();
    where += " (" + program.name + ")";
    if (program.name.find_first_of("/\\") != std::string::npos || program.name[0] == '.')
      throw InputError(where + ": the name must be usable as a file name (no '/', no leading '.')");
    if (!names.insert(program.name).second) throw InputError(where + ": the name is used twice");
    for (auto it = p.begin(); it != p.end(); ++it)
      if (std::find(keys.begin(), keys.end(), it.key()) == keys.end())
        throw InputError(where + ": unknown key \"" + it.key() + "\"" +
                         did_you_mean(it.key(), keys));
    program.sources = strings(p, "sources", where);
    if (program.sources.empty())
      throw InputError(where + ": \"sources\" must list at least one .cu file");
    program.nvcc_flags = strings(p, "nvcc_flags", where);
    program.args = strings(p, "args", where);
    if (p.contains("workdir")) {
      if (!p["workdir"].is_string()) throw InputError(where + ": \"workdir\" must be a string");
      program.workdir = p["workdir"].get<std::string>();
    }
    programs.push_back(std::move(program));
  }
  if (programs.empty()) throw InputError(path + ": the manifest lists no programs");
  return programs;
}

std::vector<ValidateProgram> read_manifest(const std::string& path) {
  std::string text;
  if (!read_text_file(path, text)) throw InputError(path + ": cannot read the manifest");
  return parse_manifest(text, path);
}

}  // namespace gputlm::app
