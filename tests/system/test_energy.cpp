// Energy in the reports of timed runs (app/energy_report.h, models/energy): every preset's run
// reports it per launch and in total, its components add up, and the launches add up to the run.
#include <gtest/gtest.h>

#include <cctype>
#include <sstream>
#include <string>

#include "support/timed_workload.h"

namespace gputlm {
namespace {

struct Result {
  nlohmann::json stats;  // app::to_json of the run
  std::string summary;   // app::print_summary of the run
};

Result run(const std::string& preset, const std::string& workload) {
  const app::TimingRun timing = test::run_timed_workload(preset, workload);
  std::ostringstream summary;
  app::print_summary(summary, timing);
  return {app::to_json(timing), summary.str()};
}

double j_of(const nlohmann::json& v) { return v.get<double>(); }

// The figures one energy object must hold together: parts add up to their component, components
// to the total, static plus dynamic to the total, power and energy per instruction from it.
void expect_consistent(const nlohmann::json& e, double thread_instructions,
                       const std::string& where) {
  double components = 0;
  for (const auto& [name, c] : e["components"].items()) {
    double parts = 0;
    for (const auto& [part, j] : c.items())
      if (part != "total_j") parts += j_of(j);
    EXPECT_NEAR(parts, j_of(c["total_j"]), 1e-12 * j_of(e["total_j"])) << where << " " << name;
    components += j_of(c["total_j"]);
  }
  const double total = j_of(e["total_j"]);
  EXPECT_GT(total, 0) << where;
  EXPECT_NEAR(components, total, 1e-12 * total) << where;
  EXPECT_NEAR(j_of(e["static_j"]) + j_of(e["dynamic_j"]), total, 1e-12 * total) << where;
  EXPECT_GT(j_of(e["static_j"]), 0) << where;
  EXPECT_GT(j_of(e["dynamic_j"]), 0) << where;
  EXPECT_NEAR(j_of(e["average_power_w"]), total / j_of(e["seconds"]),
              1e-9 * total / j_of(e["seconds"]))
      << where;
  EXPECT_NEAR(j_of(e["pj_per_thread_instruction"]), total / thread_instructions * 1e12,
              1e-9 * total / thread_instructions * 1e12)
      << where;
}

class EnergyReports : public testing::TestWithParam<std::string> {};

TEST_P(EnergyReports, EveryPresetsRunReportsEnergyPerLaunchAndInTotal) {
  const bool vgiw = GetParam() == "vgiw" || GetParam() == "sgmf";  // a fabric core
  const Result r = run(GetParam(), vgiw ? "rodinia-like/nn" : "micro/divergence");
  ASSERT_EQ(r.stats["verify"]["status"], "verified");
  EXPECT_EQ(r.stats["config"]["energy_table"], "gtx480-40nm");
  ASSERT_TRUE(r.stats["total"].contains("energy"));
  const nlohmann::json& total = r.stats["total"]["energy"];
  expect_consistent(total, r.stats["total"]["thread_instructions"].get<double>(), "total");
  for (const auto& l : r.stats["launches"]) {
    ASSERT_TRUE(l.contains("energy"));
    expect_consistent(l["energy"], l["thread_instructions"].get<double>(),
                      l["kernel"].get<std::string>());
  }
  // The events the model charges were counted.
  const nlohmann::json& c = total["components"];
  if (vgiw) {
    EXPECT_GT(j_of(c["fabric"]["units_j"]), 0);
    EXPECT_GT(j_of(c["fabric"]["token_hops_j"]), 0);
    EXPECT_GT(j_of(c["scheduler"]["control_vector_table_j"]), 0);
    if (GetParam() == "vgiw")
      EXPECT_GT(j_of(c["lvc"]["hits_j"]), 0);
    else
      EXPECT_EQ(j_of(c["lvc"]["total_j"]), 0) << "SGMF passes values inside the fabric";
    EXPECT_FALSE(c.contains("core"));
  } else {
    EXPECT_GT(j_of(c["core"]["instructions_j"]), 0);
    EXPECT_GT(j_of(c["core"]["register_file_j"]), 0);
    EXPECT_GT(j_of(c["core"]["functional_units_j"]), 0);
    EXPECT_GT(j_of(c["l1i"]["hits_j"]), 0);
  }
  EXPECT_GT(j_of(c["dram"]["activate_precharge_j"]), 0);
  EXPECT_GT(j_of(c["xbar"]["flit_hops_j"]), 0);
  EXPECT_NE(r.summary.find("\nenergy              "), std::string::npos) << r.summary;
  EXPECT_NE(r.summary.find("\n  by component      "), std::string::npos) << r.summary;
  EXPECT_NE(r.summary.find("\n  energy            "), std::string::npos) << r.summary;
}

INSTANTIATE_TEST_SUITE_P(Presets, EnergyReports,
                         testing::Values("narasiman-baseline", "narasiman-tr", "2lev8", "lwm256",
                                         "lwm256-2lev1", "tbc256", "dwf", "narasiman-db",
                                         "narasiman-db-hold", "hongkim-analytical", "fermi-gtx480",
                                         "fermi-gtx480-l1-64k", "vgiw", "sgmf"),
                         [](const testing::TestParamInfo<std::string>& p) {
                           std::string n;
                           for (char ch : p.param)
                             n += std::isalnum(static_cast<unsigned char>(ch)) ? ch : '_';
                           return n;
                         });

class LaunchEnergies : public testing::TestWithParam<std::string> {};

TEST_P(LaunchEnergies, PerLaunchEnergiesAddUpToTheRuns) {
  const Result r = run(GetParam(), "rodinia-like/backprop");
  ASSERT_EQ(r.stats["verify"]["status"], "verified");
  const nlohmann::json& launches = r.stats["launches"];
  ASSERT_GE(launches.size(), 2u);
  const nlohmann::json& total = r.stats["total"]["energy"];
  double sum = 0, seconds = 0;
  for (const auto& l : launches) {
    sum += j_of(l["energy"]["total_j"]);
    seconds += j_of(l["energy"]["seconds"]);
  }
  EXPECT_NEAR(sum, j_of(total["total_j"]), 1e-12 * sum);
  EXPECT_NEAR(seconds, j_of(total["seconds"]), 1e-12 * seconds);
  for (const auto& [name, c] : total["components"].items()) {
    double parts = 0;
    for (const auto& l : launches) parts += j_of(l["energy"]["components"][name]["total_j"]);
    EXPECT_NEAR(parts, j_of(c["total_j"]), 1e-12 * sum) << name;
  }
  EXPECT_NE(j_of(launches[0]["energy"]["total_j"]), j_of(total["total_j"]));
}

INSTANTIATE_TEST_SUITE_P(Presets, LaunchEnergies, testing::Values("fermi-gtx480", "vgiw"),
                         [](const testing::TestParamInfo<std::string>& p) {
                           return p.param == "vgiw" ? std::string("Vgiw")
                                                    : std::string("FermiGtx480");
                         });

}  // namespace
}  // namespace gputlm
