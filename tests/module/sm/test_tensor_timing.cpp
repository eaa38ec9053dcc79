// Tensor-core instructions in the timing model (issue 40, part 4): mma and wmma.mma run on the
// tensor unit, whose latency, multiply-adds a pass and unit count are config keys
// (core.units.tensor); fragment loads (wmma.load, ldmatrix) are memory instructions that send
// line requests to the L1 like ld.
#include <gtest/gtest.h>

#include <string>

#include "support/core_run.h"
#include "support/input_error.h"

namespace gputlm::test {
namespace {

// A dependent chain of `n` mma.m16n8k8 (1024 multiply-adds each) of ones, each adding 8 to %f1:
// f16 inputs (two A registers of two halves, one B register) or tf32 (four A registers, two B).
std::string mma_chain(int n, bool tf32 = false) {
  const char* one = tf32 ? "0f3F800000" : "0x3C003C00";
  std::string s;
  for (int r = 1; r <= 4; ++r) s += "mov.b32 %r" + std::to_string(r) + ", " + one + ";\n";
  for (int f = 1; f <= 4; ++f) s += "mov.f32 %f" + std::to_string(f) + ", 0f00000000;\n";
  const std::string mma =
      tf32
          ? "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%f1,%f2,%f3,%f4}, "
            "{%r1,%r2,%r3,%r4}, {%r1,%r2}, {%f1,%f2,%f3,%f4};\n"
          : "mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%f1,%f2,%f3,%f4}, {%r1,%r2}, {%r3}, "
            "{%f1,%f2,%f3,%f4};\n";
  for (int i = 0; i < n; ++i) s += mma;
  return s + "cvt.rzi.u64.f32 %o, %f1;";
}

nlohmann::json with_tensor(const nlohmann::json& unit) {
  nlohmann::json c = preset();
  c["core"]["units"]["tensor"] = unit;
  return c;
}

TEST(TensorTiming, MmaLatencyIsAConfigKey) {
  const CoreRun a = run_core(mma_chain(20), 32, with_tensor({{"latency", 8}, {"macs", 1024}}));
  const CoreRun b = run_core(mma_chain(20), 32, with_tensor({{"latency", 28}, {"macs", 1024}}));
  for (const LaneOut& o : a.out) EXPECT_EQ(o.o, 160u);
  for (const LaneOut& o : b.out) EXPECT_EQ(o.o, 160u);
  // Barrel issue: each mma waits for the one before to leave, 20 cycles later on the slow unit.
  EXPECT_EQ(b.cycles - a.cycles, 20u * 20);
}

// "rates": an input type's multiply-adds a pass over the unit's FP16 `macs` (A100 whitepaper:
// TF32 at half the FP16 rate). 1024 multiply-adds at 128 a pass are 8 passes; at 64 (tf32 at
// 0.5), 16: eight more cycles before each product's latency starts, 20 products.
TEST(TensorTiming, AnInputTypesRateScalesThePasses) {
  const CoreRun f16 =
      run_core(mma_chain(20, true), 32, with_tensor({{"latency", 8}, {"macs", 128}}));
  const CoreRun tf32 =
      run_core(mma_chain(20, true), 32,
               with_tensor({{"latency", 8}, {"macs", 128}, {"rates", {{"tf32", 0.5}, {"s8", 2}}}}));
  for (const LaneOut& o : tf32.out) EXPECT_EQ(o.o, 160u);  // 20 x k = 8 ones
  EXPECT_EQ(tf32.cycles - f16.cycles, 20u * 8);
  input_error(
      [] {
        run_core(mma_chain(1, true), 32, with_tensor({{"rates", {{"f17", 2}}}}));
      },
      {"core.units.tensor.rates.f17", "not a matrix fragment type"});
}

TEST(TensorTiming, AProductTakesItsMultiplyAddsOverTheUnitsWidthInPasses) {
  // 1024 multiply-adds: one pass at 1024 a pass, eight at 128 (seven more passes before the
  // latency starts counting).
  const CoreRun wide = run_core(mma_chain(20), 32, with_tensor({{"latency", 8}, {"macs", 1024}}));
  const CoreRun narrow = run_core(mma_chain(20), 32, with_tensor({{"latency", 8}, {"macs", 128}}));
  EXPECT_EQ(narrow.cycles - wide.cycles, 20u * 7);
}

TEST(TensorTiming, MoreTensorUnitsLetWarpsMultiplyAtOnce) {
  // Four warps, each a chain; a pass every 4 cycles keeps one unit busy 32 cycles a product.
  const nlohmann::json one =
      with_tensor({{"latency", 8}, {"macs", 128}, {"interval", 4}, {"count", 1}});
  const nlohmann::json four =
      with_tensor({{"latency", 8}, {"macs", 128}, {"interval", 4}, {"count", 4}});
  const CoreRun a = run_core(mma_chain(20), 128, one), b = run_core(mma_chain(20), 128, four);
  const CoreRun none = run_core(mma_chain(0), 128, four);  // the same kernel without its products
  for (const LaneOut& o : b.out) EXPECT_EQ(o.o, 160u);
  // One unit: the 80 products take 32 cycles each, one after another (the first overlapping the
  // rest of the kernel); four: each warp's 20 run beside the others'.
  EXPECT_GT(a.cycles - none.cycles, 70u * 32);
  EXPECT_LT((b.cycles - none.cycles) * 2, a.cycles - none.cycles);
}

TEST(TensorTiming, AWmmaLoadSendsLineRequestsToTheL1) {
  const std::string load =
      "ld.param.u64 %rd1, [pin];\n"
      "wmma.load.a.sync.aligned.row.m16n16k16.global.f16 {%r0,%r1,%r2,%r3,%r4,%r5,%r6,%r7}, "
      "[%rd1], 16;\n"
      "cvt.u64.u32 %o, %r0;";
  const CoreRun base =
      run_core("ld.param.u64 %rd1, [pin];\n mov.u32 %r0, 0;\n cvt.u64.u32 %o, %r0;", 32);
  const CoreRun r = run_core(load, 32);
  EXPECT_GT(r.counters.simt.line_requests, base.counters.simt.line_requests);
}

TEST(TensorTiming, TheTensorUnitsKeysAreChecked) {
  EXPECT_NE(config_error(with_tensor({{"width", 16}})), "") << "the tensor unit's width is `macs`";
  EXPECT_NE(config_error(with_tensor({{"count", 0}})), "");
  EXPECT_EQ(
      config_error(with_tensor({{"count", 2}, {"macs", 256}, {"latency", 16}, {"interval", 2}})),
      "");
}

}  // namespace
}  // namespace gputlm::test
