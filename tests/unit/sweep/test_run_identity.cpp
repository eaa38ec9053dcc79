// A run's identity: the same content gives the same id; a changed config value changes only the
// runs it touches; a changed workload file changes only that workload's runs.
#include <gtest/gtest.h>

#include <unistd.h>
#include <filesystem>
#include <fstream>
#include <map>

#include "sweep/run_identity.h"
#include "sweep/sweep_plan.h"

namespace gputlm::sweep {
namespace {

namespace fs = std::filesystem;

std::map<std::string, std::string> ids_by_label(const std::string& spec_file,
                                                const std::string& text) {
  std::map<std::string, std::string> ids;
  for (const SweepRun& r : expand(SweepSpec::from_json(nlohmann::json::parse(text), spec_file),
                                  Hash128().field("simulator")))
    ids[r.config_label + " " + r.workload.label + " " + r.axes.dump()] = r.id;
  return ids;
}

const std::string kSpecFile = GPUTLM_SOURCE_DIR "/tests/data/sweep.json";
std::string spec_with_schedulers(const std::string& schedulers) {
  return R"({"configs": ["../../configs/fermi-gtx480.json"], "workloads": ["../../traces/micro/vecadd", "../../traces/micro/saxpy"],
             "axes": {"core.scheduler": )" +
         schedulers + "}}";
}

TEST(RunIdentity, SameContentGivesTheSameIds) {
  EXPECT_EQ(ids_by_label(kSpecFile, spec_with_schedulers(R"(["rr", "gto"])")),
            ids_by_label(kSpecFile, spec_with_schedulers(R"(["rr", "gto"])")));
}

TEST(RunIdentity, ChangedAxisValueChangesOnlyTheRunsItTouches) {
  const auto before = ids_by_label(kSpecFile, spec_with_schedulers(R"(["rr", "gto"])"));
  const auto after = ids_by_label(kSpecFile, spec_with_schedulers(R"(["rr", "2lev"])"));
  for (const char* w : {"micro/vecadd", "micro/saxpy"}) {
    const std::string rr = std::string("fermi-gtx480 ") + w + R"( {"core.scheduler":"rr"})";
    EXPECT_EQ(before.at(rr), after.at(rr));
    const std::string gto = std::string("fermi-gtx480 ") + w + R"( {"core.scheduler":"gto"})";
    const std::string two_level =
        std::string("fermi-gtx480 ") + w + R"( {"core.scheduler":"2lev"})";
    EXPECT_NE(before.at(gto), after.at(two_level));
  }
}

TEST(RunIdentity, ChangedWorkloadFileChangesOnlyThatWorkloadsRuns) {
  const fs::path dir =
      fs::temp_directory_path() / ("gputlm_identity_test_" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir / "micro");
  for (const char* w : {"vecadd", "saxpy"})
    fs::copy(GPUTLM_SOURCE_DIR "/traces/micro/" + std::string(w), dir / "micro" / w,
             fs::copy_options::recursive);
  const std::string spec = (dir / "sweep.json").string();
  const std::string text =
      R"({"configs": [")" GPUTLM_SOURCE_DIR
      R"(/configs/fermi-gtx480.json"], "workloads": ["micro/vecadd", "micro/saxpy"]})";
  const auto before = ids_by_label(spec, text);
  std::ofstream(dir / "micro/vecadd/kernel.cu", std::ios::app) << "// changed\n";
  const auto after = ids_by_label(spec, text);
  EXPECT_NE(before.at("fermi-gtx480 micro/vecadd {}"), after.at("fermi-gtx480 micro/vecadd {}"));
  EXPECT_EQ(before.at("fermi-gtx480 micro/saxpy {}"), after.at("fermi-gtx480 micro/saxpy {}"));
  fs::remove_all(dir);
}

TEST(RunIdentity, ConfigFormattingDoesNotMatterButItsContentDoes) {
  const Hash128 w = Hash128().field("w");
  const auto a = nlohmann::json::parse(R"({"name": "x", "cores": 2})"),
             b = nlohmann::json::parse("{\"cores\":2,\n \"name\":\"x\"}");
  EXPECT_EQ(run_id(a, "workload", w, "test", w), run_id(b, "workload", w, "test", w));
  EXPECT_NE(run_id(a, "workload", w, "test", w), run_id(a, "workload", w, "study", w));
  EXPECT_NE(run_id(a, "workload", w, "test", w),
            run_id(a, "workload", w, "test", Hash128().field("other simulator")));
  EXPECT_EQ(run_id(a, "workload", w, "test", w).size(), 32u);
}

TEST(RunIdentity, ExecutableImageLeavesOutTheVersionFieldOnly) {
  const std::string code = "code bytes ";
  std::string one = code + "gputlm-git-version:abc1234" + std::string(64, '\0') + "more code";
  std::string two = code + "gputlm-git-version:def5678-dirty" + std::string(58, '\0') + "more code";
  EXPECT_EQ(executable_image(one), executable_image(two));
  std::string three = two;
  three[2] = 'X';
  EXPECT_NE(executable_image(one), executable_image(three));
}

}  // namespace
}  // namespace gputlm::sweep
