// Linking PTX modules as nvlink links objects (runtime/ptx_text_link.h): one header, static names
// that clash renamed in the later module, and the result read by the front end as one module in
// which a kernel of one object launches (takes the address of) a kernel of another.
#include <gtest/gtest.h>

#include "models/func/module_image.h"
#include "models/isa/ptx_parser.h"
#include "runtime/ptx_text_link.h"

namespace {

const std::string kHeader = ".version 9.0\n.target sm_75\n.address_size 64\n";

TEST(PtxTextLink, StaticNamesThatClashAreRenamedAndExternKernelsResolve) {
  const std::string a =
      kHeader +
      ".extern .entry child(.param .u64 p);\n"
      ".global .align 1 .b8 $str[3] = {104, 105, 0};\n"
      ".func helper() { ret; }\n"
      ".visible .entry parent(.param .u64 out) {\n .reg .b64 %rd<3>;\n mov.u64 %rd1, child;\n "
      "mov.u64 %rd2, $str;\n"
      " call helper, ();\n ld.param.u64 %rd2, [out];\n st.global.u64 [%rd2], %rd1;\n ret;\n}\n";
  const std::string b = kHeader +
                        ".global .align 1 .b8 $str[4] = {98, 121, 101, 0};\n"
                        ".func helper() { ret; }\n"
                        ".visible .entry child(.param .u64 p) {\n .reg .b64 %rd<2>;\n mov.u64 "
                        "%rd1, $str;\n call helper, ();\n ret;\n}\n";
  const std::string linked = gputlm::runtime::link_ptx_modules({a, b});
  EXPECT_EQ(linked.find(".version"), linked.rfind(".version")) << linked;
  EXPECT_NE(linked.find("$str$lnk1[4]"), std::string::npos) << linked;
  EXPECT_NE(linked.find(".func helper$lnk1()"), std::string::npos) << linked;
  EXPECT_NE(linked.find("call helper$lnk1, ();"), std::string::npos) << linked;
  EXPECT_NE(linked.find("mov.u64 %rd1, $str$lnk1;"), std::string::npos) << linked;
  const auto module = gputlm::isa::parse_ptx(linked, "linked.ptx");
  ASSERT_TRUE(module->kernel_errors.empty()) << module->kernel_errors.begin()->second.what();
  ASSERT_NE(module->find("parent"), nullptr);
  ASSERT_NE(module->find("child"), nullptr);
  EXPECT_EQ(module->entries, (std::vector<std::string>{"child", "parent"}));
  const uint64_t child = module->kernel_address("child");
  EXPECT_EQ(child, gputlm::isa::kKernelAddressBase);
  EXPECT_EQ(module->kernel_at(child), module->find("child"));
  EXPECT_EQ(module->kernel_at(child + 8), nullptr);
  EXPECT_EQ(module->find("parent")->code[0].ops[1].imm, static_cast<int64_t>(child))
      << "mov.u64 %rd1, child";
}

TEST(PtxTextLink, AKernelAddressInAnInitialiserIsTheKernelsHandle) {
  const auto module = gputlm::isa::parse_ptx(
      kHeader + ".entry k() { ret; }\n.global .u64 table[1] = {k};\n", "t.ptx");
  gputlm::func::GlobalMemory memory;
  const gputlm::func::ModuleImage image = gputlm::func::load_module_variables(*module, memory);
  uint64_t handle = 0;
  memory.read(image.at("table"), &handle, 8);
  EXPECT_EQ(handle, module->kernel_address("k"));
  EXPECT_EQ(module->kernel_at(handle), module->find("k"));
}

}  // namespace
