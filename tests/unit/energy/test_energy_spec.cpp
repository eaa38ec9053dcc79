// Energy tables (models/energy/energy_spec.h): every value given and in range, errors naming the
// key, tables read from files the configs name, and every preset with one.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>

#include "models/common/config_reader.h"
#include "models/energy/energy_spec.h"
#include "models/gpu/gpu_spec.h"
#include "support/files.h"
#include "support/input_error.h"

namespace gputlm::energy {
namespace {

const std::string kTable = std::string(GPUTLM_SOURCE_DIR) + "/configs/energy/gtx480-40nm.json";

nlohmann::json table() { return read_json_file(kTable); }

TEST(EnergySpec, TheCommittedTableReadsWithEveryValueFromItsFile) {
  const EnergySpec s = EnergySpec::from_json(table(), kTable);
  EXPECT_EQ(s.name, "gtx480-40nm");
  EXPECT_EQ(s.process_nm, 40);
  EXPECT_EQ(s.core.register_read_pj, 256);
  EXPECT_EQ(s.core.unit_pj[static_cast<size_t>(isa::InstrClass::FloatAlu)], 12.5);
  EXPECT_EQ(s.dram.devices_per_channel, 2u);
  EXPECT_GT(s.dram.activate_precharge_pj(), 0);
  EXPECT_EQ(s.vgiw.compute_pj,
            0.9 * s.core.unit_pj[static_cast<size_t>(isa::InstrClass::FloatAlu)]);
}

TEST(EnergySpec, ABadTableValueIsAnErrorNamingTheKey) {
  nlohmann::json j = table();
  j["core"]["unit_pj"]["float_alu"] = -1;
  test::input_error([&] { EnergySpec::from_json(j, "x.json"); },
                    {"x.json", "energy.core.unit_pj.float_alu", "between"});
  j = table();
  j["dram"]["idd0_ma"] = "lots";
  test::input_error([&] { EnergySpec::from_json(j, "x.json"); },
                    {"energy.dram.idd0_ma", "must be a number"});
  j = table();
  j["vgiw"]["lvc"].erase("fill_pj");
  test::input_error([&] { EnergySpec::from_json(j, "x.json"); },
                    {"energy.vgiw.lvc.fill_pj", "missing"});
  j = table();
  j["xbar"]["byte_hop"] = 1;
  test::input_error([&] { EnergySpec::from_json(j, "x.json"); },
                    {"energy.xbar.byte_hop", "byte_hop_pj"});
  j = table();
  j["core"]["sources"] = {{"x", 3}};
  test::input_error([&] { EnergySpec::from_json(j, "x.json"); },
                    {"energy.core.sources.x", "must be a string"});
}

TEST(EnergySpec, DramCurrentsThatGiveANegativeEnergyAreAnErrorNamingTheKey) {
  nlohmann::json j = table();
  j["dram"]["idd0_ma"] = 300;  // below what active and precharge standby draw over tRC
  test::input_error([&] { EnergySpec::from_json(j, "x.json"); },
                    {"energy.dram.idd0_ma", "negative activate energy"});
  j = table();
  j["dram"]["tras_ns"] = 50;
  test::input_error([&] { EnergySpec::from_json(j, "x.json"); }, {"energy.dram.tras_ns", "trc_ns"});
  j = table();
  j["dram"]["idd3n_ma"] = 100;
  test::input_error([&] { EnergySpec::from_json(j, "x.json"); }, {"energy.dram.idd3n_ma"});
}

// The presets of the papers' machines have the 40 nm table; those of Volta and later GPUs
// (docs/models/modern-presets.md) have none: no energy table of their processes is in the
// repository, and a 40 nm one would give them wrong joules.
TEST(EnergySpec, EveryPresetOfThePapersMachinesHasAnEnergyTable) {
  size_t presets = 0;
  const std::set<std::string> modern = {"volta-v100.json", "ampere-a100.json", "hopper-h100.json",
                                        "hopper-h200.json"};
  for (const auto& f :
       std::filesystem::directory_iterator(std::string(GPUTLM_SOURCE_DIR) + "/configs")) {
    if (f.path().extension() != ".json") continue;
    const gpu::GpuSpec spec = gpu::GpuSpec::from_file(f.path().string());
    if (modern.count(f.path().filename().string())) {
      EXPECT_FALSE(spec.energy.has_value()) << f.path();
      continue;
    }
    ASSERT_TRUE(spec.energy.has_value()) << f.path();
    EXPECT_EQ(spec.energy->table_file, "energy/gtx480-40nm.json") << f.path();
    ++presets;
  }
  EXPECT_GE(presets, 13u);
}

class EnergyTableFiles : public testing::Test {
 protected:
  std::string write(const std::string& name, const std::string& text) {
    return m_files.write(name, text);
  }
  test::ScratchDir m_files{"energy"};
  const std::filesystem::path& m_dir = m_files.path();
};

TEST_F(EnergyTableFiles, ATableFileIsReadRelativeToItsConfigAndADerivedConfigPatchesOneValue) {
  write("energy/t.json", table().dump());
  write("base.json", R"({"name": "b", "energy": "energy/t.json"})");
  const std::string derived = write(
      "derived.json", R"({"base": "base.json", "name": "d", "energy": {"core": {"static_w": 3}}})");
  const gpu::GpuSpec b = gpu::GpuSpec::from_file((m_dir / "base.json").string());
  const gpu::GpuSpec d = gpu::GpuSpec::from_file(derived);
  ASSERT_TRUE(b.energy && d.energy);
  EXPECT_EQ(b.energy->core.static_w, 1.59);
  EXPECT_EQ(d.energy->core.static_w, 3);
  EXPECT_EQ(d.energy->core.register_read_pj, b.energy->core.register_read_pj);
  EXPECT_NE(b.hash, d.hash);
}

TEST_F(EnergyTableFiles, AMissingTableOrABadValueInOneNamesTheFileAndKey) {
  const std::string none = write("none.json", R"({"name": "n", "energy": "energy/nowhere.json"})");
  test::input_error([&] { gpu::GpuSpec::from_file(none); },
                    {"none.json: key 'energy'", "cannot open energy table"});
  nlohmann::json t = table();
  t["l2"]["hit_pj"] = -5;
  write("energy/bad.json", t.dump());
  const std::string bad = write("bad.json", R"({"name": "b", "energy": "energy/bad.json"})");
  test::input_error([&] { gpu::GpuSpec::from_file(bad); },
                    {"bad.json (energy table energy/bad.json)", "energy.l2.hit_pj"});
  t = table();
  t["l2"]["hot_pj"] = 1;
  write("energy/typo.json", t.dump());
  const std::string typo = write("typo.json", R"({"name": "t", "energy": "energy/typo.json"})");
  test::input_error([&] { gpu::GpuSpec::from_file(typo); }, {"energy.l2.hot_pj", "unknown key"});
}

}  // namespace
}  // namespace gputlm::energy
