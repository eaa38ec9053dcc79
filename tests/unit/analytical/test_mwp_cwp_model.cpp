// The MWP/CWP analytical model (Hong & Kim, ISCA 2009) against the paper's worked example (Table
// 2), synthetic test vectors worked out from the paper's equations (our digest of it, section 6.2),
// the paper's Fig. 5-8 scenarios, and the GPU presets of Tables 3 and 6. Every expected number is
// printed in the paper or the digest; the model computes every actual one.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>

#include "models/analytical/gpu_params.h"
#include "models/analytical/mwp_cwp_model.h"
#include "models/common/error.h"

namespace gputlm::analytical {
namespace {

// A value printed with `decimals` decimals must round to the printed one.
#define EXPECT_PRINTED(actual, printed, decimals) \
  EXPECT_NEAR((actual), (printed), 0.5 * std::pow(10.0, -(decimals)) + 1e-12) << #actual

// Table 2 / Sec. 3.6: 80 GB/s, 1 GHz, 16 SMs, Mem_LD 420, Departure_del_uncoal 10 (the FX5600
// values).
GpuParams table2_system() {
  GpuParams g;
  g.name = "table2";
  g.sm_count = 16;
  g.freq_ghz = 1.0;
  g.mem_bandwidth_gbps = 80;
  g.mem_ld = 420;
  g.departure_del_uncoal = 10;
  g.uncoal_per_mw = 32;
  g.validate("code");
  return g;
}

// Fig. 12/13: MatrixMulKernel<<<80, 128>>>, 5 active blocks per SM, 27 computation instructions,
// 6 uncoalesced global loads, 6 barriers per thread.
KernelInputs table2_kernel() {
  KernelInputs k;
  k.threads_per_block = 128;
  k.blocks = 80;
  k.active_blocks_per_sm = 5;
  k.active_sms = 16;
  k.comp_insts = 27;
  k.uncoal_mem_insts = 6;
  k.coal_mem_insts = 0;
  k.synch_insts = 6;
  return k;
}

// Digest 6.2: FX5600 (its defaults here), 48 blocks of 256 threads, 3 blocks per SM (N = 24).
KernelInputs vector_kernel(double comp, double coal, double uncoal) {
  KernelInputs k;
  k.threads_per_block = 256;
  k.blocks = 48;
  k.active_blocks_per_sm = 3;
  k.comp_insts = comp;
  k.coal_mem_insts = coal;
  k.uncoal_mem_insts = uncoal;
  return k;
}

void print(const char* what, const ModelResult& r) {
  std::printf(
      "[%s] case=%s MWP=%.6g (%s) CWP=%.6g N=%g Mem_L=%g Mem=%g Comp=%g Exec_app=%.10g Synch=%.10g "
      "Total=%.10g CPI=%.6g\n",
      what, to_string(r.exec_case), r.mwp, to_string(r.mwp_limit), r.cwp, r.n, r.mem_l,
      r.mem_cycles, r.comp_cycles, r.exec_cycles_app, r.synch_cost, r.exec_cycles_with_synch,
      r.cpi);
}

TEST(MwpCwpModel, Table2WorkedExampleInExactArithmeticGives50728_1875) {
  const ModelResult r = evaluate(table2_system(), table2_kernel());
  print("Table 2 exact", r);
  // Digest 5.3, "exact arithmetic" column.
  EXPECT_EQ(r.n, 20);
  EXPECT_EQ(r.rep, 1);
  EXPECT_EQ(r.weight_uncoal, 1);
  EXPECT_EQ(r.weight_coal, 0);
  EXPECT_EQ(r.departure_delay, 320);
  EXPECT_EQ(r.mem_l, 730);
  EXPECT_DOUBLE_EQ(r.mwp_without_bw_full, 2.28125);
  EXPECT_PRINTED(r.bw_per_warp_gbps, 0.1753425, 7);
  EXPECT_DOUBLE_EQ(r.mwp_peak_bw, 28.515625);
  EXPECT_DOUBLE_EQ(r.mwp, 2.28125);
  EXPECT_EQ(r.mwp_limit, MwpLimit::DepartureDelay);
  EXPECT_EQ(r.comp_cycles, 132);
  EXPECT_EQ(r.mem_cycles, 4380);
  EXPECT_PRINTED(r.cwp_full, 34.1818, 4);
  EXPECT_EQ(r.cwp, 20);
  // "Since CWP is greater than MWP, we use Equation (23)" (Sec. 3.6).
  EXPECT_EQ(r.exec_case, ExecCase::Eq23);
  EXPECT_FALSE(r.via_comp_over_mem);
  const double tol = 1e-9;  // digest 5.3: relative 1e-9 in exact arithmetic
  EXPECT_NEAR(r.exec_cycles_app, 38428.1875, 38428.1875 * tol);
  EXPECT_NEAR(r.synch_cost, 12300, 12300 * tol);
  EXPECT_NEAR(r.exec_cycles_with_synch, 50728.1875, 50728.1875 * tol);
  // Digest 2.11: the main term of Eq. 23 is N x #Mem_insts x Departure_delay = 20 x 6 x 320.
  EXPECT_DOUBLE_EQ(r.mem_cycles * r.n / r.mwp, 38400);
  // And within 0.1 % of the paper's printed, rounded 50738 (digest 5.3).
  EXPECT_NEAR(r.exec_cycles_with_synch, 50738, 50738 * 1e-3);
  // Digest 5.3 CPI (660 warp instructions per SM): 58.225 without, 76.861 with synchronisation.
  EXPECT_PRINTED(r.cpi, 58.225, 3);
  EXPECT_PRINTED(r.cpi_with_synch, 76.861, 3);
}

TEST(MwpCwpModel, Table2WorkedExampleWithThePapersRoundingGives50738) {
  ModelOptions o;
  o.rounding_2_10_4 = Rounding::PaperTable2;
  const ModelResult r = evaluate(table2_system(), table2_kernel(), o);
  print("Table 2 rounded", r);
  // Every value as printed in Table 2.
  EXPECT_DOUBLE_EQ(r.mwp_without_bw_full, 2.28);
  EXPECT_DOUBLE_EQ(r.bw_per_warp_gbps, 0.175);
  EXPECT_DOUBLE_EQ(r.mwp_peak_bw, 28.57);
  EXPECT_DOUBLE_EQ(r.mwp, 2.28);
  EXPECT_DOUBLE_EQ(r.cwp_full, 34.18);
  EXPECT_EQ(r.cwp, 20);
  EXPECT_EQ(r.exec_case, ExecCase::Eq23);
  EXPECT_NEAR(r.exec_cycles_app, 38450, 1e-6);
  EXPECT_NEAR(r.synch_cost, 12288, 1e-6);
  EXPECT_NEAR(r.exec_cycles_with_synch, 50738, 1e-6);
}

TEST(MwpCwpModel, VectorBCoalescedComputeHeavyKernelTakesEq24AndHidesItsLoads) {
  const ModelResult r = evaluate(GpuParams{}, vector_kernel(17000, 1000, 0));
  print("Test B", r);
  EXPECT_EQ(r.mwp_without_bw_full, 105);
  EXPECT_PRINTED(r.mwp, 11.6667, 4);
  EXPECT_EQ(r.mwp_limit, MwpLimit::PeakBandwidth);
  EXPECT_EQ(r.comp_cycles, 72000);
  EXPECT_EQ(r.mem_cycles, 420000);
  EXPECT_PRINTED(r.cwp, 6.8333, 4);
  EXPECT_EQ(r.exec_case, ExecCase::Eq24);  // MWP > CWP
  EXPECT_NEAR(r.exec_cycles_app, 1728420, 1e-6);
  EXPECT_PRINTED(r.cpi, 4.001, 3);
}

TEST(MwpCwpModel, VectorBPrimeUncoalescedKernelTakesEq23) {
  const ModelResult r = evaluate(GpuParams{}, vector_kernel(17000, 0, 1000));
  print("Test B'", r);
  EXPECT_DOUBLE_EQ(r.mwp, 2.28125);
  EXPECT_PRINTED(r.mwp_peak_bw, 20.278, 3);
  EXPECT_EQ(r.mwp_limit, MwpLimit::DepartureDelay);
  EXPECT_EQ(r.mem_cycles, 730000);
  EXPECT_PRINTED(r.cwp, 11.139, 3);
  EXPECT_EQ(r.exec_case, ExecCase::Eq23);  // CWP >= MWP
  EXPECT_NEAR(r.exec_cycles_app, 7680092.25, 1e-6);
  EXPECT_PRINTED(r.cpi, 17.778, 3);
}

TEST(MwpCwpModel, VectorCOneWarpPerSmTakesEq22) {
  KernelInputs k;
  k.threads_per_block = 32;
  k.blocks = 16;
  k.active_blocks_per_sm = 1;
  k.comp_insts = 10;
  k.uncoal_mem_insts = 1;
  const ModelResult r = evaluate(GpuParams{}, k);
  print("Test C", r);
  EXPECT_EQ(r.n, 1);
  EXPECT_EQ(r.mwp, 1);
  EXPECT_EQ(r.cwp, 1);
  EXPECT_EQ(r.mwp_limit, MwpLimit::ActiveWarps);
  EXPECT_EQ(r.exec_case, ExecCase::Eq22);  // MWP == N == CWP
  // Fig. 8a (Case 6): one warp serialises everything, Sum C + Sum M = 730 + 44.
  EXPECT_EQ(r.exec_cycles_app, 774);
  EXPECT_EQ(r.exec_cycles_app, r.mem_cycles + r.comp_cycles);
  EXPECT_PRINTED(r.cpi, 70.36, 2);
}

TEST(MwpCwpModel, VectorDTakesEq24WhenCompIsBelowMem) {
  const ModelResult r = evaluate(GpuParams{}, vector_kernel(100, 1, 0));
  print("Test D", r);
  EXPECT_EQ(r.comp_cycles, 404);
  EXPECT_EQ(r.mem_cycles, 420);
  EXPECT_PRINTED(r.cwp, 2.0396, 4);
  EXPECT_PRINTED(r.mwp, 11.667, 3);
  EXPECT_EQ(r.exec_case, ExecCase::Eq24);
  EXPECT_NEAR(r.exec_cycles_app, 10116, 1e-6);
  EXPECT_PRINTED(r.cpi, 4.173, 3);
}

// Digest 2.10.2 / test vector E: Comp_cycles > Mem_cycles with MWP > CWP.
TEST(MwpCwpModel, VectorECompOverMemClauseOptionsGiveLiteralClampedAndEq24Values) {
  const KernelInputs k = vector_kernel(200, 1, 0);
  const ModelResult lit = evaluate(GpuParams{}, k);
  print("Test E literal", lit);
  EXPECT_EQ(lit.comp_cycles, 804);
  EXPECT_EQ(lit.mem_cycles, 420);
  EXPECT_PRINTED(lit.cwp, 1.522, 3);
  EXPECT_EQ(lit.exec_case, ExecCase::Eq23);
  EXPECT_TRUE(lit.via_comp_over_mem);
  EXPECT_NEAR(lit.exec_cycles_app, 9440, 1e-6);
  // Below the issue bound 24 x 804 = 19296: the literal reading is not physically achievable.
  EXPECT_EQ(lit.issue_bound, 19296);
  EXPECT_LT(lit.exec_cycles_app, lit.issue_bound);

  ModelOptions o;
  o.comp_over_mem_2_10_2 = CompOverMem::ClampToIssueBound;
  const ModelResult clamped = evaluate(GpuParams{}, k, o);
  print("Test E clamped", clamped);
  EXPECT_TRUE(clamped.clamped_to_issue_bound);
  EXPECT_EQ(clamped.exec_cycles_app, 19296);

  o.comp_over_mem_2_10_2 = CompOverMem::Case5UsesEq24;
  const ModelResult eq24 = evaluate(GpuParams{}, k, o);
  print("Test E eq24", eq24);
  EXPECT_EQ(eq24.exec_case, ExecCase::Eq24);
  EXPECT_EQ(eq24.exec_cycles_app, 19716);
}

// The Fig. 5-7 scenarios (Sec. 3.2, digest 6.1) on FX5600-like machines. One computation period
// C = Comp_p, one memory period M = Mem_L; 1 or 2 coalesced loads per warp.
struct Scenario {
  const char* figure;
  uint32_t warps;     // N, one block per SM
  double comp, coal;  // per-thread counts
  double dep_coal;    // sets MWP_Without_BW_full = 420 / dep_coal
  double bandwidth;   // large enough that MWP_peak_BW does not bind
};
ModelResult run(const Scenario& s, const ModelOptions& o = {}) {
  GpuParams g;
  g.departure_del_coal = s.dep_coal;
  g.mem_bandwidth_gbps = s.bandwidth;
  KernelInputs k;
  k.threads_per_block = 32 * s.warps;
  k.blocks = 16;
  k.active_blocks_per_sm = 1;
  k.comp_insts = s.comp;
  k.coal_mem_insts = s.coal;
  return evaluate(g, k, o);
}
// Fig. 5a Case 1: 8 warps, 1C + 1M each, M = 3C, MWP = 2 (420 / 210), CWP = 4.
const Scenario kFig5a{"Fig. 5a", 8, 34, 1, 210, 1000};
// Fig. 5b Case 2: 4 warps, 2C + 2M each, M = 3C, MWP = 2, CWP = 4.
const Scenario kFig5b{"Fig. 5b", 4, 68, 2, 210, 1000};
// Fig. 6a Case 3: 8 warps, 1C + 1M, M = 3C, MWP = 8 (N binds), CWP = 4.
const Scenario kFig6a{"Fig. 6a", 8, 34, 1, 4, 1000};
// Fig. 7 Case 5: 8 warps, C > M (C = 600, M = 420, so CWP = 1.7 < 2), MWP = 8.
const Scenario kFig7{"Fig. 7", 8, 149, 1, 4, 1000};

TEST(MwpCwpModel, Fig5CwpAboveMwpTakesEq23AndOnlyEq1GivesThePapersTwoComputationPeriods) {
  for (const Scenario& s : {kFig5a, kFig5b}) {
    const ModelResult r = run(s);
    print(s.figure, r);
    ASSERT_EQ(r.mwp, 2) << s.figure;
    ASSERT_EQ(r.cwp, 4) << s.figure;
    ASSERT_EQ(r.mem_l, 3 * r.comp_p) << s.figure;
    EXPECT_EQ(r.exec_case, ExecCase::Eq23) << s.figure;
    const double C = r.comp_p, M = r.mem_l;
    // Digest 2.10.1: Eq. 23 gives 4M + 1C ...
    EXPECT_EQ(r.exec_cycles_app, 4 * M + 1 * C) << s.figure;
    // ... while Sec. 3.2.1 says both cases take "2 computation periods + 4 memory periods" (Eq. 1).
    ModelOptions o;
    o.comp_periods_2_10_1 = CompPeriods::Eq1Mwp;
    EXPECT_EQ(run(s, o).exec_cycles_app, 4 * M + 2 * C) << s.figure;
  }
}

TEST(MwpCwpModel, Fig6aMwpAboveCwpTakesEq24EightComputationPeriodsAndOneMemoryPeriod) {
  const ModelResult r = run(kFig6a);
  print(kFig6a.figure, r);
  EXPECT_EQ(r.mwp, 8);
  EXPECT_EQ(r.cwp, 4);
  EXPECT_EQ(r.exec_case, ExecCase::Eq24);
  EXPECT_EQ(r.exec_cycles_app, 8 * r.comp_p + 1 * r.mem_l);  // Sec. 3.2.2, Case 3
}

TEST(MwpCwpModel, Fig7Case5OnlyTheEq24ReadingGivesThePapersTotal) {
  const ModelResult lit = run(kFig7);
  print("Fig. 7 literal", lit);
  ASSERT_LT(lit.cwp, 2);
  ASSERT_EQ(lit.mwp, 8);
  const double C = lit.comp_p, M = lit.mem_l;
  ASSERT_GT(C, M);
  // Literal Eq. 23 condition (Comp_cycles > Mem_cycles): M + 7C (digest 6.1, Case 5).
  EXPECT_EQ(lit.exec_case, ExecCase::Eq23);
  EXPECT_EQ(lit.exec_cycles_app, M + 7 * C);
  // Sec. 3.2.2: "8 computation periods + 1 memory period".
  ModelOptions o;
  o.comp_over_mem_2_10_2 = CompOverMem::Case5UsesEq24;
  EXPECT_EQ(run(kFig7, o).exec_cycles_app, M + 8 * C);
  // Clamped: the 8 warps still issue 8C.
  o.comp_over_mem_2_10_2 = CompOverMem::ClampToIssueBound;
  EXPECT_EQ(run(kFig7, o).exec_cycles_app, 8 * C);
}

TEST(MwpCwpModel, OptionsLeaveTable2UnchangedWhereTheirReadingsAgree) {
  // CWP >= MWP on its own, a whole number of waves and whole warps: only 2.10.1 applies.
  const double exact = evaluate(table2_system(), table2_kernel()).exec_cycles_with_synch;
  ModelOptions o;
  o.comp_over_mem_2_10_2 = CompOverMem::ClampToIssueBound;
  o.rep_2_10_5 = RepCount::Ceil;
  o.warps_per_block_2_9_5 = WarpsPerBlock::Ceil;
  EXPECT_EQ(evaluate(table2_system(), table2_kernel(), o).exec_cycles_with_synch, exact);
  o.comp_over_mem_2_10_2 = CompOverMem::Case5UsesEq24;
  EXPECT_EQ(evaluate(table2_system(), table2_kernel(), o).exec_cycles_with_synch, exact);
  // Eq. 1 adds one computation period, Comp_p = 132 / 6 = 22 cycles.
  o.comp_periods_2_10_1 = CompPeriods::Eq1Mwp;
  EXPECT_DOUBLE_EQ(evaluate(table2_system(), table2_kernel(), o).exec_cycles_with_synch,
                   exact + 22);
}

TEST(MwpCwpModel, RepIsAPlainDivisionUnlessCeilChargesTheTailWave) {
  GpuParams g = table2_system();
  g.sm_count = 4;
  KernelInputs k = table2_kernel();
  k.active_sms.reset();  // min(4 SMs, blocks)
  k.active_blocks_per_sm = 2;
  k.blocks = 40;  // Sec. 3.4.1: "40 blocks ... 4 SMs ... 2 blocks concurrently, then #Rep is 5"
  ModelOptions ceil;
  ceil.rep_2_10_5 = RepCount::Ceil;
  EXPECT_EQ(evaluate(g, k).rep, 5);
  EXPECT_EQ(evaluate(g, k, ceil).rep, 5);
  k.blocks = 41;  // digest 2.10.5: one block of a sixth wave
  const ModelResult real = evaluate(g, k), tail = evaluate(g, k, ceil);
  EXPECT_EQ(real.rep, 41.0 / 8);
  EXPECT_EQ(tail.rep, 6);
  EXPECT_DOUBLE_EQ(tail.exec_cycles_with_synch / real.exec_cycles_with_synch, 6 / (41.0 / 8));
}

TEST(MwpCwpModel, WarpsPerBlockIsThePapersDivisionUnlessCeilCountsAllocatedWarps) {
  KernelInputs k = table2_kernel();
  k.threads_per_block = 48;  // Sec. 5.2 error source: not a multiple of 32
  ModelOptions ceil;
  ceil.warps_per_block_2_9_5 = WarpsPerBlock::Ceil;
  const ModelResult real = evaluate(table2_system(), k), hw = evaluate(table2_system(), k, ceil);
  EXPECT_EQ(real.n, 48.0 / 32 * 5);
  EXPECT_EQ(hw.n, 2 * 5);
  EXPECT_NE(real.exec_cycles_app, hw.exec_cycles_app);
}

TEST(MwpCwpModel, ZeroMemoryInstructionsGiveTheIssueBoundWithoutDividingByZero) {
  // Mb1 of Table 4: 23 computation instructions per loop, 1000 iterations, no loads.
  KernelInputs k = vector_kernel(23000, 0, 0);
  k.synch_insts = 10;
  for (Rounding rounding : {Rounding::Exact, Rounding::PaperTable2}) {
    ModelOptions o;
    o.rounding_2_10_4 = rounding;
    const ModelResult r = evaluate(GpuParams{}, k, o);
    print("no memory", r);
    EXPECT_EQ(r.exec_case, ExecCase::NoMemory);
    EXPECT_EQ(r.mem_l, 0);
    EXPECT_EQ(r.departure_delay, 0);
    EXPECT_EQ(r.mwp, r.n);
    EXPECT_EQ(r.cwp, 1);
    EXPECT_EQ(r.synch_cost, 0);
    // Digest 2.10.6: Exec = Comp_cycles x N x #Rep; every warp instruction costs Issue_cycles.
    EXPECT_EQ(r.exec_cycles_app, r.comp_cycles * r.n * r.rep);
    EXPECT_EQ(r.cpi, GpuParams{}.issue_cycles);
    EXPECT_TRUE(std::isfinite(r.exec_cycles_with_synch) && std::isfinite(r.cpi_with_synch));
  }
}

template <typename F>
std::string error_key(F f) {
  try {
    f();
  } catch (const ConfigError& e) {
    std::printf("error: %s\n", e.what());
    EXPECT_NE(std::string(e.what()).find("'" + e.key() + "'"), std::string::npos);
    return e.key();
  }
  return "(no error)";
}

TEST(MwpCwpModel, KernelInputsTheModelCannotEvaluateNameTheirField) {
  const GpuParams fx = GpuParams{};
  GpuParams gtx = fx;
  gtx.name = "cc13";
  gtx.uncoal_per_mw = 0;  // CC 1.3: per kernel
  KernelInputs k = table2_kernel();
  EXPECT_EQ(error_key([&] { evaluate(gtx, k); }), "uncoal_per_mw");
  k.uncoal_per_mw = 2;
  EXPECT_NO_THROW(evaluate(gtx, k));
  k = table2_kernel();
  k.active_blocks_per_sm = 9;  // footnote 9: at most 8
  EXPECT_EQ(error_key([&] { evaluate(fx, k); }), "active_blocks_per_sm");
  k.active_blocks_per_sm = 7;  // 28 warps > 24
  EXPECT_EQ(error_key([&] { evaluate(fx, k); }), "active_blocks_per_sm");
  k = table2_kernel();
  k.comp_insts = k.uncoal_mem_insts = 0;
  EXPECT_EQ(error_key([&] { evaluate(fx, k); }), "comp_insts");
  k = table2_kernel();
  k.active_sms = 17;
  EXPECT_EQ(error_key([&] { evaluate(fx, k); }), "active_sms");
}

TEST(AnalyticalGpuParams, BadJsonValuesNameTheirKey) {
  auto load = [](const char* text) {
    return [text] { GpuParams::from_json(nlohmann::json::parse(text), "gpu.json"); };
  };
  EXPECT_EQ(error_key(load(R"({"mem_ld": -420})")), "mem_ld");
  EXPECT_EQ(error_key(load(R"({"departure_del_coal": "four"})")), "departure_del_coal");
  EXPECT_EQ(error_key(load(R"({"departure_del_uncoal": 0})")), "departure_del_uncoal");
  EXPECT_EQ(error_key(load(R"({"mem_bandwith_gbps": 80})")),
            "mem_bandwith_gbps");  // typo: unknown key
  EXPECT_EQ(error_key(load(R"({"coal_per_mw": 2})")), "coal_per_mw");
  EXPECT_EQ(error_key(load(R"({"uncoal_per_mw": 33})")), "uncoal_per_mw");
  EXPECT_EQ(error_key(load(R"({"sm_count": 1.5})")), "sm_count");
  GpuParams p;
  p.freq_ghz = 0;
  EXPECT_EQ(error_key([&] { p.validate("code"); }), "freq_ghz");
}

std::string preset(const std::string& name) {
  return std::string(GPUTLM_SOURCE_DIR) + "/configs/analytical/" + name + ".json";
}

TEST(AnalyticalGpuParams, EachPresetLoadsWithTheValuesOfTables3And6) {
  struct Row {
    const char* file;
    uint32_t sms;
    double freq, bw, mem_ld, dep_uncoal, dep_coal, uncoal;
  };
  for (const Row& t :
       {Row{"8800gtx", 16, 1.35, 86.4, 420, 10, 4, 32},
        Row{"fx5600", 16, 1.35, 76.8, 420, 10, 4, 32}, Row{"8800gt", 14, 1.5, 57.6, 420, 10, 4, 32},
        Row{"gtx280", 30, 1.3, 141.7, 450, 40, 4, 0}}) {
    const GpuParams g = GpuParams::from_file(preset(t.file));
    EXPECT_EQ(g.name, t.file);
    EXPECT_FALSE(g.description.empty());
    EXPECT_EQ(g.sm_count, t.sms) << t.file;
    EXPECT_EQ(g.freq_ghz, t.freq) << t.file;
    EXPECT_EQ(g.mem_bandwidth_gbps, t.bw) << t.file;
    EXPECT_EQ(g.mem_ld, t.mem_ld) << t.file;
    EXPECT_EQ(g.departure_del_uncoal, t.dep_uncoal) << t.file;
    EXPECT_EQ(g.departure_del_coal, t.dep_coal) << t.file;
    EXPECT_EQ(g.uncoal_per_mw, t.uncoal) << t.file;
    EXPECT_EQ(g.issue_cycles, 4);
    EXPECT_EQ(g.load_bytes_per_warp, 128);
  }
}

// Digest 3.4: Mem_L, Departure_delay, MWP_Without_BW_full, BW_per_warp and MWP_peak_BW per preset,
// every SM active, one load per warp of the given transactions (1 = coalesced).
TEST(AnalyticalGpuParams, PresetsGiveTheDigestsDerivedPerGpuQuantities) {
  struct Row {
    const char* file;
    double transactions, mem_l, dep, mwp_wo, bw_per_warp, mwp_peak;
    int peak_decimals;
  };
  // As printed in the digest's table, with the decimals it prints MWP_peak_BW to.
  const Row rows[] = {{"8800gtx", 1, 420, 4, 105, 0.4114, 13.125, 3},
                      {"8800gtx", 32, 730, 320, 2.28125, 0.2367, 22.81, 2},
                      {"fx5600", 1, 420, 4, 105, 0.4114, 11.667, 3},
                      {"fx5600", 32, 730, 320, 2.28125, 0.2367, 20.28, 2},
                      {"8800gt", 1, 420, 4, 105, 0.4571, 9.000, 3},
                      {"8800gt", 32, 730, 320, 2.28125, 0.2630, 15.64, 2},
                      {"gtx280", 1, 450, 4, 112.5, 0.3698, 12.77, 2},
                      {"gtx280", 2, 490, 80, 6.125, 0.3396, 13.91, 2},
                      {"gtx280", 4, 570, 160, 3.5625, 0.2919, 16.18, 2},
                      {"gtx280", 32, 1690, 1280, 1.3203, 0.0985, 47.97, 2}};
  for (const Row& t : rows) {
    const GpuParams g = GpuParams::from_file(preset(t.file));
    KernelInputs k;
    k.threads_per_block = 256;
    k.active_blocks_per_sm = 1;
    k.blocks = g.sm_count;
    k.comp_insts = 10;
    (t.transactions == 1 ? k.coal_mem_insts : k.uncoal_mem_insts) = 1;
    if (t.transactions > 1) k.uncoal_per_mw = t.transactions;
    const ModelResult r = evaluate(g, k);
    std::printf("[%s x%g] Mem_L=%g Dep=%g MWP_wo_full=%.6g BW_per_warp=%.6g MWP_peak_BW=%.6g\n",
                t.file, t.transactions, r.mem_l, r.departure_delay, r.mwp_without_bw_full,
                r.bw_per_warp_gbps, r.mwp_peak_bw);
    EXPECT_EQ(r.mem_l, t.mem_l) << t.file;
    EXPECT_EQ(r.departure_delay, t.dep) << t.file;
    EXPECT_PRINTED(r.mwp_without_bw_full, t.mwp_wo, 4);
    EXPECT_PRINTED(r.bw_per_warp_gbps, t.bw_per_warp, 4);
    EXPECT_PRINTED(r.mwp_peak_bw, t.mwp_peak, t.peak_decimals);
  }
}

}  // namespace
}  // namespace gputlm::analytical
