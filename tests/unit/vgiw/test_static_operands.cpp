// Kernel parameters and thread coordinates on the VGIW fabric (Sec. 3.5): configuration constants
// and the initiator's coordinates take no unit and never a live value; the "units" reading keeps
// them as instructions; "static_folding" decides how far arithmetic on them folds.
#include <gtest/gtest.h>

#include "models/vgiw/mapper/kernel_map.h"
#include "models/vgiw/vgiw_spec.h"
#include "support/input_error.h"
#include "support/ptx_harness.h"

namespace gputlm::vgiw {
namespace {

std::string kernel(const std::string& body) {
  return ".version 9.0\n.target sm_75\n.address_size 64\n.visible .entry k(.param .u64 pout, "
         ".param .u32 pn)\n{\n"
         "  .reg .b64 %rd<6>;\n  .reg .b32 %r<8>;\n  .reg .pred %p<2>;\n" +
         body + "}\n";
}

StaticOptions reading(bool configuration, StaticFolding folding = StaticFolding::LaunchConstants) {
  return {configuration, folding};
}

// Nodes of `type` (and of `role`, if given) in the graph of the segment holding `pc`.
uint32_t nodes(const KernelMap& m, const isa::Kernel& k, const std::string& text, UnitType type,
               GraphNode::Role role = GraphNode::Role::Instruction) {
  uint32_t pc = 0;
  while (pc < k.text.size() && k.text[pc].find(text) == std::string::npos) ++pc;
  EXPECT_LT(pc, k.text.size()) << text;
  for (size_t s = 0; s < m.segments.size(); ++s)
    if (m.segments[s].begin <= pc && pc < m.segments[s].end) {
      uint32_t n = 0;
      for (const GraphNode& g : m.graphs[s].nodes) n += g.unit == type && g.role == role;
      return n;
    }
  return 0;
}

// The parameters and coordinates are read in the first block, used only in the second.
const char* const kUsedLater = R"(
  ld.param.u64 %rd1, [pout];
  ld.param.u32 %r1, [pn];
  mov.u32 %r2, %tid.x;
  mov.u32 %r3, %ctaid.x;
  mov.u32 %r4, %clock;
  setp.eq.u32 %p1, %r4, 0;
  @%p1 bra $L;
$L:
  add.u32 %r5, %r2, %r1;
  mul.wide.u32 %rd2, %r3, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r5;
  ret;
)";

TEST(StaticOperands, ParametersAndCoordinatesUsedInALaterBlockTakeNoUnitAndNoLiveValue) {
  const auto mod = test::parse(kernel(kUsedLater));
  const isa::Kernel& k = *mod->kernels[0];
  const KernelMap now = map_kernel(k);
  EXPECT_EQ(nodes(now, k, "ld.param", UnitType::LoadStore), 0u)
      << "parameters are configuration constants";
  EXPECT_EQ(nodes(now, k, "ld.param", UnitType::Compute), 2u)
      << "%clock's mov and the setp; not %tid's nor %ctaid's mov";
  EXPECT_EQ(nodes(now, k, "ld.param", UnitType::LiveValue, GraphNode::Role::LiveStore), 0u);
  EXPECT_EQ(nodes(now, k, "st.global", UnitType::LiveValue, GraphNode::Role::LiveLoad), 0u);
  EXPECT_EQ(now.live.count, 0u)
      << "nothing crosses the block boundary through the live value cache";
  EXPECT_EQ(now.static_instructions, 4u);

  const KernelMap old = map_kernel(k, kTable1Units, reading(false));
  EXPECT_EQ(nodes(old, k, "ld.param", UnitType::LoadStore), 2u);
  EXPECT_EQ(nodes(old, k, "ld.param", UnitType::Compute), 4u) << "three movs and the setp";
  EXPECT_EQ(nodes(old, k, "ld.param", UnitType::LiveValue, GraphNode::Role::LiveStore), 4u);
  EXPECT_EQ(nodes(old, k, "st.global", UnitType::LiveValue, GraphNode::Role::LiveLoad), 4u);
  EXPECT_EQ(old.live.count, 4u);
  EXPECT_EQ(old.static_instructions, 0u);
}

// The global index (blockIdx * blockDim + threadIdx) crosses into the guarded block; a parameter
// pointer is converted there (nvcc's cvta.to.global).
const char* const kGlobalIndex = R"(
  ld.param.u64 %rd1, [pout];
  ld.param.u32 %r1, [pn];
  mov.u32 %r2, %ntid.x;
  mov.u32 %r3, %ctaid.x;
  mov.u32 %r4, %tid.x;
  mad.lo.s32 %r5, %r3, %r2, %r4;
  setp.ge.u32 %p1, %r5, %r1;
  @%p1 bra $END;
  cvta.to.global.u64 %rd2, %rd1;
  mul.wide.u32 %rd3, %r5, 4;
  add.s64 %rd4, %rd2, %rd3;
  st.global.u32 [%rd4], %r5;
$END:
  ret;
)";

TEST(StaticOperands, FoldingDecidesWhichArithmeticOnThemTakesAUnit) {
  const auto mod = test::parse(kernel(kGlobalIndex));
  const isa::Kernel& k = *mod->kernels[0];
  struct Expect {
    StaticOptions options;
    uint32_t first, second, live;  // compute nodes of the two blocks, live values
  };
  const Expect expected[] = {
      {reading(false), 5, 3, 2},  // three movs, mad, setp | cvta, mul, add; %rd1 and %r5 cross
      {reading(true, StaticFolding::None), 2, 3, 1},  // mad, setp | cvta, mul, add; %r5 crosses
      {reading(true, StaticFolding::LaunchConstants), 2, 2,
       1},  // the cvta of a parameter is a constant
      {reading(true, StaticFolding::Coordinates), 0, 0, 0},  // the initiator computes all of it
  };
  for (const Expect& e : expected) {
    const KernelMap m = map_kernel(k, kTable1Units, e.options);
    const std::string what = std::string(e.options.configuration ? "configuration, " : "units, ") +
                             static_folding_names()[size_t(e.options.folding)];
    EXPECT_EQ(nodes(m, k, "mad.lo", UnitType::Compute), e.first) << what;
    EXPECT_EQ(nodes(m, k, "st.global", UnitType::Compute), e.second) << what;
    EXPECT_EQ(m.live.count, e.live) << what;
    EXPECT_EQ(nodes(m, k, "st.global", UnitType::LoadStore), 1u) << what;
  }
}

// A register set from a constant and changed later (a loop counter) is no configuration
// constant; its constant definition takes no unit, and the live-value store that carries it into
// the loop fires on the thread's token.
TEST(StaticOperands, AConstantDefinitionOfALaterChangedRegisterIsStoredOnTheThreadsToken) {
  const auto mod = test::parse(kernel(R"(
  mov.u32 %r1, 0;
  mov.u32 %r2, %tid.x;
$LOOP:
  add.u32 %r1, %r1, 1;
  setp.lt.u32 %p1, %r1, %r2;
  @%p1 bra $LOOP;
  ld.param.u64 %rd1, [pout];
  st.global.u32 [%rd1], %r1;
  ret;
)"));
  const isa::Kernel& k = *mod->kernels[0];
  const KernelMap m = map_kernel(k);
  const Segment& entry = m.segments[0];
  ASSERT_EQ(k.text[entry.begin].rfind("mov.u32 %r1, 0", 0), 0u) << k.text[entry.begin];
  EXPECT_EQ(entry.live_out, (std::vector<int32_t>{k.code[entry.begin].ops[0].reg}))
      << "%r1 only: %tid is the initiator's";
  const BlockGraph& g = m.graphs[0];
  EXPECT_EQ(g.need[size_t(UnitType::Compute)], 0u);
  ASSERT_EQ(g.need[size_t(UnitType::LiveValue)], 1u);
  const uint32_t store = static_cast<uint32_t>(g.nodes.size() - 1);
  EXPECT_EQ(g.nodes[store].role, GraphNode::Role::LiveStore);
  EXPECT_NE(std::find(g.edges.begin(), g.edges.end(), std::make_pair(0u, store)), g.edges.end())
      << "the initiator feeds it";
  EXPECT_EQ(map_kernel(k, kTable1Units, reading(true, StaticFolding::None))
                .graphs[0]
                .need[size_t(UnitType::Compute)],
            1u)
      << "unfolded, the constant mov takes a compute unit";
}

TEST(StaticOperands, TheVgiwSectionChoosesTheReading) {
  const auto read = [](const nlohmann::json& j) {
    return VgiwSpec::from_json(j, "test.json", "vgiw");
  };
  EXPECT_TRUE(read(nlohmann::json::object()).statics.configuration);
  EXPECT_EQ(read(nlohmann::json::object()).statics.folding, StaticFolding::LaunchConstants);
  const VgiwSpec s = read({{"static_operands", "units"}, {"static_folding", "coordinates"}});
  EXPECT_FALSE(s.statics.configuration);
  EXPECT_EQ(s.statics.folding, StaticFolding::Coordinates);
  test::input_error(
      [&] {
        read({{"static_operands", "registers"}});
      },
      {"vgiw.static_operands", "configuration", "units"});
  test::input_error(
      [&] {
        read({{"static_folding", "all"}});
      },
      {"vgiw.static_folding", "launch_constants"});
}

}  // namespace
}  // namespace gputlm::vgiw
