// The spec's "slurm" object (SlurmOptions): its keys read with their defaults, and a wrong key or
// type refused naming the spec file and slurm.<key>.
#include <gtest/gtest.h>

#include "models/common/error.h"
#include "sweep/slurm_options.h"

namespace gputlm::sweep {
namespace {

std::string error_of(const std::string& text) {
  try {
    SlurmOptions::from_json(nlohmann::json::parse(text), "s.json");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(SlurmOptions, KeysAreReadAndNumbersAreSlurmValues) {
  const SlurmOptions o = SlurmOptions::from_json(
      nlohmann::json::parse(
          R"({"partition": "p", "time": 10, "mem": "2G", "throttle": 4, "runs_per_task": 3, "sbatch_args": ["--account=a"], "poll_seconds": 0.5})"),
      "s.json");
  EXPECT_EQ(o.partition, "p");
  EXPECT_EQ(o.time, "10");
  EXPECT_EQ(o.mem, "2G");
  EXPECT_EQ(o.throttle, 4u);
  EXPECT_EQ(o.runs_per_task, 3u);
  EXPECT_EQ(o.sbatch_args, std::vector<std::string>{"--account=a"});
  EXPECT_DOUBLE_EQ(o.poll_seconds, 0.5);
  const SlurmOptions d = SlurmOptions::from_json(nlohmann::json::object(), "s.json");
  EXPECT_EQ(d.partition, "");
  EXPECT_EQ(d.throttle, 0u);
  EXPECT_EQ(d.runs_per_task, 1u);
}

TEST(SlurmOptions, UnknownKeyOrWrongTypeNamesTheSpecAndTheKey) {
  EXPECT_EQ(error_of(R"({"partion": "p"})").rfind("s.json: key 'slurm.partion': ", 0), 0u)
      << error_of(R"({"partion": "p"})");
  EXPECT_NE(error_of(R"({"partion": "p"})").find("partition"), std::string::npos);
  EXPECT_EQ(error_of(R"({"runs_per_task": 0})")
                .rfind("s.json: key 'slurm.runs_per_task': must be between 1", 0),
            0u);
  EXPECT_EQ(error_of(R"({"time": -5})").rfind("s.json: key 'slurm.time': must be a string", 0), 0u)
      << error_of(R"({"time": -5})");
  EXPECT_EQ(error_of(R"({"mem": ""})").rfind("s.json: key 'slurm.mem': must not be empty", 0), 0u);
  EXPECT_EQ(
      error_of(R"({"sbatch_args": ["--x", 3]})").rfind("s.json: key 'slurm.sbatch_args[1]': ", 0),
      0u);
}

}  // namespace
}  // namespace gputlm::sweep
