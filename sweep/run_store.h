// A sweep's output directory: runs/<id>/ holds run.json (what to run: the manifest entry),
// config.json (the resolved config), stats.json, log.txt (the run's stdout and stderr) and
// result.json (status ok|failed, exit code or signal, the output's last lines, host seconds, the
// command, the axes, the gputlm version). Every file is written to a temporary name in the same
// directory and renamed, so a reader (or a rerun after a kill) never sees half a file.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace gputlm::sweep {

// Writes `text` to `path` atomically (temporary file in the same directory, then rename).
void write_atomically(const std::string& path, const std::string& text);

class RunStore {
 public:
  explicit RunStore(std::string out_dir) : m_out(std::move(out_dir)) {}
  const std::string& out() const { return m_out; }
  std::string dir(const std::string& id) const { return m_out + "/runs/" + id; }
  std::string file(const std::string& id, const char* name) const { return dir(id) + "/" + name; }

  // Writes run.json and config.json of a run about to be run (or printed as a job).
  void prepare(const nlohmann::ordered_json& job, const nlohmann::json& config) const;
  // run.json of `id`; InputError if the run was never prepared in this directory.
  nlohmann::ordered_json job(const std::string& id) const;
  // result.json of `id`, or null when there is none (never run, or its runner was killed).
  nlohmann::json result(const std::string& id) const;
  // Whether `id` has an ok result and its statistics.
  bool done(const std::string& id) const;
  // Removes a run's result (--fresh): it counts as missing from then on.
  void forget(const std::string& id) const;

 private:
  std::string m_out;
};

}  // namespace gputlm::sweep
