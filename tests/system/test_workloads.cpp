// Every workload under traces/ runs on the functional engine and matches its CPU reference; the
// 12 benchmarks of Narasiman et al. (Table 2) fall in the paper's divergent-branch class, measured
// as the average active lanes per warp instruction (high < 20, medium 20-30, low > 30) at the
// study size the experiments use.
#include <gtest/gtest.h>

#include "app/functional_run.h"
#include "io/workload/catalog.h"

namespace gputlm::workload {
// gtest prints parameters; a workload prints as its name.
void PrintTo(const CatalogEntry& e, std::ostream* os) { *os << e.name; }
}  // namespace gputlm::workload

namespace gputlm {
namespace {

std::vector<workload::CatalogEntry> all_workloads() {
  return workload::list_workloads(std::string(GPUTLM_SOURCE_DIR) + "/traces");
}
std::string test_name(const testing::TestParamInfo<workload::CatalogEntry>& info) {
  std::string n = info.param.name;
  for (char& c : n)
    if (!isalnum(static_cast<unsigned char>(c))) c = '_';
  return n;
}

class Workloads : public testing::TestWithParam<workload::CatalogEntry> {};

TEST_P(Workloads, VerifyFunctionallyAtTestSize) {
  workload::Workload w(GetParam().dir, "test");
  const app::FunctionalRun run = app::run_functional(w, {});
  ASSERT_FALSE(run.verify.buffers.empty());
  for (const auto& b : run.verify.buffers)
    EXPECT_EQ(b.mismatches, 0u) << b.name << ": " << b.first_mismatch;
  EXPECT_GT(run.total.warp_instructions, 0u);
}
INSTANTIATE_TEST_SUITE_P(All, Workloads, testing::ValuesIn(all_workloads()), test_name);

TEST(WorkloadCatalog, HasTheFourMicroAndTwelvePaperWorkloads) {
  std::vector<std::string> names;
  for (const auto& e : all_workloads()) names.push_back(e.name);
  for (const char* n :
       {"micro/vecadd", "micro/saxpy", "micro/divergence", "micro/shared_reduction",
        "narasiman/blackjack", "narasiman/sort", "narasiman/viterbi", "narasiman/kmeans",
        "narasiman/decrypt", "narasiman/blackscholes", "narasiman/needleman", "narasiman/hotspot",
        "narasiman/matrix_mult", "narasiman/reduction", "narasiman/histogram", "narasiman/bfs"})
    EXPECT_NE(std::find(names.begin(), names.end(), n), names.end()) << n;
}

std::vector<workload::CatalogEntry> paper_workloads() {
  std::vector<workload::CatalogEntry> out;
  for (auto& e : all_workloads())
    if (e.name.rfind("narasiman/", 0) == 0) out.push_back(e);
  return out;
}

class PaperWorkloads : public testing::TestWithParam<workload::CatalogEntry> {};

TEST_P(PaperWorkloads, BranchIntensityMatchesThePaperClassAtStudySize) {
  workload::Workload w(GetParam().dir, "study");
  const std::string cls = w.spec().doc.at("paper").at("branch").get<std::string>();
  const app::FunctionalRun run = app::run_functional(w, {});
  ASSERT_TRUE(run.verify.ok());
  const double lanes = run.total.average_active_lanes();
  if (cls == "high")
    EXPECT_LT(lanes, 20.0);
  else if (cls == "medium")
    EXPECT_TRUE(lanes >= 20.0 && lanes <= 30.0) << lanes;
  else
    EXPECT_GT(lanes, 30.0) << cls;
  RecordProperty("average_active_lanes", std::to_string(lanes));
}
INSTANTIATE_TEST_SUITE_P(Narasiman, PaperWorkloads, testing::ValuesIn(paper_workloads()),
                         test_name);

}  // namespace
}  // namespace gputlm
