#include "support/ptx_harness.h"

#include <gtest/gtest.h>

#include "models/func/reference_executor.h"
#include "models/isa/ptx_parser.h"

namespace gputlm::test {

std::unique_ptr<isa::Module> parse(const std::string& ptx) {
  auto m = isa::parse_ptx(ptx, "test.ptx");
  m->require_all_kernels();
  return m;
}

std::unique_ptr<isa::Module> parse_kernel(const std::string& regs, const std::string& body) {
  return parse(".version 9.0\n.target sm_75\n.address_size 64\n.visible .entry k()\n{\n" + regs +
               body + "\n}\n");
}

int32_t reg_index(const isa::Kernel& k, const std::string& name) {
  for (size_t i = 0; i < k.regs.size(); ++i)
    if (k.regs[i].name == name) return static_cast<int32_t>(i);
  return -1;
}

std::string snippet_kernel(const std::string& snippet) {
  return R"(.version 9.0
.target sm_75
.address_size 64
.visible .entry t(.param .u64 pin, .param .u64 pout)
{
  .reg .b64 %a, %b, %c, %o, %in, %out, %off, %rd<10>;
  .reg .b32 %ra, %rb, %rc, %tid, %r<10>;
  .reg .b16 %ha, %hb, %hc;
  .reg .f32 %fa, %fb, %fc, %f<10>;
  .reg .f64 %da, %db, %dc;
  .reg .pred %p, %q<4>;
  ld.param.u64 %in, [pin];
  ld.param.u64 %out, [pout];
  mov.u32 %tid, %tid.x;
  mul.wide.u32 %off, %tid, 24;
  add.s64 %in, %in, %off;
  ld.global.u64 %a, [%in];
  ld.global.u64 %b, [%in+8];
  ld.global.u64 %c, [%in+16];
  ld.global.u32 %ra, [%in];
  ld.global.u32 %rb, [%in+8];
  ld.global.u32 %rc, [%in+16];
  ld.global.u16 %ha, [%in];
  ld.global.u16 %hb, [%in+8];
  ld.global.u16 %hc, [%in+16];
  ld.global.f32 %fa, [%in];
  ld.global.f32 %fb, [%in+8];
  ld.global.f32 %fc, [%in+16];
  ld.global.f64 %da, [%in];
  ld.global.f64 %db, [%in+8];
  ld.global.f64 %dc, [%in+16];
  mov.b64 %o, 0;
  mov.pred %p, 0;
)" + snippet +
         R"(
  mul.wide.u32 %off, %tid, 16;
  add.s64 %out, %out, %off;
  st.global.u64 [%out], %o;
  selp.u32 %r9, 1, 0, %p;
  st.global.u32 [%out+8], %r9;
  ret;
}
)";
}

SnippetLaunch::SnippetLaunch(const std::string& snippet, const std::vector<Inputs>& inputs)
    : module(parse(snippet_kernel(snippet))) {
  const isa::Kernel& k = *module->kernels.at(0);
  bound = std::make_unique<func::BoundKernel>(k);
  const uint32_t n = static_cast<uint32_t>(inputs.size());
  in = memory.allocate(24ull * n, "in");
  out = memory.allocate(16ull * n, "out");
  memory.write(in, inputs.data(), 24ull * n);
  launch.kernel = &k;
  launch.block.x = n;
  launch.memory = &memory;
  launch.params.resize(16);
  std::memcpy(launch.params.data(), &in, 8);
  std::memcpy(launch.params.data() + 8, &out, 8);
}

std::vector<LaneOut> SnippetLaunch::outputs() const {
  std::vector<LaneOut> result(launch.block.x);
  for (uint32_t i = 0; i < result.size(); ++i) {
    uint32_t p = 0;
    memory.read(out + 16ull * i, &result[i].o, 8);
    memory.read(out + 16ull * i + 8, &p, 4);
    result[i].p = p != 0;
  }
  return result;
}

std::vector<LaneOut> run_snippet(const std::string& snippet, const std::vector<Inputs>& inputs,
                                 func::FuncStats* stats) {
  SnippetLaunch run(snippet, inputs);
  func::FuncStats s = func::run_reference(*run.bound, run.launch);
  if (stats) *stats = s;
  return run.outputs();
}

void expect_lanes(const std::string& what, const std::string& snippet,
                  const std::vector<Inputs>& in, const LaneRef& ref) {
  const auto out = run_snippet(snippet, in);
  int bad = 0;
  for (size_t i = 0; i < in.size(); ++i) {
    const uint64_t want = ref(in[i][0], in[i][1], in[i][2]);
    if (out[i].o == want) continue;
    if (++bad <= 6)
      ADD_FAILURE() << what << std::hex << ": a=0x" << in[i][0] << " b=0x" << in[i][1] << " c=0x"
                    << in[i][2] << " got 0x" << out[i].o << " want 0x" << want;
  }
  EXPECT_EQ(bad, 0) << what << ": " << bad << " of " << in.size() << " lanes wrong";
}

LaneOut run1(const std::string& snippet, uint64_t a, uint64_t b, uint64_t c) {
  return run_snippet(snippet, {Inputs{a, b, c}}).at(0);
}

}  // namespace gputlm::test
