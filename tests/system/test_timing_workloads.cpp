// Every workload runs on the timing model under both presets and still matches its CPU
// reference: the timing model can never silently change results.
#include <gtest/gtest.h>

#include "tb/sc_kernel.h"
#include "tb/timing_run.h"
#include "tb/workload/catalog.h"

namespace gputlm::workload {
void PrintTo(const CatalogEntry& e, std::ostream* os) { *os << e.name; }
}  // namespace gputlm::workload

namespace gputlm {
namespace {

std::string test_name(const testing::TestParamInfo<workload::CatalogEntry>& info) {
  std::string n = info.param.name;
  for (char& c : n)
    if (!isalnum(static_cast<unsigned char>(c))) c = '_';
  return n;
}

class TimedWorkloads : public testing::TestWithParam<workload::CatalogEntry> {
 protected:
  void run_on(const std::string& preset) {
    tb::fresh_sc_kernel();
    workload::Workload w(GetParam().dir, "test");
    const gpu::GpuSpec spec = gpu::GpuSpec::from_file(std::string(GPUTLM_SOURCE_DIR) + "/configs/" + preset + ".json");
    const tb::TimingRun run = tb::run_timing(w, spec, {});
    for (const auto& b : run.verify.buffers) EXPECT_EQ(b.mismatches, 0u) << b.name << ": " << b.first_mismatch;
    EXPECT_TRUE(run.verify.ok());
    EXPECT_GT(run.cycles, 0u);
    EXPECT_GT(run.ipc(), 0.0);
  }
};

TEST_P(TimedWorkloads, VerifyOnNarasimanBaseline) { run_on("narasiman-baseline"); }
TEST_P(TimedWorkloads, VerifyOnFermiGtx480) { run_on("fermi-gtx480"); }

INSTANTIATE_TEST_SUITE_P(All, TimedWorkloads,
                         testing::ValuesIn(workload::list_workloads(std::string(GPUTLM_SOURCE_DIR) + "/traces")), test_name);

}  // namespace
}  // namespace gputlm
