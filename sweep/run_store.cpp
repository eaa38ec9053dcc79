#include "sweep/run_store.h"

#include <unistd.h>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "models/common/error.h"
#include "models/common/text_file.h"

namespace fs = std::filesystem;

namespace gputlm::sweep {

void write_atomically(const std::string& path, const std::string& text) {
  const std::string tmp = path + ".tmp" + std::to_string(getpid());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << text;
    out.flush();
    if (!out) throw InputError(tmp + ": cannot write (" + std::strerror(errno) + ")");
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    const std::string why = std::strerror(errno);
    std::remove(tmp.c_str());
    throw InputError(path + ": cannot write (" + why + ")");
  }
}

namespace {
template <class Json>
Json read_json(const std::string& path) {
  std::string text;
  if (!read_text_file(path, text)) return nullptr;
  return Json::parse(text, nullptr, false);  // a broken file reads as discarded
}
}  // namespace

void RunStore::prepare(const nlohmann::ordered_json& job, const nlohmann::json& config) const {
  const std::string id = job.at("id").get<std::string>();
  std::error_code ec;
  fs::create_directories(dir(id), ec);
  if (ec) throw InputError(dir(id) + ": cannot make the directory (" + ec.message() + ")");
  write_atomically(file(id, "config.json"), config.dump(2) + "\n");
  write_atomically(file(id, "run.json"), job.dump(2) + "\n");
}

nlohmann::ordered_json RunStore::job(const std::string& id) const {
  nlohmann::ordered_json j = read_json<nlohmann::ordered_json>(file(id, "run.json"));
  if (!j.is_object() || !j.contains("id"))
    throw InputError(m_out + ": no run '" + id + "' prepared here (gputlm sweep SPEC --out " +
                     m_out + " --print-jobs prepares the missing runs)");
  return j;
}

nlohmann::json RunStore::result(const std::string& id) const {
  const nlohmann::json j = read_json<nlohmann::json>(file(id, "result.json"));
  return j.is_object() ? j : nlohmann::json();
}

bool RunStore::done(const std::string& id) const {
  const nlohmann::json r = result(id);
  std::error_code ec;
  return r.is_object() && r.value("status", "") == "ok" &&
         fs::is_regular_file(file(id, "stats.json"), ec);
}

void RunStore::forget(const std::string& id) const {
  std::error_code ec;
  fs::remove(file(id, "result.json"), ec);
}

}  // namespace gputlm::sweep
