// The sweep spec and its expansion: configs x workloads x sizes x crossed axes x zipped groups,
// "set" in every run, and every mistake refused before a run with the spec file and the key.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>

#include "models/common/error.h"
#include "sweep/sweep_plan.h"

namespace gputlm::sweep {
namespace {

// A spec as if read from tests/data/sweep.json: its paths are relative to tests/data.
const std::string kSpecFile = GPUTLM_SOURCE_DIR "/tests/data/sweep.json";

std::vector<SweepRun> runs_of(const std::string& text) {
  return expand(SweepSpec::from_json(nlohmann::json::parse(text), kSpecFile),
                Hash128().field("simulator"));
}

// The InputError message of expanding `text` ("" if none).
std::string error_of(const std::string& text) {
  try {
    runs_of(text);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

const char* kTwoByTwo =
    R"("configs": ["../../configs/fermi-gtx480.json", "../../configs/narasiman-baseline.json"],
                           "workloads": ["../../traces/micro/vecadd", "../../traces/micro/saxpy"])";

TEST(SweepSpec, ConfigsWorkloadsSizesAndAxesAreCrossed) {
  const auto runs = runs_of(
      std::string("{") + kTwoByTwo +
      R"(, "axes": {"core.scheduler": ["rr", "gto", "2lev"], "core.register_banks": [2, 4]}})");
  ASSERT_EQ(runs.size(), 2u * 2 * 3 * 2);
  std::set<std::string> ids;
  for (const SweepRun& r : runs) ids.insert(r.id);
  EXPECT_EQ(ids.size(), runs.size());
  EXPECT_EQ(runs[0].config_label, "fermi-gtx480");
  EXPECT_EQ(runs[0].workload.label, "micro/vecadd");
  EXPECT_EQ(runs[0].size, "test");
  // Axis keys in sorted order (the CSV's columns); the last key varies fastest, then workloads.
  EXPECT_EQ(runs[0].axes.dump(), R"({"core.register_banks":2,"core.scheduler":"rr"})");
  EXPECT_EQ(runs[0].config["core"]["scheduler"], "rr");
  EXPECT_EQ(runs[1].workload.label, "micro/saxpy");
  EXPECT_EQ(runs[2].config["core"]["scheduler"], "gto");
  EXPECT_EQ(runs[6].config["core"]["register_banks"], 4);
  EXPECT_EQ(runs.back().config_label, "narasiman-baseline");
  EXPECT_EQ(runs.back().config["core"]["scheduler"], "2lev");
}

TEST(SweepSpec, ZipGroupTakesItsListsPositionByPositionAndGroupsCross) {
  const auto runs = runs_of(
      R"({"configs": ["../../configs/lwm256.json"], "workloads": ["../../traces/micro/vecadd"],
      "zip": [{"core.lwm.size": [32, 64], "core.fetch_group_size": [1, 2]}, {"core.register_banks": [2, 4, 8]}]})");
  ASSERT_EQ(runs.size(), 2u * 3);
  EXPECT_EQ(runs[0].axes.dump(),
            R"({"core.fetch_group_size":1,"core.lwm.size":32,"core.register_banks":2})");
  EXPECT_EQ(runs[5].axes.dump(),
            R"({"core.fetch_group_size":2,"core.lwm.size":64,"core.register_banks":8})");
  EXPECT_EQ(runs[5].config["core"]["lwm"]["size"], 64);
}

TEST(SweepSpec, SetAppliesToEveryRunAndSizesMultiply) {
  const auto runs =
      runs_of(std::string("{") + kTwoByTwo +
              R"(, "sizes": ["test", "study"], "set": {"max_warp_instructions": 1000}})");
  ASSERT_EQ(runs.size(), 8u);
  for (const SweepRun& r : runs) EXPECT_EQ(r.config["max_warp_instructions"], 1000);
  EXPECT_EQ(runs[1].size, "study");
}

TEST(SweepSpec, InlineConfigResolvesItsBaseFromTheSpecDirectory) {
  const auto runs = runs_of(
      R"({"configs": [{"name": "lwm64", "base": "../../configs/lwm256.json", "core": {"lwm": {"size": 64}}}],
                                "workloads": [{"workload": "../../traces/micro/vecadd"}, {"trace": "../../traces/accel-sim/vectoradd"}]})");
  ASSERT_EQ(runs.size(), 2u);
  EXPECT_EQ(runs[0].config_label, "lwm64");
  EXPECT_EQ(runs[0].config["core"]["lwm"]["size"], 64);
  EXPECT_FALSE(runs[0].config.contains("base"));
  EXPECT_TRUE(runs[1].workload.trace);
  EXPECT_EQ(runs[1].size, "");
}

TEST(SweepSpec, UnknownAxisKeyNamesTheSpecTheAxisAndTheNearestKey) {
  const std::string e =
      error_of(std::string("{") + kTwoByTwo + R"(, "axes": {"core.schedular": ["rr"]}})");
  EXPECT_NE(e.find(kSpecFile + ": key 'axes.core.schedular': no config key 'core.schedular' (did "
                               "you mean 'scheduler'?)"),
            std::string::npos)
      << e;
}

TEST(SweepSpec, BadAxisValueNamesTheSpecConfigAndKey) {
  const std::string e = error_of(std::string("{") + kTwoByTwo +
                                 R"(, "axes": {"core.scheduler": ["rr", "fastest"]}})");
  EXPECT_NE(e.find(kSpecFile + " (config 'fermi-gtx480' with core.scheduler=\"fastest\")"),
            std::string::npos)
      << e;
  EXPECT_NE(e.find("core.scheduler"), std::string::npos) << e;
}

TEST(SweepSpec, MalformedSpecsAreRefusedNamingFileAndKey) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {R"({"workloads": ["../../traces/micro/vecadd"]})", "key 'configs': is required"},
      {R"({"configs": [], "workloads": ["../../traces/micro/vecadd"]})",
       "key 'configs': must not be empty"},
      {R"({"configs": "../../configs/fermi-gtx480.json", "workloads": ["../../traces/micro/vecadd"]})",
       "key 'configs': must be a list"},
      {R"({"configs": [3], "workloads": ["../../traces/micro/vecadd"]})",
       "key 'configs[0]': must be a config file name"},
      {std::string("{") + kTwoByTwo + R"(, "axes": {"core.scheduler": []}})",
       "key 'axes.core.scheduler': must be a non-empty list"},
      {std::string("{") + kTwoByTwo +
           R"(, "zip": [{"core.lwm.size": [32, 64], "core.fetch_group_size": [1]}]})",
       "key 'zip[0].core.lwm.size': 2 values where 'core.fetch_group_size' has 1"},
      {std::string("{") + kTwoByTwo +
           R"(, "axes": {"core.scheduler": ["rr"]}, "zip": [{"core.scheduler": ["gto"]}]})",
       "key 'zip[0].core.scheduler': varies the same config key as axis 'core.scheduler'"},
      {std::string("{") + kTwoByTwo + R"(, "axes": {"core": ["vgiw"], "core.scheduler": ["rr"]}})",
       "varies the same config key as axis 'core'"},
      {std::string("{") + kTwoByTwo + R"(, "axis": {}})",
       "key 'axis': unknown key (did you mean 'axes'?)"},
      {std::string("{") + kTwoByTwo + R"(, "axes": {"core.scheduler": ["rr", "gto", "rr"]}})",
       ": config 'fermi-gtx480' with core.scheduler=\"rr\" on micro/vecadd at test is the same run "
       "as config 'fermi-gtx480' with core.scheduler=\"rr\" on micro/vecadd at test"},
      {std::string("{") + kTwoByTwo + R"(, "sizes": ["huge"]})",
       "workload 'micro/vecadd' at size 'huge'"},
      {R"({"configs": ["../../configs/fermi-gtx48.json"], "workloads": ["../../traces/micro/vecadd"]})",
       "key 'configs[0]': no config file"},
      {R"({"configs": ["../../configs/fermi-gtx480.json"], "workloads": ["../../traces/micro/vecad"]})",
       "key 'workloads[0]': '"},
      {std::string("{") + kTwoByTwo + R"(, "exclude": [{"workload": "micro/vecad"}]})",
       "key 'exclude[0].workload': names none of the spec's workloads"},
      {std::string("{") + kTwoByTwo + R"(, "exclude": [{"workloads": "micro/vecadd"}]})",
       "key 'exclude[0].workloads': unknown key"},
      {std::string("{") + kTwoByTwo + R"(, "exclude": [{"config": []}]})",
       "key 'exclude[0].config': must not be empty"},
      {std::string("{") + kTwoByTwo + R"(, "exclude": [{"size": "test"}]})",
       "\"exclude\" leaves out every run"},
      {std::string("{") + kTwoByTwo + R"(, "command": "simulate"})", "key 'command'"},
      {std::string("{") + kTwoByTwo + R"(, "command": "predict", "dram_trace": true})",
       "key 'dram_trace': is for timing runs"},
      {R"({"configs": ["../../configs/fermi-gtx480.json"], "workloads": [{"trace": "../../traces/accel-sim/vectoradd"}], "command": "predict"})",
       "key 'workloads[0]': is a trace"},
  };
  for (const auto& [text, expected] : cases) {
    const std::string e = error_of(text);
    EXPECT_EQ(e.rfind(kSpecFile, 0), 0u) << text << "\n-> " << e;
    EXPECT_NE(e.find(expected), std::string::npos) << text << "\n-> " << e;
  }
}

TEST(SweepSpec, ExcludeLeavesOutTheRunsMatchingEveryKeyItGives) {
  const auto runs =
      runs_of(std::string("{") + kTwoByTwo + R"(, "sizes": ["test", "study"], "exclude": [
      {"config": "fermi-gtx480", "workload": ["micro/saxpy"]}, {"config": "narasiman-baseline", "size": "study"}]})");
  std::vector<std::string> left;
  for (const SweepRun& r : runs)
    left.push_back(r.config_label + " " + r.workload.label + " " + r.size);
  EXPECT_EQ(left,
            (std::vector<std::string>{
                "fermi-gtx480 micro/vecadd test", "fermi-gtx480 micro/vecadd study",
                "narasiman-baseline micro/vecadd test", "narasiman-baseline micro/saxpy test"}));
}

TEST(SweepSpec, RunOptionsGoIntoTheManifestEntryAndTheIdentity) {
  const auto plain = runs_of(std::string("{") + kTwoByTwo + "}");
  const auto traced =
      runs_of(std::string("{") + kTwoByTwo + R"(, "dram_trace": true, "sample": 1000})");
  const auto predicted = runs_of(std::string("{") + kTwoByTwo + R"(, "command": "predict"})");
  ASSERT_EQ(plain.size(), traced.size());
  for (size_t i = 0; i < plain.size(); ++i) {
    EXPECT_NE(plain[i].id, traced[i].id);
    EXPECT_NE(plain[i].id, predicted[i].id);
    EXPECT_NE(traced[i].id, predicted[i].id);
  }
  EXPECT_FALSE(plain[0].describe().contains("command"));
  EXPECT_FALSE(plain[0].describe().contains("dram_trace"));
  EXPECT_EQ(traced[0].describe()["dram_trace"], true);
  EXPECT_EQ(traced[0].describe()["sample"], 1000);
  EXPECT_EQ(predicted[0].describe()["command"], "predict");
  const RunOptions back = RunOptions::from_job(traced[0].describe());
  EXPECT_EQ(back.command, "run");
  EXPECT_TRUE(back.dram_trace);
  EXPECT_EQ(back.sample, 1000u);
}

// Expands every .json spec below `dir`; returns how many there were.
size_t expand_every_spec(const std::string& dir) {
  size_t specs = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
    if (entry.path().extension() != ".json") continue;
    ++specs;
    EXPECT_FALSE(expand(SweepSpec::from_file(entry.path().string()), Hash128()).empty())
        << entry.path();
  }
  return specs;
}

TEST(SweepSpec, EveryExampleSpecExpands) {
  EXPECT_GE(expand_every_spec(GPUTLM_SOURCE_DIR "/sweeps-examples"), 2u);
}

TEST(SweepSpec, EveryStudySpecExpands) {
  EXPECT_GE(expand_every_spec(GPUTLM_SOURCE_DIR "/studies"), 10u);
}

// studies/lwm/tr_machine.json writes each main configuration of the large-warp study again over
// configs/narasiman-tr.json (the paper's Table 1 machine): each must be its dissertation
// counterpart in studies/lwm/runs.json with only narasiman-tr's own keys changed.
TEST(SweepSpec, TheLwmStudyOnThePapersMachineIsEachDissertationConfigWithOnlyTheMachineChanged) {
  const SweepSpec tr = SweepSpec::from_file(GPUTLM_SOURCE_DIR "/studies/lwm/tr_machine.json");
  const SweepSpec dissertation = SweepSpec::from_file(GPUTLM_SOURCE_DIR "/studies/lwm/runs.json");
  nlohmann::json machine =
      nlohmann::json::parse(std::ifstream(GPUTLM_SOURCE_DIR "/configs/narasiman-tr.json"));
  for (const char* k : {"base", "name", "description"}) machine.erase(k);
  auto without_names = [](nlohmann::json j) {
    j.erase("name");
    j.erase("description");
    return j;
  };
  ASSERT_EQ(tr.configs.size(), 7u);
  for (const ConfigEntry& c : tr.configs) {
    const std::string label = c.label == "narasiman-tr"
                                  ? "narasiman-baseline"
                                  : c.label.substr(c.label.rfind("tr-", 0) == 0 ? 3 : 0);
    const auto d = std::find_if(dissertation.configs.begin(), dissertation.configs.end(),
                                [&](const ConfigEntry& e) { return e.label == label; });
    ASSERT_NE(d, dissertation.configs.end())
        << c.label << ": no '" << label << "' in studies/lwm/runs.json";
    nlohmann::json expected = d->resolved;
    expected.merge_patch(machine);
    EXPECT_EQ(without_names(c.resolved), without_names(expected)) << c.label;
  }
}

TEST(SweepSpec, KeyGivenTwiceInOneObjectIsRefusedWithItsPath) {
  const std::string file = ::testing::TempDir() + "sweep_twice.json";
  std::ofstream(file)
      << R"({"configs": [")" GPUTLM_SOURCE_DIR
         R"(/configs/fermi-gtx480.json"], "workloads": [")" GPUTLM_SOURCE_DIR
      << R"(/traces/micro/vecadd"], "zip": [{"core.fetch_group_size": [1]}, {"core.lwm.size": [1], "core.lwm.size": [2]}]})";
  try {
    SweepSpec::from_file(file);
    ADD_FAILURE() << "a key given twice was accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), file + ": key 'zip[1].core.lwm.size': given twice");
  }
}

}  // namespace
}  // namespace gputlm::sweep
