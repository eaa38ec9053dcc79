// GPU config files: a preset may name a "base" config and override some of its keys.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "models/common/error.h"
#include "models/gpu/gpu_spec.h"

namespace gputlm::gpu {
namespace {

class ConfigFiles : public testing::Test {
 protected:
  void SetUp() override {
    m_dir = std::filesystem::temp_directory_path() / ("gputlm_cfg_" + std::to_string(::getpid()));
    std::filesystem::create_directories(m_dir);
  }
  void TearDown() override { std::filesystem::remove_all(m_dir); }
  std::string write(const std::string& name, const std::string& text) {
    const std::string p = (m_dir / name).string();
    std::ofstream(p) << text;
    return p;
  }
  std::filesystem::path m_dir;
};

TEST_F(ConfigFiles, APresetOverridesTheKeysItNamesAndKeepsTheBasesOthers) {
  const GpuSpec base = GpuSpec::from_file(std::string(GPUTLM_SOURCE_DIR) + "/configs/narasiman-baseline.json");
  const GpuSpec two = GpuSpec::from_file(std::string(GPUTLM_SOURCE_DIR) + "/configs/2lev8.json");
  EXPECT_EQ(two.name, "2lev8");
  EXPECT_EQ(two.core.scheduler, "2lev");
  EXPECT_EQ(two.core.scheduling.fetch_group_size, 8u);
  EXPECT_EQ(base.core.scheduler, "rr");
  EXPECT_EQ(two.core.max_warps, base.core.max_warps);
  EXPECT_EQ(two.core.l1d.size_bytes, base.core.l1d.size_bytes);
  EXPECT_NE(two.hash, base.hash);
}

TEST_F(ConfigFiles, AMissingBaseOrACycleIsAnErrorNamingTheFile) {
  const std::string lone = write("lone.json", R"({"base": "nowhere.json", "name": "x"})");
  EXPECT_THROW(
      try { GpuSpec::from_file(lone); } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("nowhere.json: cannot open config"), std::string::npos) << e.what();
        throw;
      },
      InputError);
  write("a.json", R"({"base": "b.json"})");
  const std::string b = write("b.json", R"({"base": "a.json"})");
  EXPECT_THROW(GpuSpec::from_file(b), InputError);
}

TEST_F(ConfigFiles, AnOverriddenValueIsCheckedLikeAnyOther) {
  const std::string bad = write("bad.json", std::string(R"({"base": ")") + GPUTLM_SOURCE_DIR +
                                                R"(/configs/narasiman-baseline.json", "core": {"fetch_group_size": 64}})");
  try {
    GpuSpec::from_file(bad);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("fetch_group_size"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace gputlm::gpu
