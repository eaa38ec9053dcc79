// The dynamic trace format (traces/FORMAT.md): what the writer writes the reader gives back, with
// addresses in whichever encoding fits; bad traces are one error naming the file and line.
#include <gtest/gtest.h>

#include <random>
#include <sstream>

#include "io/trace/trace_format.h"
#include "models/common/error.h"

namespace gputlm::trace {
namespace {

InstrRecord memory_instr(LaneMask accessed, const std::function<uint64_t(unsigned)>& address) {
  InstrRecord r;
  r.pc = 7;
  r.block = 2;
  r.mask = 0xffffffffu;
  r.opcode = "ld.global.f32";
  r.defs = {"%f1"};
  r.uses = {"%p1", "%rd4"};
  r.result.active = accessed;
  r.result.space = isa::Space::Global;
  r.result.access_bytes = 4;
  r.result.accessed = accessed;
  for (unsigned l = 0; l < kWarpSize; ++l) r.result.addr[l] = accessed >> l & 1 ? address(l) : 0;
  return r;
}

// Writes one launch with one warp of `records`, reads it back.
std::vector<InstrRecord> round_trip(const std::vector<InstrRecord>& records,
                                    std::string* text = nullptr) {
  std::stringstream s;
  TraceWriter w(s, "micro/x", "test", ".version 7.0\n\n# not a comment here\n.entry k()\n{\n}");
  w.launch({0, "k", {2, 1, 1}, {64, 1, 1}, 128, 9});
  w.warp({1, 1, records.size()});
  for (const InstrRecord& r : records) w.instruction(r);
  if (text) *text = s.str();
  TraceReader reader(s, "t.trace");
  EXPECT_EQ(reader.workload(), "micro/x");
  EXPECT_EQ(reader.ptx(), ".version 7.0\n\n# not a comment here\n.entry k()\n{\n}\n");
  EXPECT_EQ(reader.ptx_line(), 4u);
  EXPECT_EQ(reader.next(), TraceReader::Kind::Launch);
  EXPECT_EQ(reader.launch.kernel, "k");
  EXPECT_EQ(reader.launch.block.x, 64u);
  EXPECT_EQ(reader.launch.shared_bytes, 128u);
  EXPECT_EQ(reader.next(), TraceReader::Kind::Warp);
  EXPECT_EQ(reader.warp.cta, 1u);
  std::vector<InstrRecord> out;
  while (reader.next() == TraceReader::Kind::Instruction) out.push_back(reader.instr);
  return out;
}

void expect_same(const InstrRecord& a, const InstrRecord& b) {
  EXPECT_EQ(a.pc, b.pc);
  EXPECT_EQ(a.block, b.block);
  EXPECT_EQ(a.mask, b.mask);
  EXPECT_EQ(a.opcode, b.opcode);
  EXPECT_EQ(a.defs, b.defs);
  EXPECT_EQ(a.uses, b.uses);
  EXPECT_EQ(a.row_hint, b.row_hint);
  EXPECT_EQ(a.targets, b.targets);
  const func::ExecResult &x = a.result, &y = b.result;
  EXPECT_EQ(x.active, y.active);
  EXPECT_EQ(x.taken, y.taken);
  EXPECT_EQ(x.exit, y.exit);
  EXPECT_EQ(x.barrier, y.barrier);
  EXPECT_EQ(x.barrier_id, y.barrier_id);
  EXPECT_EQ(x.barrier_count, y.barrier_count);
  EXPECT_EQ(x.space, y.space);
  EXPECT_EQ(x.access_bytes, y.access_bytes);
  EXPECT_EQ(x.accessed, y.accessed);
  for (unsigned l = 0; l < kWarpSize; ++l) {
    if ((a.targets ? x.taken : x.accessed) >> l & 1) {
      EXPECT_EQ(x.addr[l], y.addr[l]) << "lane " << l;
    }
  }
}

TEST(TraceFormat, AddressesComeBackInEveryEncoding) {
  std::mt19937_64 rng(3);
  const std::vector<InstrRecord> in = {
      memory_instr(0xffffffffu, [](unsigned l) { return 0x1000 + 4 * l; }),  // base + stride
      memory_instr(
          0x0f0f00f1u,
          [](unsigned l) { return 0x9000 - 128 * uint64_t{l}; }),  // a negative stride, holes
      memory_instr(0xffff0000u,
                   [](unsigned l) { return 0x4000 + (l * 37 % 11) * 8; }),    // small deltas
      memory_instr(0x00000003u, [&](unsigned) { return rng(); }),             // anywhere: a list
      memory_instr(0x00000100u, [](unsigned) { return 0x7E0000000040ull; }),  // one lane
  };
  std::string text;
  const std::vector<InstrRecord> out = round_trip(in, &text);
  ASSERT_EQ(out.size(), in.size());
  for (size_t i = 0; i < in.size(); ++i) expect_same(in[i], out[i]);
  EXPECT_NE(text.find(" s 1000 4"), std::string::npos) << text;
  EXPECT_NE(text.find(" d "), std::string::npos) << text;
  EXPECT_NE(text.find(" l "), std::string::npos) << text;
}

TEST(TraceFormat, ControlFieldsComeBack) {
  InstrRecord bra;
  bra.pc = 12;
  bra.block = 3;
  bra.mask = 0x0000ffffu;
  bra.opcode = "bra.uni";
  bra.uses = {"%p2"};
  bra.result.active = 0x000000ffu;  // the guard held on 8 lanes
  bra.result.taken = 0x0000000fu;
  InstrRecord bar;
  bar.opcode = "bar.sync";
  bar.mask = bar.result.active = 0xffffffffu;
  bar.result.barrier = true;
  bar.result.barrier_id = 1;
  bar.result.barrier_count = 64;
  InstrRecord ret;
  ret.opcode = "ret";
  ret.mask = ret.result.active = 0x1u;
  ret.result.exit = true;
  InstrRecord hinted = memory_instr(0x3u, [](unsigned l) { return 64 * uint64_t{l}; });
  hinted.row_hint = true;
  InstrRecord brx;  // brx.idx: each taken lane's target pc (field j)
  brx.opcode = "brx.idx";
  brx.mask = brx.result.active = 0xf0000003u;
  brx.result.taken = 0x70000003u;
  brx.targets = true;
  for (unsigned l : {0u, 1u, 28u, 29u, 30u}) brx.result.addr[l] = 40 + l % 3;
  const std::vector<InstrRecord> in = {bra, bar, ret, hinted, brx};
  std::string text;
  const std::vector<InstrRecord> out = round_trip(in, &text);
  EXPECT_NE(text.find(" t 70000003 j 40 41 41 42 40\n"), std::string::npos) << text;
  ASSERT_EQ(out.size(), in.size());
  for (size_t i = 0; i < in.size(); ++i) expect_same(in[i], out[i]);
}

// The error for `text` read as a trace.
std::string error_of(const std::string& text) {
  std::istringstream s(text);
  try {
    TraceReader r(s, "bad.trace");
    while (r.next() != TraceReader::Kind::End) {}
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(TraceFormat, BadTracesAreOneErrorWithTheirLine) {
  const std::string head =
      "gputlm-trace 1\nworkload w size test\nmodule 0\nlaunch 0 kernel k grid 1 1 1 block 32 1 1 "
      "shared 0 registers 4\n";
  EXPECT_NE(error_of("").find("bad.trace:0: empty file"), std::string::npos) << error_of("");
  EXPECT_NE(
      error_of("gputlm-trace 9\n").find("bad.trace:1: trace format version 9 is not supported"),
      std::string::npos);
  EXPECT_NE(error_of("gputlm-trace 1\nworkload w size test\nmodule 3\n.version 7.0\n")
                .find("bad.trace:4: truncated: the module has 1 of its 3 lines"),
            std::string::npos);
  EXPECT_NE(error_of("hello\n").find("bad.trace:1: not a gputlm trace"), std::string::npos);
  const std::string truncated = error_of(head + "warp 0 0 3\n0 0 ffffffff mov.u32 %r1 -\n");
  EXPECT_NE(truncated.find("truncated: warp 0 of CTA 0 lacks 2 instruction line(s)"),
            std::string::npos)
      << truncated;
  const std::string unknown = error_of(head + "warp 0 0 1\n0 0 ffffffff mov.u32 %r1 - q 3\n");
  EXPECT_NE(unknown.find("bad.trace:6: unknown field 'q'"), std::string::npos) << unknown;
  const std::string short_mem = error_of(
      head + "# a comment\n\nwarp 0 0 1\n0 0 3 ld.global.u32 %r1 %rd1 m global 4 3 s 100\n");
  EXPECT_NE(short_mem.find("bad.trace:8: field 'm' is incomplete"), std::string::npos) << short_mem;
  const std::string short_targets = error_of(head + "warp 0 0 1\n0 0 3 brx.idx - %r1 t 3 j 12\n");
  EXPECT_NE(short_targets.find("bad.trace:6: field 'j' is incomplete"), std::string::npos)
      << short_targets;
  EXPECT_NE(error_of(head + "cta 0\n").find("bad.trace:5: expected 'launch' or 'warp'"),
            std::string::npos);
  EXPECT_NE(error_of("gputlm-trace 1\nworkload w size test\nmodule 0\nwarp 0 0 0\n")
                .find("a warp before any launch"),
            std::string::npos);
}

}  // namespace
}  // namespace gputlm::trace
