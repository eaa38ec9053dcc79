// The per-event energy model (models/energy/energy_model.h) on hand-made statistics trees.
#include <gtest/gtest.h>

#include "models/energy/energy_model.h"

namespace gputlm::energy {
namespace {

constexpr double kPj = 1e-12;

// A table with round numbers, so each expected energy can be computed by hand.
EnergySpec round_table() {
  EnergySpec s;
  s.core.instruction_pj = 10;
  s.core.register_read_pj = 100;
  s.core.register_write_pj = 200;
  s.core.unit_pj.fill(1);
  s.core.unit_pj[static_cast<size_t>(isa::InstrClass::FloatAlu)] = 5;
  s.core.shared_access_pj = 3;
  s.core.static_w = 2;
  s.l1i = {7, 1, 70, 70, 0};
  s.l1d = {50, 5, 500, 400, 0};
  s.l2 = {60, 6, 600, 600, 0.25};
  s.xbar = {2, 1, 0.5};
  s.dram.vdd = 1.5;
  s.dram.idd0_ma = 500;
  s.dram.idd2n_ma = 200;
  s.dram.idd3n_ma = 400;
  s.dram.idd4r_ma = 1000;
  s.dram.idd4w_ma = 1100;
  s.dram.idd5_ma = 600;
  s.dram.trc_ns = 40;
  s.dram.tras_ns = 30;
  s.dram.trfc_ns = 60;
  s.dram.devices_per_channel = 2;
  s.vgiw.compute_pj = 4;
  s.vgiw.special_pj = 8;
  s.vgiw.load_store_pj = 2;
  s.vgiw.live_value_pj = 2;
  s.vgiw.split_join_pj = 1;
  s.vgiw.control_vector_pj = 1;
  s.vgiw.token_buffer_pj = 3;
  s.vgiw.token_hop_pj = 0.5;
  s.vgiw.shared_access_pj = 3;
  s.vgiw.cvt_read_pj = 9;
  s.vgiw.cvt_update_pj = 18;
  s.vgiw.reconfiguration_pj = 1000;
  s.vgiw.static_w = 3;
  s.vgiw.l1d = {20, 20, 600, 600, 0};
  s.vgiw.lvc = {20, 20, 600, 600, 0};
  return s;
}

// One SIMT core with its caches, two L2 slices, the crossbar and one DRAM channel.
nlohmann::json simt_tree(uint64_t n) {
  nlohmann::json m;
  m["gpu"] = {{"cycles", 1000 * n}};
  m["gpu.core0"] = {{"warp_instructions", 10 * n},
                    {"register_reads", 3 * n},
                    {"register_writes", 2 * n},
                    {"thread_instructions_by_class", {{"float_alu", 32 * n}, {"int_alu", 64 * n}}},
                    {"shared_accesses", 5 * n}};
  m["gpu.core0.l1i"] = {{"hits", 4 * n}, {"misses", n}, {"fills", n}, {"writebacks", 0}};
  m["gpu.core0.l1d"] = {{"hits", 6 * n}, {"misses", 2 * n}, {"fills", 2 * n}, {"writebacks", n}};
  m["gpu.l2_0"] = {{"hits", n}, {"misses", n}, {"fills", n}, {"writebacks", 0}};
  m["gpu.l2_1"] = {{"hits", 0}, {"misses", 0}, {"fills", 0}, {"writebacks", 0}};
  m["gpu.xbar"] = {{"request_flits", 3 * n}, {"response_flits", 5 * n}};
  m["gpu.dram0"] = {{"activates", 4 * n},       {"reads", 3 * n}, {"writes", n},
                    {"bus_busy_cycles", 8 * n}, {"refreshes", n}, {"idle_refreshes", 0},
                    {"active_cycles", 100 * n}};
  return m;
}

EnergyContext context(double seconds, bool vgiw = false) {
  EnergyContext c;
  c.seconds = seconds;
  c.dram_clock_mhz = 1000;  // one DRAM cycle is 1 ns
  c.flit_bytes = 32;
  c.vgiw = vgiw;
  return c;
}

const EnergyPart& part(const EnergyBreakdown& e, const std::string& component,
                       const std::string& name) {
  for (const EnergyComponent& c : e.components)
    if (c.name == component)
      for (const EnergyPart& p : c.parts)
        if (p.name == name) return p;
  ADD_FAILURE() << component << "." << name << " missing";
  static const EnergyPart none;
  return none;
}

TEST(EnergyModel, ComponentsAddUpToTheTotal) {
  const EnergyBreakdown e = estimate_energy(round_table(), simt_tree(7), context(2e-6));
  ASSERT_EQ(e.components.size(), 6u);  // core, l1i, l1d, l2, xbar, dram
  double sum = 0, parts = 0, statics = 0;
  for (const EnergyComponent& c : e.components) {
    sum += c.total();
    for (const EnergyPart& p : c.parts) {
      parts += p.joules;
      if (p.is_static) statics += p.joules;
    }
  }
  EXPECT_GT(e.total(), 0);
  EXPECT_DOUBLE_EQ(sum, e.total());
  EXPECT_DOUBLE_EQ(parts, e.total());
  EXPECT_DOUBLE_EQ(statics, e.static_joules());
  EXPECT_DOUBLE_EQ(e.average_power_w(), e.total() / 2e-6);
}

TEST(EnergyModel, ZeroActivityGivesStaticEnergyOnly) {
  const double s = 1e-3;
  const EnergyBreakdown e = estimate_energy(round_table(), simt_tree(0), context(s));
  // A core of 2 W, two L2 slices of 0.25 W, the crossbar's 0.5 W and one channel of two devices
  // with every bank precharged (IDD2N 200 mA at 1.5 V).
  const double expected = 2 * s + 2 * 0.25 * s + 0.5 * s + 2 * 0.2 * 1.5 * s;
  EXPECT_DOUBLE_EQ(e.static_joules(), e.total());
  EXPECT_NEAR(e.total(), expected, 1e-15);
  EXPECT_DOUBLE_EQ(part(e, "dram", "background").joules, 2 * 0.2 * 1.5 * s);
}

TEST(EnergyModel, ADirectedEventCountGivesItsExactEnergy) {
  const EnergyBreakdown e = estimate_energy(round_table(), simt_tree(1), context(0));
  EXPECT_DOUBLE_EQ(part(e, "core", "instructions").joules, 10 * 10 * kPj);
  EXPECT_DOUBLE_EQ(part(e, "core", "register_file").joules, (3 * 100 + 2 * 200) * kPj);
  EXPECT_DOUBLE_EQ(part(e, "core", "functional_units").joules, (32 * 5 + 64 * 1) * kPj);
  EXPECT_DOUBLE_EQ(part(e, "core", "shared_memory").joules, 5 * 3 * kPj);
  EXPECT_DOUBLE_EQ(part(e, "l1d", "hits").joules, 6 * 50 * kPj);
  EXPECT_DOUBLE_EQ(part(e, "l1d", "writebacks").joules, 400 * kPj);
  EXPECT_DOUBLE_EQ(part(e, "l2", "fills").joules, 600 * kPj);
  EXPECT_DOUBLE_EQ(part(e, "xbar", "flit_hops").joules,
                   8 * 32 * 2 * kPj);  // flits x bytes x pJ per byte-hop
  // DRAM per device, two devices: ACT+PRE (500 x 40 - (400 x 30 + 200 x 10)) x 1.5 = 9000 pJ;
  // bursts (IDD4 - IDD3N) x VDD over the bus cycles, split 3:1 between reads and writes; a refresh
  // (600 - 400) x 1.5 x 60 = 18000 pJ.
  EXPECT_DOUBLE_EQ(part(e, "dram", "activate_precharge").joules, 4 * 9000 * 2 * kPj);
  EXPECT_NEAR(part(e, "dram", "read_bursts").joules, 6e-9 * 0.6 * 1.5 * 2, 1e-20);
  EXPECT_NEAR(part(e, "dram", "write_bursts").joules, 2e-9 * 0.7 * 1.5 * 2, 1e-20);
  EXPECT_DOUBLE_EQ(part(e, "dram", "refresh").joules, 18000 * 2 * kPj);
  EXPECT_DOUBLE_EQ(e.static_joules(), 0);
}

TEST(EnergyModel, DramBanksCountAsActiveOverTheChannelsActiveCycles) {
  nlohmann::json m = simt_tree(0);
  m["gpu.dram0"]["active_cycles"] = 250;  // 250 ns of a 1000 ns stretch
  const EnergyBreakdown e = estimate_energy(round_table(), m, context(1e-6));
  EXPECT_NEAR(part(e, "dram", "background").joules, 2 * 1.5 * (0.4 * 250e-9 + 0.2 * 750e-9), 1e-20);
}

TEST(EnergyModel, VgiwCoresChargeFiringsTokensTheControlVectorTableAndTheirStaticPower) {
  nlohmann::json m;
  m["gpu.core0"] = {{"thread_instructions", 100}};
  m["gpu.core0.cgrf"] = {{"firings_compute", 10},   {"firings_special", 1},
                         {"firings_load_store", 2}, {"firings_live_value", 3},
                         {"firings_split_join", 4}, {"firings_control_vector", 5},
                         {"token_hops", 40},        {"shared_accesses", 6}};
  m["gpu.core0.bbs"] = {{"cvt_word_reads", 2}, {"cvt_word_updates", 3}, {"reconfigurations", 1}};
  m["gpu.core0.l1d"] = {{"hits", 10}, {"misses", 1}, {"fills", 1}, {"writebacks", 0}};
  m["gpu.core0.lvc"] = {{"hits", 8}, {"misses", 0}, {"fills", 0}, {"writebacks", 0}};
  const EnergyBreakdown e = estimate_energy(round_table(), m, context(1e-6, true));
  EXPECT_DOUBLE_EQ(part(e, "fabric", "units").joules, (10 * 4 + 8 + 2 * 2 + 3 * 2 + 4 + 5) * kPj);
  EXPECT_DOUBLE_EQ(part(e, "fabric", "token_buffers").joules, 25 * 3 * kPj);
  EXPECT_DOUBLE_EQ(part(e, "fabric", "token_hops").joules, 40 * 0.5 * kPj);
  EXPECT_DOUBLE_EQ(part(e, "fabric", "shared_memory").joules, 6 * 3 * kPj);
  EXPECT_DOUBLE_EQ(part(e, "fabric", "static").joules, 3 * 1e-6);
  EXPECT_DOUBLE_EQ(part(e, "scheduler", "control_vector_table").joules, (2 * 9 + 3 * 18) * kPj);
  EXPECT_DOUBLE_EQ(part(e, "scheduler", "reconfiguration").joules, 1000 * kPj);
  EXPECT_DOUBLE_EQ(part(e, "l1d", "hits").joules, 10 * 20 * kPj);  // the VGIW L1's per-word energy
  EXPECT_DOUBLE_EQ(part(e, "lvc", "hits").joules, 8 * 20 * kPj);
  for (const EnergyComponent& c : e.components) EXPECT_NE(c.name, "core");
}

TEST(EnergyModel, LaunchEnergiesAddUpToTheRuns) {
  const EnergyBreakdown a = estimate_energy(round_table(), simt_tree(2), context(1e-6));
  const EnergyBreakdown b = estimate_energy(round_table(), simt_tree(3), context(2e-6));
  EnergyBreakdown run;
  run.add(a);
  run.add(b);
  // Every per-event part is linear in the counts, static parts in time: the sum is the energy of
  // the two launches' counts over their summed time.
  const EnergyBreakdown whole = estimate_energy(round_table(), simt_tree(5), context(3e-6));
  EXPECT_DOUBLE_EQ(run.seconds, 3e-6);
  EXPECT_NEAR(run.total(), a.total() + b.total(), 1e-18);
  EXPECT_NEAR(run.total(), whole.total(), 1e-15);
  ASSERT_EQ(run.components.size(), whole.components.size());
  for (size_t i = 0; i < run.components.size(); ++i)
    EXPECT_NEAR(run.components[i].total(), whole.components[i].total(), 1e-15);
}

}  // namespace
}  // namespace gputlm::energy
