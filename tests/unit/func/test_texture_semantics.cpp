// tex, tld4, txq, suld.b, sust.b, suq, sured and istypep on the functional engine through texture
// objects (PTX ISA 9.7.10, 9.7.11): the forms nvcc emits, the byte layout of surface accesses, the
// out-of-range modes, the fault for a handle that is no live object, and the forms refused at bind
// time with the PTX line.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "models/common/error.h"
#include "models/func/kernel_fault.h"
#include "models/func/reference_executor.h"
#include "models/func/texture_table.h"
#include "support/ptx_harness.h"

namespace gputlm::test {
namespace {

// A snippet run with one live texture (2x2 f32 {1, 2; 3, 4}, handle in %a) and one live surface
// (4x2 of 4-byte texels, handle in %b); the snippet's inputs are %c's.
struct TexRun {
  explicit TexRun(const std::string& snippet, uint64_t c = 0, func::TexelFormat surface_format = {})
      : run(snippet, {Inputs{0, 0, c}}) {
    func::TextureObject t;
    t.resource.shape = func::TexShape::D2;
    t.resource.width = t.resource.height = 2;
    t.resource.row_pitch = 8;
    t.resource.slice_pitch = 16;
    t.resource.base = run.memory.allocate(16, "texture");
    const float texels[4] = {1, 2, 3, 4};
    run.memory.write(t.resource.base, texels, 16);
    func::TextureObject s;
    s.surface = true;
    s.resource.format = surface_format;
    s.resource.shape = func::TexShape::D2;
    s.resource.width = 4;
    s.resource.height = 2;
    s.resource.row_pitch = 16;
    s.resource.slice_pitch = 32;
    s.resource.base = surface = run.memory.allocate(32, "surface");
    texture_handle = table.create(t);
    surface_handle = table.create(s);
    const uint64_t in[3] = {texture_handle, surface_handle, c};
    run.memory.write(run.in, in, 24);
    run.launch.textures = &table;
  }
  LaneOut go() {
    func::run_reference(*run.bound, run.launch);
    return run.outputs().at(0);
  }
  SnippetLaunch run;
  func::TextureTable table;
  uint64_t texture_handle = 0, surface_handle = 0, surface = 0;
};

TEST(TextureSemantics, Tex2dSamplesTheObjectAtFloatCoordinates) {
  TexRun t(
      "mov.f32 %f5, 0f3FC00000;\n mov.f32 %f6, 0f3F000000;\n"  // (1.5, 0.5): texel (1, 0)
      "tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%a, {%f5, %f6}];\n mov.b32 %r1, %f1;\n cvt.u64.u32 "
      "%o, %r1;\n");
  EXPECT_EQ(bits_f32(t.go().o), 2.0f);
}

TEST(TextureSemantics, TexWithIntegerCoordinatesAndLevelReadsLevelZero) {
  TexRun t(
      "mov.u32 %r5, 0;\n mov.u32 %r6, 1;\n mov.f32 %f5, 0f40000000;\n"
      "tex.level.2d.v4.s32.s32 {%r1, %r2, %r3, %r4}, [%a, {%r5, %r6}], %f5;\n cvt.u64.u32 %o, "
      "%r1;\n");
  EXPECT_EQ(bits_f32(t.go().o), 3.0f);  // a float texture: the s32 destination holds its bits
}

TEST(TextureSemantics, Tld4GathersChannelRInOrder) {
  TexRun t(
      "mov.f32 %f5, 0f3F800000;\n"  // (1, 1)
      "tld4.r.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%a, {%f5, %f5}];\n"
      "mul.f32 %f1, %f1, 0f447A0000;\n mul.f32 %f2, %f2, 0f42C80000;\n mul.f32 %f3, %f3, "
      "0f41200000;\n"
      "add.f32 %f1, %f1, %f2;\n add.f32 %f1, %f1, %f3;\n add.f32 %f1, %f1, %f4;\n cvt.rzi.u64.f32 "
      "%o, %f1;\n");
  EXPECT_EQ(t.go().o, 3421u);  // 3, 4, 2, 1
}

TEST(TextureSemantics, TxqReadsWidthAndHeight) {
  TexRun t(
      "txq.width.b32 %r1, [%a];\n txq.height.b32 %r2, [%a];\n mad.lo.u32 %r1, %r1, 10, %r2;\n "
      "cvt.u64.u32 %o, %r1;\n");
  EXPECT_EQ(t.go().o, 22u);
}

TEST(TextureSemantics, SustThenSuldBytesAreLittleEndianAtByteX) {
  TexRun t(
      "mov.u32 %r5, 4;\n mov.u32 %r6, 1;\n mov.b16 %ha, 0x11;\n mov.b16 %hb, 0x22;\n"
      "sust.b.2d.v2.b16.trap [%b, {%r5, %r6}], {%ha, %hb};\n"
      "suld.b.2d.b32.trap {%r1}, [%b, {%r5, %r6}];\n cvt.u64.u32 %o, %r1;\n");
  EXPECT_EQ(t.go().o, 0x00220011u);
  uint8_t bytes[4];
  t.run.memory.read(t.surface + 16 + 4, bytes, 4);  // row 1, byte 4
  EXPECT_EQ(bytes[0], 0x11);
  EXPECT_EQ(bytes[2], 0x22);
}

TEST(TextureSemantics, SuldZeroReadsZeroOutsideAndClampReadsTheEdge) {
  TexRun t(
      "mov.u32 %r5, 64;\n mov.u32 %r6, 0;\n mov.u32 %r7, 12;\n mov.u32 %r8, 0xabcd;\n"
      "sust.b.2d.b32.trap [%b, {%r7, %r6}], {%r8};\n"
      "suld.b.2d.b32.zero {%r1}, [%b, {%r5, %r6}];\n suld.b.2d.b32.clamp {%r2}, [%b, {%r5, %r6}];\n"
      "cvt.u64.u32 %o, %r2;\n setp.eq.u32 %p, %r1, 0;\n");
  const LaneOut out = t.go();
  EXPECT_EQ(out.o, 0xabcdu);
  EXPECT_TRUE(out.p);
}

TEST(TextureSemantics, SuldTrapOutsideFaults) {
  TexRun t("mov.u32 %r5, 16;\n mov.u32 %r6, 0;\n suld.b.2d.b32.trap {%r1}, [%b, {%r5, %r6}];\n");
  EXPECT_THROW(t.go(), func::KernelFault);
}

TEST(TextureSemantics, SuqReadsTheSurfacesShapeAndIstypepTellsObjectsApart) {
  TexRun t(
      "suq.width.b32 %r1, [%b];\n suq.height.b32 %r2, [%b];\n suq.memory_layout.b32 %r3, [%b];\n"
      "mad.lo.u32 %r1, %r2, 100, %r1;\n mad.lo.u32 %r1, %r3, 10000, %r1;\n cvt.u64.u32 %o, %r1;\n"
      "istypep.texref %q1, %a;\n istypep.surfref %q2, %a;\n istypep.surfref %q3, %b;\n "
      "istypep.samplerref %p, %a;\n"
      "and.pred %p, %p, %q1;\n and.pred %p, %p, %q3;\n not.pred %q2, %q2;\n and.pred %p, %p, %q2;\n"
      "istypep.texref %q1, %c;\n not.pred %q1, %q1;\n and.pred %p, %p, %q1;\n",
      99);
  const LaneOut out = t.go();
  EXPECT_EQ(out.o, 2u * 100 + 4u);  // 4 x 2, a CUDA array (layout 0)
  EXPECT_TRUE(out.p) << "a: texture and sampler, not surface; b: surface; 99: nothing";
}

TEST(TextureSemantics, SuredCombinesIntoTheSurfaceElement) {
  // Element (1, 1) (byte x 4, row 1) starts at 0; add 5 then 7 (.b), min with 3, then .p max with
  // sample x 1 of row 1: the same element.
  TexRun t(
      "mov.u32 %r5, 4;\n mov.u32 %r6, 1;\n mov.u32 %r7, 1;\n mov.u32 %r1, 5;\n mov.u32 %r2, 7;\n "
      "mov.u32 %r3, 3;\n"
      "sured.b.add.2d.u32.trap [%b, {%r5, %r6}], %r1;\n sured.b.add.2d.u32.trap [%b, {%r5, %r6}], "
      "%r2;\n"
      "sured.b.min.2d.u32.trap [%b, {%r5, %r6}], %r3;\n mov.u32 %r4, 0xFFFFFFF0;\n"
      "sured.p.max.2d.b32.trap [%b, {%r7, %r6}], %r4;\n"
      "suld.b.2d.b32.trap {%r1}, [%b, {%r5, %r6}];\n cvt.u64.u32 %o, %r1;\n");
  EXPECT_EQ(t.go().o, 0xFFFFFFF0u) << "an unsigned (float-format) surface: max(3, 0xFFFFFFF0)";
  TexRun s(
      "mov.u32 %r7, 1;\n mov.u32 %r6, 1;\n mov.u32 %r4, 0xFFFFFFF0;\n sured.p.max.2d.b32.trap [%b, "
      "{%r7, %r6}], %r4;\n"
      "mov.u32 %r5, 4;\n suld.b.2d.b32.trap {%r1}, [%b, {%r5, %r6}];\n cvt.u64.u32 %o, %r1;\n",
      0, func::TexelFormat{1, 32, func::ChannelKind::Signed});
  EXPECT_EQ(s.go().o, 0u) << "a signed surface: max(0, -16)";
  const std::string out_of_range = kernel_fault([] {
    TexRun r(
        "mov.u32 %r5, 64;\n mov.u32 %r6, 0;\n mov.u32 %r1, 1;\n sured.b.add.2d.u32.trap [%b, {%r5, "
        "%r6}], %r1;\n");
    r.go();
  });
  EXPECT_NE(out_of_range.find("surface access out of range"), std::string::npos) << out_of_range;
}

TEST(TextureSemantics, SustPConvertsToTheSurfacesFormatAtASampleX) {
  // Sample (1, 1) of the float surface: 4 bytes in, row 1.
  TexRun f(
      "mov.u32 %r5, 1;\n mov.u32 %r6, 1;\n mov.b32 %r1, 0f40200000;\n sust.p.2d.b32.trap [%b, "
      "{%r5, %r6}], {%r1};\n");
  f.go();
  float got = 0;
  f.run.memory.read(f.surface + 16 + 4, &got, 4);
  EXPECT_EQ(got, 2.5f);
  // An unsigned 4 x 8-bit surface: 300 and -1 (as .u32) clamp to 255, 7 stays; A (not given) is 0.
  TexRun u(
      "mov.u32 %r5, 2;\n mov.u32 %r6, 0;\n mov.u32 %r1, 300;\n mov.u32 %r2, 7;\n mov.u32 %r3, "
      "-1;\n mov.u32 %r4, 5;\n"
      "sust.p.2d.v2.b32.trap [%b, {%r5, %r6}], {%r1, %r2};\n mov.u32 %r5, 3;\n"
      "sust.p.2d.v4.b32.trap [%b, {%r5, %r6}], {%r3, %r2, %r1, %r4};\n",
      0, func::TexelFormat{4, 8, func::ChannelKind::Unsigned});
  u.go();
  uint8_t bytes[8];
  u.run.memory.read(u.surface + 8, bytes, 8);
  EXPECT_EQ(bytes[0], 255);
  EXPECT_EQ(bytes[1], 7);
  EXPECT_EQ(bytes[2], 0);
  EXPECT_EQ(bytes[3], 0);
  EXPECT_EQ(bytes[4], 255);  // -1 as .u32
  EXPECT_EQ(bytes[5], 7);
  EXPECT_EQ(bytes[6], 255);
  EXPECT_EQ(bytes[7], 5);
  // A signed 2 x 16-bit surface clamps to [-32768, 32767]; a half surface rounds to nearest even.
  TexRun s(
      "mov.u32 %r5, 0;\n mov.u32 %r6, 0;\n mov.u32 %r1, -40000;\n mov.u32 %r2, 40000;\n"
      "sust.p.1d.v2.b32.trap [%b, {%r5}], {%r1, %r2};\n",
      0, func::TexelFormat{2, 16, func::ChannelKind::Signed});
  s.go();
  int16_t halves[2];
  s.run.memory.read(s.surface, halves, 4);
  EXPECT_EQ(halves[0], -32768);
  EXPECT_EQ(halves[1], 32767);
  TexRun h("mov.u32 %r5, 0;\n mov.b32 %r1, 0f3F801000;\n sust.p.1d.b32.trap [%b, {%r5}], {%r1};\n",
           0, func::TexelFormat{2, 16, func::ChannelKind::Float});
  h.go();
  uint16_t half = 0;
  h.run.memory.read(h.surface, &half, 2);
  EXPECT_EQ(half, 0x3C00u) << "1 + 2^-11 is the tie between 1 and 1 + 2^-10: to even";
}

TEST(TextureSemantics, AHandleThatIsNoLiveObjectFaults) {
  TexRun dead("mov.f32 %f5, 0f00000000;\n tex.1d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%c, {%f5}];\n",
              99);
  EXPECT_THROW(dead.go(), func::KernelFault);
  TexRun surface_as_texture(
      "mov.f32 %f5, 0f00000000;\n tex.1d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%b, {%f5}];\n");
  EXPECT_THROW(surface_as_texture.go(), func::KernelFault);
}

std::string bind_error(const std::string& line) {
  try {
    SnippetLaunch run(line, {Inputs{}});
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(TextureSemantics, UnsupportedFormsAreRefusedAtBindTimeWithTheirLine) {
  EXPECT_NE(bind_error("tex.2dms.v4.s32.s32 {%r1, %r2, %r3, %r4}, [%a, {%r5, %r6, %r7, %r8}];")
                .find("multisample"),
            std::string::npos);
  EXPECT_NE(
      bind_error("suld.p.2d.b32.trap {%r1}, [%a, {%r5, %r6}];").find("suld has no formatted form"),
      std::string::npos);
  EXPECT_NE(bind_error("sured.b.and.2d.u32.trap [%a, {%r5, %r6}], %r1;").find("not supported"),
            std::string::npos);  // and: .b32 only
  EXPECT_NE(bind_error("sured.p.add.1d.b64.trap [%a, {%r5}], %rd1;").find("not supported"),
            std::string::npos);  // .b64: min, max
  EXPECT_NE(bind_error("tex.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%a, {%f5}];").find("geometry"),
            std::string::npos);
  const std::string wrong =
      bind_error("tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%a, {%f5}];");  // one coordinate for 2d
  EXPECT_NE(wrong.find("tex.2d.v4.f32.f32"), std::string::npos) << wrong;
}

}  // namespace
}  // namespace gputlm::test
