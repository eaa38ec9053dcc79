#include "sweep/slurm_client.h"

#include <cctype>
#include <sstream>

#include "models/common/error.h"
#include "sweep/subprocess.h"

namespace gputlm::sweep {

namespace {

bool contains(const std::string& s, const char* part) { return s.find(part) != std::string::npos; }

std::string trimmed(std::string s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.erase(0, 1);
  return s;
}

// The words KEY=VALUE of scontrol's output as a map (the first of each key).
std::map<std::string, std::string> fields(const std::string& text) {
  std::map<std::string, std::string> m;
  std::istringstream words(text);
  for (std::string w; words >> w;)
    if (const size_t eq = w.find('='); eq != std::string::npos)
      m.emplace(w.substr(0, eq), w.substr(eq + 1));
  return m;
}

// A Slurm client command; InputError (with what the backend needs) when it cannot be started.
ProcessOutput slurm(const std::vector<std::string>& argv) {
  try {
    return run_capturing(argv);
  } catch (const InputError& e) {
    throw InputError(
        std::string(e.what()) +
        " (--backend slurm needs Slurm's client commands sbatch, squeue and scontrol)");
  }
}

}  // namespace

std::string SlurmClient::submit(const std::string& script,
                                const std::vector<std::string>& args) const {
  std::vector<std::string> argv = {"sbatch", "--parsable"};
  argv.insert(argv.end(), args.begin(), args.end());
  argv.push_back(script);
  const ProcessOutput p = slurm(argv);
  if (p.exit_code != 0)
    throw InputError("sbatch refused the sweep's job (exit " + std::to_string(p.exit_code) +
                     "): " + trimmed(p.err + p.out));
  const std::string out = trimmed(p.out);
  const std::string job = out.substr(0, out.find(';'));  // "JOB" or "JOB;CLUSTER"
  if (job.empty() || job.find_first_not_of("0123456789") != std::string::npos)
    throw InputError("sbatch --parsable printed no job id: '" + out + "'");
  return job;
}

std::map<size_t, std::string> SlurmClient::queued_tasks(const std::string& job) const {
  const ProcessOutput p = slurm({"squeue", "-h", "-r", "-j", job, "-o", "%K %T"});
  if (p.exit_code != 0) {
    if (contains(p.err, "Invalid job id")) return {};  // purged by slurmctld: long gone
    throw InputError("squeue -j " + job + " failed (exit " + std::to_string(p.exit_code) +
                     "): " + trimmed(p.err));
  }
  std::map<size_t, std::string> tasks;
  std::istringstream lines(p.out);
  for (std::string index, state; lines >> index >> state;)
    tasks[index.find_first_not_of("0123456789") == std::string::npos ? std::stoul(index) : 0] =
        state;
  return tasks;
}

std::optional<SlurmTaskState> SlurmClient::task_state(const std::string& job, size_t task) const {
  const ProcessOutput p = slurm({"scontrol", "show", "job", job + "_" + std::to_string(task)});
  if (p.exit_code != 0) return std::nullopt;
  const auto f = fields(p.out);
  const auto state = f.find("JobState"), code = f.find("ExitCode"), index = f.find("ArrayTaskId");
  if (state == f.end() || index == f.end() || index->second != std::to_string(task))
    return std::nullopt;
  return SlurmTaskState{state->second, code == f.end() ? "" : code->second};
}

}  // namespace gputlm::sweep
