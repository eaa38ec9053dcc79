// GPU config files: a preset may name a "base" config and override some of its keys.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "models/common/error.h"
#include "models/gpu/gpu_spec.h"
#include "support/files.h"
#include "support/input_error.h"

namespace gputlm::gpu {
namespace {

class ConfigFiles : public testing::Test {
 protected:
  std::string write(const std::string& name, const std::string& text) {
    return m_files.write(name, text);
  }
  test::ScratchDir m_files{"cfg"};
  const std::filesystem::path& m_dir = m_files.path();
};

TEST_F(ConfigFiles, APresetOverridesTheKeysItNamesAndKeepsTheBasesOthers) {
  const GpuSpec base =
      GpuSpec::from_file(std::string(GPUTLM_SOURCE_DIR) + "/configs/narasiman-baseline.json");
  const GpuSpec two = GpuSpec::from_file(std::string(GPUTLM_SOURCE_DIR) + "/configs/2lev8.json");
  EXPECT_EQ(two.name, "2lev8");
  EXPECT_EQ(two.core.scheduler, "2lev");
  EXPECT_EQ(two.core.scheduling.fetch_group_size, 8u);
  EXPECT_EQ(base.core.scheduler, "rr");
  EXPECT_EQ(two.core.max_warps, base.core.max_warps);
  EXPECT_EQ(two.core.l1d.size_bytes, base.core.l1d.size_bytes);
  EXPECT_NE(two.hash, base.hash);
}

TEST_F(ConfigFiles, AMissingBaseOrACycleIsAnErrorNamingTheFileAndKey) {
  const std::string lone = write("lone.json", R"({"base": "nowhere.json", "name": "x"})");
  // The file whose "base" points nowhere is named, with its key.
  test::input_error([&] { GpuSpec::from_file(lone); },
                    {"lone.json: key 'base': cannot open '", "nowhere.json'"});
  write("a.json", R"({"base": "b.json"})");
  const std::string b = write("b.json", R"({"base": "a.json"})");
  test::input_error([&] { GpuSpec::from_file(b); }, {"key 'base'", "chain longer than 16"});
}

TEST_F(ConfigFiles, RejectsBaseThatIsADirectoryOrNotAName) {
  std::filesystem::create_directories(m_dir / "sub");
  const std::string dir = write("dir.json", R"({"base": "sub"})");
  test::input_error([&] { GpuSpec::from_file(dir); }, {"dir.json: key 'base'", "not a file"});
  const std::string typed = write("typed.json", R"({"base": 5})");
  test::input_error([&] { GpuSpec::from_file(typed); }, {"typed.json: key 'base'"});
}

TEST_F(ConfigFiles, RejectsNumbersOutOfJsonRange) {
  const std::string big = write("big.json", R"({"cores": 1e400})");
  test::input_error([&] { GpuSpec::from_file(big); }, {"big.json", "invalid JSON"});
}

// Found by fuzz_config in CI: an unknown key whose own name has brackets ("x[y]", "x[]",
// "x[99999999999999999999]") was read back as an array index with std::stoul, which threw.
TEST_F(ConfigFiles, AnUnknownKeyWithBracketsInItsNameIsReportedLikeAnyOther) {
  for (const std::string key : {"x[y]", "x[]", "x[99999999999999999999]", "x[-1]"}) {
    const std::string bad = write("brackets.json", R"({"dram": {")" + key + R"(": 1}})");
    const std::string message =
        test::input_error([&] { GpuSpec::from_file(bad); }, {"brackets.json", "unknown key"});
    EXPECT_NE(message.find("key 'dram." + key + "'"), std::string::npos) << message;
  }
  // With a second unknown key after it: the first is reported and the reading ends cleanly.
  const std::string two = write("two.json", R"({"dram": {"x[y]": 1}, "cors": 2})");
  try {
    GpuSpec::from_file(two);
    FAIL() << "accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("key 'dram.x[y]'"), std::string::npos) << e.what();
  }
}

TEST_F(ConfigFiles, AnOverriddenValueIsCheckedLikeAnyOther) {
  const std::string bad = write(
      "bad.json", std::string(R"({"base": ")") + GPUTLM_SOURCE_DIR +
                      R"(/configs/narasiman-baseline.json", "core": {"fetch_group_size": 64}})");
  try {
    GpuSpec::from_file(bad);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("fetch_group_size"), std::string::npos) << e.what();
  }
}

// The MWP/CWP model's constants come from the config (models/gpu/analytical_params.h): on the
// baseline, Mem_LD = L1 hit 1 + interconnect 2 x 1 + one 128-byte flit + a closed-row DRAM access
// of 200; a line takes 4 cycles on the 32 B/cycle channel, the longest departure on its path.
TEST(AnalyticalParams, DerivedFromTheConfigsCoresClocksCachesAndDram) {
  const GpuSpec b =
      GpuSpec::from_file(std::string(GPUTLM_SOURCE_DIR) + "/configs/narasiman-baseline.json");
  EXPECT_EQ(b.analytical.sm_count, 1u);
  EXPECT_DOUBLE_EQ(b.analytical.freq_ghz, 1.0);
  EXPECT_DOUBLE_EQ(b.analytical.mem_bandwidth_gbps, 32.0);
  EXPECT_DOUBLE_EQ(b.analytical.mem_ld, 1 + 2 * 1 + 1 + 200);
  EXPECT_DOUBLE_EQ(b.analytical.departure_del_coal, 4.0);
  EXPECT_DOUBLE_EQ(b.analytical.departure_del_uncoal, 4.0);
  EXPECT_DOUBLE_EQ(b.analytical.issue_cycles, 1.0);  // 32-lane SIMD: a warp instruction a cycle
  EXPECT_EQ(b.analytical.uncoal_per_mw, 0.0);        // per launch, from the run
  EXPECT_EQ(b.analytical.max_warps_per_sm, 32u);
  const GpuSpec f =
      GpuSpec::from_file(std::string(GPUTLM_SOURCE_DIR) + "/configs/fermi-gtx480.json");
  EXPECT_EQ(f.analytical.sm_count, 15u);
  EXPECT_GT(f.analytical.mem_ld,
            b.analytical.mem_ld - 200);  // an L2 and command-timed DRAM on the way
  const GpuSpec a =
      GpuSpec::from_file(std::string(GPUTLM_SOURCE_DIR) + "/configs/hongkim-analytical.json");
  EXPECT_DOUBLE_EQ(a.analytical.issue_cycles, 4.0);  // a warp instruction starts every 4 cycles
  EXPECT_DOUBLE_EQ(a.analytical.mem_ld, 420.0);      // Table 6's FX5600 value, by construction
  EXPECT_DOUBLE_EQ(a.analytical.mem_bandwidth_gbps, 76.8);
}

TEST_F(ConfigFiles, TheAnalyticalSectionOverridesTheDerivedConstantsAndIsChecked) {
  const std::string base =
      std::string(R"({"base": ")") + GPUTLM_SOURCE_DIR + R"(/configs/narasiman-baseline.json", )";
  const GpuSpec g = GpuSpec::from_file(
      write("a.json", base + R"("analytical": {"mem_ld": 420, "departure_del_uncoal": 10}})"));
  EXPECT_DOUBLE_EQ(g.analytical.mem_ld, 420);
  EXPECT_DOUBLE_EQ(g.analytical.departure_del_uncoal, 10);
  EXPECT_DOUBLE_EQ(g.analytical.departure_del_coal, 4.0);  // still derived
  for (const char* bad :
       {R"("analytical": {"mem_ld": -1}})", R"("analytical": {"mem_latency": 5}})"}) {
    try {
      GpuSpec::from_file(write("b.json", base + bad));
      FAIL() << bad;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("analytical"), std::string::npos) << e.what();
    }
  }
}

TEST_F(ConfigFiles, TheAnalyticalModelSectionChoosesTheReadingsOfThePapersInconsistencies) {
  const std::string base =
      std::string(R"({"base": ")") + GPUTLM_SOURCE_DIR + R"(/configs/narasiman-baseline.json", )";
  const GpuSpec literal = GpuSpec::from_file(write("l.json", base + R"("name": "l"})"));
  EXPECT_EQ(literal.analytical_options.comp_over_mem_2_10_2, analytical::CompOverMem::Literal);
  const GpuSpec g = GpuSpec::from_file(
      write("o.json", base + R"("analytical_model": {"comp_over_mem": "clamp", "rep": "ceil"}})"));
  EXPECT_EQ(g.analytical_options.comp_over_mem_2_10_2, analytical::CompOverMem::ClampToIssueBound);
  EXPECT_EQ(g.analytical_options.rep_2_10_5, analytical::RepCount::Ceil);
  EXPECT_EQ(g.analytical_options.comp_periods_2_10_1, analytical::CompPeriods::Eq23MwpMinusOne);
  try {
    GpuSpec::from_file(
        write("x.json", base + R"("analytical_model": {"comp_over_mem": "maybe"}})"));
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("analytical_model.comp_over_mem"), std::string::npos)
        << e.what();
  }
}

// The presets of modern GPUs add up to the whitepapers' figures (docs/models/modern-presets.md):
// SM count, DRAM bandwidth (pseudo-channels x width x rate) and L2 capacity (slices x slice).
TEST(ModernPresets, AddUpToTheWhitepapersFigures) {
  struct Figures {
    const char* file;
    uint32_t sms;
    double gbps;
    uint64_t l2_kb;
  };
  for (const Figures& f :
       {Figures{"volta-v100", 80, 870.4, 6 * 1024}, Figures{"ampere-a100", 108, 1555.2, 40 * 1024},
        Figures{"hopper-h100", 132, 3352.3, 50 * 1024},
        Figures{"hopper-h200", 132, 4800.0, 51 * 1024}}) {
    const GpuSpec g =
        GpuSpec::from_file(std::string(GPUTLM_SOURCE_DIR) + "/configs/" + f.file + ".json");
    EXPECT_EQ(g.cores, f.sms) << f.file;
    EXPECT_NEAR(g.analytical.mem_bandwidth_gbps, f.gbps, 0.1) << f.file;
    ASSERT_TRUE(g.l2.has_value()) << f.file;
    EXPECT_EQ(g.l2->size_bytes * g.partitions / 1024, f.l2_kb) << f.file;
    EXPECT_EQ(g.l2->set_index, "slice") << f.file;
    EXPECT_EQ(g.core.coalescing, "sector") << f.file;
  }
}

}  // namespace
}  // namespace gputlm::gpu
