// VGIW and SGMF refuse kernels with texture or surface instructions (PTX ISA 9.7.10, 9.7.11)
// before they run, naming the instruction: the fabric's load/store units have no texture path.
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

TEST(VgiwTextureRefusal, TexSuldAndSustAreRefusedByName) {
  std::string why = refusal("tex.1d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%a, {%fb}];\n");
  EXPECT_NE(why.find("no mapping for 'tex.1d.v4.f32.f32"), std::string::npos) << why;
  why = refusal("suld.b.1d.b32.trap {%r1}, [%a, {%rb}];\n");
  EXPECT_NE(why.find("no mapping for 'suld.b.1d.b32.trap"), std::string::npos) << why;
  why = refusal("sust.b.1d.b32.zero [%a, {%rb}], {%rc};\n");
  EXPECT_NE(why.find("no mapping for 'sust.b.1d.b32.zero"), std::string::npos) << why;
}

}  // namespace
}  // namespace gputlm::vgiw
