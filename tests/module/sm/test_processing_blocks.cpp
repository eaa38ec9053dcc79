// The SM's processing blocks (core.processing_blocks; NVIDIA Tesla V100 whitepaper, "Volta SM"):
// warp slot s belongs to block s % B, each block has its own scheduler, dispatch of one warp
// instruction a cycle and execution units, and the blocks share the one memory path. Driven on
// narasiman-baseline's 7-stage core (one cycle a stage, 2-cycle units, barrel issue unless a test
// asks for scoreboard issue) with loops that lie in one I-cache line, so that no iteration refills
// a warp's instruction buffer and the cycles follow from the issue rules alone.
#include <gtest/gtest.h>

#include "support/core_run.h"
#include "support/sc_kernel.h"

namespace gputlm {
namespace {

nlohmann::json blocks(uint32_t b, const std::string& issue = "scoreboard") {
  nlohmann::json config = test::preset();
  config["core"]["processing_blocks"] = b;
  config["core"]["issue"] = issue;
  config["core"]["max_inflight_per_warp"] = 16;  // a warp's independent instructions all flow
  return config;
}

// `body` (at most 13 instructions) looped n times with the counter's add, setp and bra. The
// harness runs 22 instructions before a snippet (PCs 0-21) and a 128 B I-cache line holds 16
// instructions of 8 B, so the 10 instructions ahead of the loop put it at PCs 32-47, one line.
// Every thread leaves in %o the cycle its last instruction executed (%clock64).
std::string one_line_loop(const std::string& body, unsigned n) {
  std::string s;
  for (int i = 0; i < 9; ++i) s += "  mov.u32 %r9, 0;\n";
  s += "  mov.u32 %r1, 0;\n$L:\n" + body;
  s += "  add.s32 %r1, %r1, 1;\n  setp.lt.u32 %q1, %r1, " + std::to_string(n) +
       ";\n  @%q1 bra $L;\n  mov.u64 %o, %clock64;";
  return s;
}

// 13 independent integer adds (each reads only its thread's input).
std::string independent_adds() {
  std::string s;
  for (int r = 2; r <= 9; ++r) s += "  add.s32 %r" + std::to_string(r) + ", %ra, 1;\n";
  for (int r = 1; r <= 5; ++r) s += "  add.s64 %rd" + std::to_string(r) + ", %a, 1;\n";
  return s;
}

struct PerIteration {
  Cycle run = 0;                // of the whole run
  std::vector<Cycle> per_warp;  // of each warp's last instruction
};

// Cycles of 100 more iterations of one_line_loop(body): the run's and each warp's.
PerIteration hundred_iterations(const std::string& body, uint32_t threads,
                                const nlohmann::json& config, const std::string& decl = "") {
  const test::CoreRun a = test::run_core(decl + one_line_loop(body, 100), threads, config);
  const test::CoreRun b = test::run_core(decl + one_line_loop(body, 200), threads, config);
  PerIteration p{b.cycles - a.cycles, {}};
  for (uint32_t w = 0; w < threads / 32; ++w)
    p.per_warp.push_back(b.out[w * 32].o - a.out[w * 32].o);
  return p;
}

// Scoreboard issue, one warp: the 13 adds are fetched in consecutive cycles t..t+12, the counter's
// add at t+13; setp reads its result and is fetched the cycle after it retires (7 stages: t+20),
// bra likewise (t+27), and the next iteration waits for bra's outcome (t+34): 34 cycles an
// iteration. Four warps on four blocks each have a block's scheduler, dispatch and ALU to
// themselves: 34 too. On one block they share one fetch a cycle (round-robin): the first warp's
// counter add comes after the four warps' 13 adds, at 4 x 13 = 52, and each of the three 7-cycle
// waits that follow is longer than the other three warps' turns: 52 + 3 x 7 = 73.
TEST(ProcessingBlocks, FourWarpsOnFourBlocksRunAsFastAsOne) {
  EXPECT_EQ(hundred_iterations(independent_adds(), 32, blocks(1)).run, 100u * 34);
  EXPECT_EQ(hundred_iterations(independent_adds(), 32, blocks(4)).run, 100u * 34);
  EXPECT_EQ(hundred_iterations(independent_adds(), 128, blocks(4)).run, 100u * 34);
  EXPECT_EQ(hundred_iterations(independent_adds(), 128, blocks(1)).run, 100u * 73);
}

// Barrel issue with issue_interval 4 (a block's dispatch starts one warp instruction every 4
// cycles): a warp alone on its block issues an instruction every 7 cycles (the pipeline's depth),
// 16 an iteration: 112 cycles. Five warps on four blocks: slots 0 and 4 share block 0. Two warps on
// one dispatch alternate: the first issues at x, the second waits for x + 4, the first's next
// instruction arrives at x + 7 and waits for x + 8: 8 cycles an instruction, 128 an iteration.
TEST(ProcessingBlocks, WarpSlotsFourApartShareABlock) {
  nlohmann::json config = blocks(4, "barrel");
  config["core"]["issue_interval"] = 4;
  const PerIteration p = hundred_iterations(independent_adds(), 5 * 32, config);
  EXPECT_EQ(p.per_warp, (std::vector<Cycle>{12800, 11200, 11200, 11200, 12800}));
  EXPECT_EQ(p.run, 100u * 128);
}

// 9 independent float adds: 30 cycles an iteration for one warp on 32-lane units (as above, 9
// instead of 13). A float_alu of width 16 takes a warp instruction in 2 passes, so a block's
// back-to-back adds start every 2 cycles: the last starts 8 cycles later. The counter's add,
// behind it, then finishes in the same cycle as it, and a block's path to writeback takes one
// instruction a cycle: one more, 39. Two warps on two blocks each have their own unit: 39. On one
// block they share it: 18 adds alternate, every 2 cycles from t + 3, the last (the second warp's)
// starting at t + 37; the first warp's counter add starts at t + 38, finishes at t + 40 with that
// add, enters the path to writeback at t + 41 and retires at t + 42; setp t + 43, bra t + 50 and
// the next iteration t + 57.
TEST(ProcessingBlocks, AHalfWidthUnitStartsABlocksInstructionEveryTwoCycles) {
  std::string adds;
  for (int f = 1; f <= 9; ++f) adds += "  add.f32 %f" + std::to_string(f) + ", %fa, 1.0;\n";
  EXPECT_EQ(hundred_iterations(adds, 32, blocks(4)).run, 100u * 30);
  nlohmann::json half = blocks(4);
  half["core"]["units"]["float_alu"]["width"] = 16;
  EXPECT_EQ(hundred_iterations(adds, 32, half).run, 100u * 39);
  EXPECT_EQ(hundred_iterations(adds, 64, half).run, 100u * 39);
  half["core"]["processing_blocks"] = 1;
  EXPECT_EQ(hundred_iterations(adds, 64, half).run, 100u * 57);
}

// core.fma_pipe_integers, on the test above's block with 16-lane int_alu, int_mul and float_alu
// (2 passes a warp instruction; every unit 2 cycles). 9 independent 32-bit integer adds without
// the key take int_alu alone, starting t, t+2, .., t+16; the counter's add waits for int_alu until
// t+18 and ends a cycle after the float test's (which ended with the last add and then waited a
// cycle for writeback), and setp's second pass costs one more: 41. With the key each add takes
// whichever of int_alu and float_alu (the FMA pipe, IMAD.IADD) starts it first: int_alu at t, t+2,
// .., t+8 and float_alu at t+1, .., t+7, one a cycle as on 32-lane units (30), the counter's add
// at t+9 on float_alu (int_alu is busy until t+10): 5 adds an iteration on float_alu, and its and
// setp's second passes add one cycle each: 32. and.b32 (LOP3) has no IMAD form: the 9 ands take
// int_alu alone as the adds did, but the counter's add now starts at t+17 on float_alu and ends as
// the float test's: 40. mul.lo.s32 (IMAD) takes float_alu's units: 5 float adds and 4 multiplies,
// alternating, start one a cycle on two units without the key (32, as the adds with it) and
// queue on float_alu with it (the counter's add then takes the idle int_alu at t+17: 40).
TEST(ProcessingBlocks, IntegerAddsAndMultipliesShareTheFmaPipe) {
  auto nine = [](const std::string& op, const std::string& src) {
    std::string s;
    for (int r : {0, 2, 3, 4, 5, 6, 7, 8, 9})
      s += "  " + op + " %r" + std::to_string(r) + ", " + src + ";\n";
    return s;
  };
  const std::string adds = nine("add.s32", "%ra, 1"), ands = nine("and.b32", "%ra, 1");
  std::string mixed;
  for (int i = 1; i <= 5; ++i) {
    mixed += "  add.f32 %f" + std::to_string(i) + ", %fa, 1.0;\n";
    if (i < 5) mixed += "  mul.lo.s32 %r" + std::to_string(i + 1) + ", %ra, 3;\n";
  }
  nlohmann::json half = blocks(4);
  for (const char* unit : {"int_alu", "int_mul", "float_alu"})
    half["core"]["units"][unit]["width"] = 16;
  EXPECT_EQ(hundred_iterations(adds, 32, half).run, 100u * 41);
  EXPECT_EQ(hundred_iterations(mixed, 32, half).run, 100u * 32);
  nlohmann::json fma = half;
  fma["core"]["fma_pipe_integers"] = true;
  EXPECT_EQ(hundred_iterations(adds, 32, fma).run, 100u * 32);
  EXPECT_EQ(hundred_iterations(ands, 32, fma).run, 100u * 40);
  EXPECT_EQ(hundred_iterations(mixed, 32, fma).run, 100u * 40);
  const test::CoreRun a = test::run_core(one_line_loop(adds, 100), 32, fma);
  const test::CoreRun b = test::run_core(one_line_loop(adds, 200), 32, fma);
  EXPECT_EQ(
      b.counters.simt.integer_fma_pipe_instructions - a.counters.simt.integer_fma_pipe_instructions,
      500u);
}

// 13 independent shared-memory loads instead of the adds: one warp takes 34 cycles an iteration,
// as with adds (a broadcast load holds the memory path one cycle, like memory_cycles). Four warps
// on four blocks share the SM's one memory path, one load a cycle: 4 x 13 = 52 cycles of loads an
// iteration, where four warps of adds took 34; the path never idles (each warp's counter add, setp
// and bra pass beside it while the other blocks' loads keep it busy), so 52 exactly.
TEST(ProcessingBlocks, MemoryInstructionsOfFourBlocksShareOneMemoryPath) {
  std::string loads;
  for (int r = 2; r <= 9; ++r) loads += "  ld.shared.u32 %r" + std::to_string(r) + ", [sbuf];\n";
  for (int r = 1; r <= 5; ++r) loads += "  ld.shared.u64 %rd" + std::to_string(r) + ", [sbuf];\n";
  const std::string decl = ".shared .align 8 .b8 sbuf[8];\n";
  EXPECT_EQ(hundred_iterations(loads, 32, blocks(4), decl).run, 100u * 34);
  const test::CoreRun r = test::run_core(decl + one_line_loop(loads, 100), 128, blocks(4));
  const Cycle shared = hundred_iterations(loads, 128, blocks(4), decl).run;
  EXPECT_EQ(shared, 100u * 52);
  // A fetch cycle is one in which a block fetched; every other cycle is charged to a stall.
  uint64_t stalls = 0;
  for (uint64_t c : r.counters.simt.stall_cycles) stalls += c;
  EXPECT_EQ(r.counters.simt.fetch_cycles + stalls, r.cycles);
  // Every stage run every cycle (the verification aid): the same run.
  nlohmann::json polled = blocks(4);
  polled["core"]["run_every_cycle"] = true;
  const test::CoreRun p = test::run_core(decl + one_line_loop(loads, 100), 128, polled);
  EXPECT_EQ(p.cycles, r.cycles);
  EXPECT_EQ(p.out[96].o, r.out[96].o);
  EXPECT_EQ(p.counters.simt.fetch_cycles, r.counters.simt.fetch_cycles);
}

// core.shared_path with a shared latency of 10 (the tests above have 1). "blocking" holds the
// memory path for each load's whole latency: the 13 loads of an iteration enter it 10 cycles
// apart, 120 cycles from first to last. The loop's counter add, setp and bra are behind them in
// the block's in-order pipeline; the add passes beside the path as the last load enters (it has
// been waiting behind it), and setp, bra and the next iteration's first load follow, reaching the
// path 21 cycles later (22 in the test above, where the add arrives a cycle after the last load):
// 120 + 21 = 141 cycles an iteration. "pipelined" holds it one cycle a conflict-free load: the
// loads start a cycle apart as with latency 1 and their results come 9 cycles later, hidden behind
// the loop's counter (the next iteration's first load, fetched at t + 34, finds its register's
// previous load retired): 34, and four warps on four blocks 4 x 13 = 52, the path's one load a
// cycle, as with latency 1.
TEST(ProcessingBlocks, APipelinedSharedPathStartsALoadEveryCycleWhateverItsLatency) {
  std::string loads;
  for (int r = 2; r <= 9; ++r) loads += "  ld.shared.u32 %r" + std::to_string(r) + ", [sbuf];\n";
  for (int r = 1; r <= 5; ++r) loads += "  ld.shared.u64 %rd" + std::to_string(r) + ", [sbuf];\n";
  const std::string decl = ".shared .align 8 .b8 sbuf[8];\n";
  nlohmann::json config = blocks(4);
  config["core"]["shared_latency"] = 10;
  EXPECT_EQ(hundred_iterations(loads, 32, config, decl).run, 100u * 141);
  config["core"]["shared_path"] = "pipelined";
  EXPECT_EQ(hundred_iterations(loads, 32, config, decl).run, 100u * 34);
  EXPECT_EQ(hundred_iterations(loads, 128, config, decl).run, 100u * 52);
  config["core"]["shared_path"] = "eager";
  const std::string error = test::config_error(config);
  EXPECT_NE(error.find("core.shared_path"), std::string::npos) << error;
}

// core.register_bank_ports: 5 multiply-adds an iteration, each reading three distinct registers
// (%f2, %f3, %f4, numbered consecutively, so one bank holds two of them). With one port a bank, the
// bank with two costs each a second read cycle: 100 more iterations add 500 conflict cycles, and
// cycles (a block reads one instruction's operands at a time). With two ports (Volta's 64-bit
// banks) a bank reads both at once: no conflict cycle, as fast as with no banks at all.
TEST(ProcessingBlocks, ABankReadsAsManyRegistersACycleAsItHasPorts) {
  std::string fmas;
  for (int f = 5; f <= 9; ++f) fmas += "  fma.rn.f32 %f" + std::to_string(f) + ", %f2, %f3, %f4;\n";
  // Conflict cycles and cycles of 100 more iterations.
  auto hundred = [&](const nlohmann::json& config) {
    const test::CoreRun a = test::run_core(one_line_loop(fmas, 100), 32, config);
    const test::CoreRun b = test::run_core(one_line_loop(fmas, 200), 32, config);
    return std::pair{b.counters.simt.register_bank_conflict_cycles -
                         a.counters.simt.register_bank_conflict_cycles,
                     b.cycles - a.cycles};
  };
  nlohmann::json config = blocks(4);
  config["core"]["register_banks"] = 0;
  const auto none = hundred(config);
  config["core"]["register_banks"] = 2;
  const auto one = hundred(config);
  config["core"]["register_bank_ports"] = 2;
  const auto two = hundred(config);
  EXPECT_EQ(none.first, 0u);
  EXPECT_EQ(one.first, 500u);
  EXPECT_EQ(two.first, 0u);
  EXPECT_GT(one.second, none.second);
  EXPECT_EQ(two.second, none.second);
}

// Cycles of `ctas` CTAs of `threads` threads each running `snippet` on the one core (every CTA
// reads the same inputs: thread i's %a is i).
Cycle run_ctas(const std::string& snippet, uint32_t threads, uint32_t ctas,
               const nlohmann::json& config) {
  test::fresh_sc_kernel();
  gpu::Gpu gpu("gpu", gpu::GpuSpec::from_json(config, "test"));
  std::vector<test::Inputs> in(threads);
  for (uint32_t i = 0; i < threads; ++i) in[i] = {i, 0, 0};
  test::SnippetLaunch launch(snippet, in);
  launch.launch.grid.x = ctas;
  return gpu.run(*launch.bound, launch.launch).cycles;
}

// Four CTAs of four warps where only each CTA's first warp works (the 13 adds looped; the other
// warps leave at once). "first_free" placement gives each CTA the lowest free slots, so the four
// first warps take slots 0, 4, 8 and 12, all on block 0: an iteration costs the 73 cycles of four
// warps sharing a block (FourWarpsOnFourBlocksRunAsFastAsOne). "rotate" puts the n-th CTA's warp
// i on block (n + i) % 4: one working warp a block, the 34 cycles of a warp alone.
TEST(ProcessingBlocks, RotatedPlacementSpreadsTheCtasFirstWarpsOverTheBlocks) {
  const auto hundred = [](const std::string& placement) {
    nlohmann::json config = blocks(4);
    config["core"]["warp_placement"] = placement;
    // The two instructions that send the other warps out take the place of two of the loop's
    // leading moves, so that the loop stays in one I-cache line.
    const std::string skip = "  setp.ge.u32 %q2, %tid, 32;\n  @%q2 bra $Out;\n";
    const auto body = [&](unsigned n) {
      const std::string loop = one_line_loop(independent_adds(), n);
      return skip + loop.substr(2 * std::string("  mov.u32 %r9, 0;\n").size()) + "\n$Out:";
    };
    return run_ctas(body(200), 128, 4, config) - run_ctas(body(100), 128, 4, config);
  };
  EXPECT_EQ(hundred("first_free"), 100u * 73);
  EXPECT_EQ(hundred("rotate"), 100u * 34);
  nlohmann::json bad = blocks(4);
  bad["core"]["warp_placement"] = "spread";
  EXPECT_NE(test::config_error(bad).find("core.warp_placement"), std::string::npos);
}

// Formations that regroup threads across warp slots are not modelled with processing blocks.
TEST(ProcessingBlocks, AFormationOtherThanStaticIsRefused) {
  nlohmann::json config = test::preset("lwm256");
  config["core"]["processing_blocks"] = 2;
  const std::string error = test::config_error(config);
  EXPECT_NE(error.find("core.processing_blocks"), std::string::npos) << error;
  EXPECT_NE(error.find("\"lwm\""), std::string::npos) << error;
  config["core"]["processing_blocks"] = 1;
  EXPECT_EQ(test::config_error(config), "");
}

}  // namespace
}  // namespace gputlm
