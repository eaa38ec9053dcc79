// --vcd-window traces only inside the window while the run goes on (app/wave_window.h): its file
// must say what clipping the whole run's waves to the window says, value for value, and the
// statistics must not move.
#include <gtest/gtest.h>

#include <algorithm>

#include "app/timing_run.h"
#include "app/timing_waves.h"
#include "app/vcd_file.h"
#include "support/files.h"
#include "support/sc_kernel.h"

namespace gputlm {
namespace {

// The file from its definitions on (the header holds the date SystemC wrote it).
std::string body(const std::string& path) {
  const std::string text = test::read_text(path);
  const size_t at = text.find("$enddefinitions");
  return at == std::string::npos ? "" : text.substr(at);
}

struct Waves {
  nlohmann::json stats;
  std::string vcd;
};

Waves run(const std::string& preset, const std::string& scope, uint64_t from, uint64_t to,
          const std::string& vcd) {
  test::fresh_sc_kernel();
  workload::Workload w(std::string(GPUTLM_SOURCE_DIR) + "/traces/micro/divergence", "test");
  app::TimingOptions o;
  o.vcd_path = vcd;
  o.vcd_scope = scope;
  o.vcd_from = from;
  o.vcd_to = to;
  nlohmann::json j = app::to_json(app::run_timing(
      w, gpu::GpuSpec::from_file(std::string(GPUTLM_SOURCE_DIR) + "/configs/" + preset + ".json"),
      o));
  j.erase("host_seconds");
  return {j, vcd};
}

class WaveWindowOn : public testing::TestWithParam<std::string> {};

// fermi-gtx480's clocks need 1 ps VCD units and its interconnect and DRAM run at other rates than
// the cores; narasiman-baseline has one 1 GHz clock.
TEST_P(WaveWindowOn, AWindowedRunWritesWhatClippingTheWholeRunsWavesGives) {
  const std::string preset = GetParam();
  const test::ScratchDir dir("wave_window_" + preset);
  const uint64_t from = 2000, to = 2600;
  const Waves whole = run(preset, "", 0, ~0ull, (dir.path() / "whole.vcd").string());
  const Waves window = run(preset, "", from, to, (dir.path() / "window.vcd").string());
  EXPECT_EQ(window.stats, whole.stats) << "tracing a window changed the statistics";
  const gpu::GpuSpec spec =
      gpu::GpuSpec::from_file(std::string(GPUTLM_SOURCE_DIR) + "/configs/" + preset + ".json");
  const uint64_t units = 1000 / app::vcd_unit_ps(app::clock_periods_ps(spec));
  app::clip_vcd(whole.vcd, from * units, to * units);
  const std::string clipped = body(whole.vcd), windowed = body(window.vcd);
  ASSERT_NE(windowed.find("\n#" + std::to_string(from * units) + "\n$dumpvars"), std::string::npos)
      << windowed.substr(0, 400);
  EXPECT_GT(std::count(windowed.begin(), windowed.end(), '#'), 20)
      << "the window shows the run's activity";
  EXPECT_EQ(windowed, clipped);
}

INSTANTIATE_TEST_SUITE_P(Presets, WaveWindowOn,
                         testing::Values("narasiman-baseline", "fermi-gtx480"),
                         [](const auto& info) {
                           return info.param == "fermi-gtx480" ? std::string("Fermi")
                                                               : std::string("Narasiman");
                         });

// A window that starts after the run has ended still gives a file GTKWave reads: the header and
// the values at the run's end, at the window's start.
TEST(WaveWindow, AWindowAfterTheRunsEndGivesTheLastValues) {
  const test::ScratchDir dir("wave_window_late");
  const Waves w = run("narasiman-baseline", "gpu.core0", 50'000'000, 50'000'100,
                      (dir.path() / "late.vcd").string());
  const std::string text = body(w.vcd);
  EXPECT_NE(text.find("#50000000\n$dumpvars\nb"), std::string::npos) << text.substr(0, 300);
  EXPECT_EQ(std::count(text.begin(), text.end(), '#'), 1) << "nothing changes after the run";
}

}  // namespace
}  // namespace gputlm
