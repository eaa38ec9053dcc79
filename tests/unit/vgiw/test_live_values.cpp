// Live-value IDs (Sec. 3.4): registers that cross a block boundary together get different IDs,
// the rest share; on a hand-written kernel and on every kernel under traces/.
#include <gtest/gtest.h>

#include <set>

#include "models/isa/kernel.h"
#include "models/isa/ptx_parser.h"
#include "models/vgiw/mapper/live_values.h"
#include "support/ptx_harness.h"
#include "support/trace_kernels.h"

namespace gputlm::vgiw {
namespace {

// "" or the first clash: two registers of one live set with one ID, or a crossing register without one.
std::string check(const isa::Cfg& cfg, const LiveValues& lv) {
  for (const isa::BasicBlock& b : cfg.blocks)
    for (const auto* live : {&b.live_in, &b.live_out}) {
      std::set<uint32_t> ids;
      for (int32_t r : *live) {
        auto it = lv.id_of.find(r);
        if (it == lv.id_of.end()) return "register " + std::to_string(r) + " crosses block " + std::to_string(b.id) + " without an ID";
        if (it->second >= lv.count) return "ID out of range";
        if (!ids.insert(it->second).second) return "two registers share an ID at block " + std::to_string(b.id);
      }
    }
  return "";
}

TEST(LiveValues, RegistersLiveTogetherDifferAndOthersShare) {
  // %r1 and %r2 cross the first branch together; %r3 is born after %r1's last use and crosses
  // the second branch alone with %r2, so it may reuse %r1's ID.
  const auto m = test::parse(test::snippet_kernel(
      "mov.u32 %r1, 5;\n mov.u32 %r2, 6;\n setp.eq.u32 %q1, %ra, 0;\n @%q1 bra $A;\n add.u32 %r2, %r2, %r1;\n$A:\n"
      " add.u32 %r3, %r2, %r1;\n setp.eq.u32 %q2, %rb, 0;\n @%q2 bra $B;\n add.u32 %r3, %r3, 1;\n$B:\n"
      " add.u32 %r4, %r3, %r2;\n cvt.u64.u32 %o, %r4;"));
  const isa::Kernel& k = *m->kernels[0];
  const LiveValues lv = allocate_live_values(k.cfg, schedule_blocks(k.cfg));
  EXPECT_EQ(check(k.cfg, lv), "");
  std::set<int32_t> crossing;
  for (const isa::BasicBlock& b : k.cfg.blocks) {
    crossing.insert(b.live_in.begin(), b.live_in.end());
    crossing.insert(b.live_out.begin(), b.live_out.end());
  }
  EXPECT_LT(lv.count, crossing.size()) << "some IDs are shared";
}

TEST(LiveValues, EveryKernelUnderTracesGetsValidIds) {
  const size_t kernels = test::for_each_trace_kernel([](const std::string& path, const isa::Kernel& k) {
    const LiveValues lv = allocate_live_values(k.cfg, schedule_blocks(k.cfg));
    EXPECT_EQ(check(k.cfg, lv), "") << path << " kernel " << k.name;
    EXPECT_LE(lv.count, k.regs.size());
  });
  EXPECT_GT(kernels, 40u);
}

}  // namespace
}  // namespace gputlm::vgiw
