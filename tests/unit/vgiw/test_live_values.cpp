// Live-value IDs (Sec. 3.4): registers that cross a block boundary together get different IDs,
// the rest share; on a hand-written kernel and on every kernel under traces/.
#include <gtest/gtest.h>

#include <set>

#include "models/isa/kernel.h"
#include "models/isa/ptx_parser.h"
#include "models/vgiw/mapper/kernel_map.h"
#include "support/ptx_harness.h"
#include "support/trace_kernels.h"

namespace gputlm::vgiw {
namespace {

// "" or the first clash: two registers of one live set with one ID, or a crossing register without
// one.
std::string check(const KernelMap& m) {
  const LiveValues& lv = m.live;
  for (uint32_t id = 0; id < m.segments.size(); ++id)
    for (const auto* live : {&m.segments[id].live_in, &m.segments[id].live_out}) {
      std::set<uint32_t> ids;
      for (int32_t r : *live) {
        auto it = lv.id_of.find(r);
        if (it == lv.id_of.end())
          return "register " + std::to_string(r) + " crosses segment " + std::to_string(id) +
                 " without an ID";
        if (it->second >= lv.count) return "ID out of range";
        if (!ids.insert(it->second).second)
          return "two registers share an ID at segment " + std::to_string(id);
      }
    }
  return "";
}

TEST(LiveValues, RegistersLiveTogetherDifferAndOthersShare) {
  // %r1 and %r2 cross the first branch together; %r3 is born after %r1's last use and crosses
  // the second branch alone with %r2, so it may reuse %r1's ID.
  const auto m =
      test::parse(test::snippet_kernel("mov.u32 %r1, 5;\n mov.u32 %r2, 6;\n setp.eq.u32 %q1, %ra, "
                                       "0;\n @%q1 bra $A;\n add.u32 %r2, %r2, %r1;\n$A:\n"
                                       " add.u32 %r3, %r2, %r1;\n setp.eq.u32 %q2, %rb, 0;\n @%q2 "
                                       "bra $B;\n add.u32 %r3, %r3, 1;\n$B:\n"
                                       " add.u32 %r4, %r3, %r2;\n cvt.u64.u32 %o, %r4;"));
  const KernelMap km = map_kernel(*m->kernels[0]);
  EXPECT_EQ(check(km), "");
  std::set<int32_t> crossing;
  for (const Segment& s : km.segments) {
    crossing.insert(s.live_in.begin(), s.live_in.end());
    crossing.insert(s.live_out.begin(), s.live_out.end());
  }
  EXPECT_LT(km.live.count, crossing.size()) << "some IDs are shared";
}

TEST(LiveValues, EveryKernelUnderTracesGetsValidIds) {
  size_t mapped = 0;
  const size_t kernels =
      test::for_each_trace_kernel([&](const std::string& path, const isa::Kernel& k) {
        KernelMap km;
        try {
          km = map_kernel(k);
        } catch (const std::invalid_argument&) {
          return;  // warp collectives
        }
        ++mapped;
        EXPECT_EQ(check(km), "") << path << " kernel " << k.name;
        EXPECT_LE(km.live.count, k.regs.size());
      });
  EXPECT_GT(kernels, 40u);
  EXPECT_GT(mapped, 35u);
}

}  // namespace
}  // namespace gputlm::vgiw
