// "static": the baseline warp formation. A CTA's threads form warps of 32 consecutive threads
// (the last one partial); each warp issues the top of its SIMT stack, and a retired instruction
// updates the stack (divergence, reconvergence at the immediate post-dominator, exits).
#include <algorithm>

#include "models/common/registry.h"
#include "models/func/simt_control.h"
#include "models/sm/formation/warp_formation.h"

namespace gputlm::sm {
namespace {

class StaticFormation : public IWarpFormation {
 public:
  std::vector<WarpLayout> layout(uint32_t threads) override {
    return block_layout(threads, kWarpSize);
  }
  std::optional<IssueUnit> next(uint32_t, const WarpSlot& w, const FormationInput&) override {
    if (w.stack.done()) return std::nullopt;
    const LaneMask m = w.stack.mask();
    return IssueUnit{w.stack.pc(), func::ThreadGroup{w.base_tid, nullptr}, m, popcount(m)};
  }
  bool supports_calls() const override { return true; }
  void retire(uint32_t, WarpSlot& w, const IssueUnit& u, const isa::Kernel& k,
              const func::ExecResult& r) override {
    func::apply_control(w.stack, k, u.pc, r);
  }
};

const WarpFormationRegistration kStatic("static", [](const FormationParams&) {
  return std::make_unique<StaticFormation>();
});

}  // namespace

std::vector<WarpLayout> block_layout(uint32_t threads, uint32_t block) {
  std::vector<WarpLayout> out;
  for (uint32_t base = 0; base < threads; base += block) {
    const uint32_t n = std::min(block, threads - base);
    out.push_back({base, n, first_lanes(n)});
  }
  return out;
}

WarpFormationRegistration::WarpFormationRegistration(const char* name, WarpFormationFactory f) {
  Registry<WarpFormationFactory>::instance().add(name, std::move(f));
}

std::unique_ptr<IWarpFormation> make_warp_formation(const std::string& name,
                                                    const FormationParams& params) {
  return Registry<WarpFormationFactory>::instance().get(name, "warp formation")(params);
}

}  // namespace gputlm::sm
