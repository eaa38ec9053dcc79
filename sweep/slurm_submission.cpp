#include "sweep/slurm_submission.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "models/common/error.h"
#include "sweep/run_store.h"

namespace fs = std::filesystem;

namespace gputlm::sweep {

namespace {

// The submission numbers in OUT/slurm, ascending.
std::vector<size_t> numbers(const std::string& out) {
  std::vector<size_t> n;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(out + "/slurm", ec)) {
    const std::string name = e.path().filename().string();
    if (e.is_directory(ec) && !name.empty() &&
        name.find_first_not_of("0123456789") == std::string::npos)
      n.push_back(std::stoul(name));
  }
  std::sort(n.begin(), n.end());
  return n;
}

}  // namespace

size_t SlurmSubmission::runs() const {
  size_t n = 0;
  for (const auto& t : tasks) n += t.size();
  return n;
}

SlurmSubmission SlurmSubmission::create(const std::string& out, const std::vector<std::string>& ids,
                                        size_t per_task) {
  const std::vector<size_t> taken = numbers(out);
  SlurmSubmission s;
  s.dir = out + "/slurm/" + std::to_string(taken.empty() ? 1 : taken.back() + 1);
  std::error_code ec;
  fs::create_directories(s.dir, ec);
  if (ec) throw InputError(s.dir + ": cannot make the directory (" + ec.message() + ")");
  std::string text;
  for (size_t i = 0; i < ids.size(); i += per_task) {
    s.tasks.emplace_back(ids.begin() + static_cast<long>(i),
                         ids.begin() + static_cast<long>(std::min(ids.size(), i + per_task)));
    for (size_t k = 0; k < s.tasks.back().size(); ++k) text += (k ? " " : "") + s.tasks.back()[k];
    text += "\n";
  }
  write_atomically(s.dir + "/tasks.txt", text);
  return s;
}

void SlurmSubmission::write_job() const {
  nlohmann::ordered_json j;
  j["job"] = job;
  j["submitted"] = submitted;
  j["tasks"] = tasks.size();
  j["runs"] = nlohmann::ordered_json::array();
  for (const auto& t : tasks)
    for (const std::string& id : t) j["runs"].push_back(id);
  write_atomically(dir + "/job.json", j.dump(1) + "\n");
}

std::optional<SlurmSubmission> SlurmSubmission::latest(const std::string& out) {
  const std::vector<size_t> taken = numbers(out);
  for (auto n = taken.rbegin(); n != taken.rend(); ++n) {
    SlurmSubmission s;
    s.dir = out + "/slurm/" + std::to_string(*n);
    std::ifstream job(s.dir + "/job.json"), tasks(s.dir + "/tasks.txt");
    const nlohmann::json j = nlohmann::json::parse(job, nullptr, false);
    if (!j.is_object() || !j.contains("job") || !tasks) continue;  // made, but never submitted
    s.job = j["job"].get<std::string>();
    s.submitted = j.value("submitted", "");
    for (std::string line; std::getline(tasks, line);) {
      std::istringstream words(line);
      s.tasks.emplace_back();
      for (std::string id; words >> id;) s.tasks.back().push_back(id);
    }
    return s;
  }
  return std::nullopt;
}

}  // namespace gputlm::sweep
