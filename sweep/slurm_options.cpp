#include "sweep/slurm_options.h"

#include "models/common/config_reader.h"

namespace gputlm::sweep {

namespace {

// A Slurm value given as a string, or as a whole number ("time": 10 minutes, "mem": 500 MB).
std::string slurm_value(ConfigReader& r, const nlohmann::json& j, const std::string& key) {
  if (j.contains(key) && j[key].is_number_unsigned())
    return std::to_string(r.get_uint(key, 0, 0, UINT64_MAX));
  const std::string v = r.get_string(key, "");
  if (j.contains(key) && v.empty())
    r.fail(key, "must not be empty (leave the key out for Slurm's default)");
  return v;
}

}  // namespace

SlurmOptions SlurmOptions::from_json(const nlohmann::json& j, const std::string& file) {
  SlurmOptions o;
  ConfigReader r(j, file, "slurm");
  o.partition = slurm_value(r, j, "partition");
  o.time = slurm_value(r, j, "time");
  o.mem = slurm_value(r, j, "mem");
  o.throttle = r.get_uint("throttle", 0, 0, 1000000);
  o.runs_per_task = r.get_uint("runs_per_task", 1, 1, 1000000);
  o.poll_seconds = r.get_double("poll_seconds", o.poll_seconds, 0.05, 3600);
  const nlohmann::json& args = r.get_array("sbatch_args");
  for (size_t i = 0; i < args.size(); ++i) {
    if (!args[i].is_string() || args[i].get<std::string>().empty())
      r.fail("sbatch_args[" + std::to_string(i) + "]",
             "must be an sbatch option (a non-empty string)");
    o.sbatch_args.push_back(args[i].get<std::string>());
  }
  r.finish();
  return o;
}

}  // namespace gputlm::sweep
