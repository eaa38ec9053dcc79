// VGIW and SGMF refuse kernels with cp.async or mbarrier (PTX ISA 9.7.9.25, 9.7.13.15), texture or
// surface instructions (9.7.10, 9.7.11) or brx.idx (9.7.12.4) before they run, naming the
// instruction: the fabric's load/store units model neither copies that complete by groups, barrier
// phases polled by other threads, nor a texture path.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "models/vgiw/mapper/kernel_map.h"
#include "support/ptx_harness.h"

namespace gputlm::vgiw {
namespace {

std::string refusal(const std::string& snippet) {
  const auto m = test::parse(test::snippet_kernel(snippet));
  try {
    map_kernel(*m->kernels[0]);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(VgiwAsyncRefusal, CpAsyncIsRefusedByName) {
  const std::string why = refusal(
      ".shared .align 16 .b8 buf[16];\n mov.u32 %r1, buf;\n"
      "cp.async.ca.shared.global [%r1], [%in], 8;\n cp.async.wait_all;\n");
  EXPECT_NE(why.find("no mapping for 'cp.async.ca.shared.global"), std::string::npos) << why;
}

TEST(VgiwAsyncRefusal, MbarrierIsRefusedByName) {
  const std::string why = refusal(
      ".shared .align 8 .b64 bar;\n mov.u32 %r1, bar;\n mbarrier.init.shared.b64 [%r1], 1;\n");
  EXPECT_NE(why.find("no mapping for 'mbarrier.init.shared.b64"), std::string::npos) << why;
}

TEST(VgiwTextureRefusal, TexSuldAndSustAreRefusedByName) {
  std::string why = refusal("tex.1d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%a, {%fb}];\n");
  EXPECT_NE(why.find("no mapping for 'tex.1d.v4.f32.f32"), std::string::npos) << why;
  why = refusal("suld.b.1d.b32.trap {%r1}, [%a, {%rb}];\n");
  EXPECT_NE(why.find("no mapping for 'suld.b.1d.b32.trap"), std::string::npos) << why;
  why = refusal("sust.b.1d.b32.zero [%a, {%rb}], {%rc};\n");
  EXPECT_NE(why.find("no mapping for 'sust.b.1d.b32.zero"), std::string::npos) << why;
}

TEST(VgiwBranchRefusal, IndexedBranchIsRefusedByName) {  // brx.idx (PTX ISA 9.7.12.4): more
                                                         // successors than a terminator has
  const std::string why = refusal(
      "$T: .branchtargets $A, $B;\n brx.idx %ra, $T;\n$A:\n mov.b64 %o, 1;\n$B:\n mov.b64 %o, "
      "2;\n");
  EXPECT_NE(why.find("no mapping for 'brx.idx %ra, $T;'"), std::string::npos) << why;
  EXPECT_NE(why.find("a multi-way branch"), std::string::npos) << why;
}

}  // namespace
}  // namespace gputlm::vgiw
