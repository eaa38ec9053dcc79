// The PTX front end on hostile numbers: sizes, counts and register declarations are checked
// against models/common/limits.h instead of being truncated to 32 bits or allocated unbounded;
// each is one SourceError naming the file and line.
#include <gtest/gtest.h>

#include <string>

#include "models/isa/ptx_parser.h"
#include "support/input_error.h"

namespace gputlm::isa {
namespace {

// Parses like parse_ptx and throws the error of a kernel that failed (each case has one kernel).
std::unique_ptr<Module> parse_ptx(const std::string& text, const std::string& file) {
  auto m = isa::parse_ptx(text, file);
  m->require_all_kernels();
  return m;
}

// A kernel whose body declares `decl` on line 6.
std::string kernel(const std::string& decl, const std::string& address_size = "64") {
  return ".version 7.0\n.target sm_75\n.address_size " + address_size +
         "\n.visible .entry k()\n{\n" + decl + "\n  ret;\n}\n";
}

TEST(PtxParser, RejectsAddressSizeThatIsNotANumber) {
  EXPECT_EQ(parse_ptx(kernel(""), "k.ptx")->address_size, 64u);
  test::input_error([] { parse_ptx(kernel("", "x"), "k.ptx"); }, {"k.ptx:3:", "expected a number"});
  test::input_error([] { parse_ptx(kernel("", "128"), "k.ptx"); },
                    {"k.ptx:3:", "must be 32 or 64"});
}

TEST(PtxParser, RejectsRegisterCountsTruncatedTo32Bits) {
  test::input_error([] { parse_ptx(kernel("  .reg .b32 %r<4294967343>;"), "k.ptx"); },
                    {"k.ptx:6:", "max_registers_per_kernel"});
}

TEST(PtxParser, RejectsPredicateRegisterCountsOf64Bits) {
  test::input_error([] { parse_ptx(kernel("  .reg .pred %p<18446744073709551615>;"), "k.ptx"); },
                    {"k.ptx:6:"});
  test::input_error(
      [] { parse_ptx(kernel("  .reg .pred %p<40000>;\n  .reg .b32 %r<40000>;"), "k.ptx"); },
      {"k.ptx:7:", "max_registers_per_kernel"});
}

TEST(PtxParser, RejectsArraySizesTruncatedTo32Bits) {
  test::input_error(
      [] { parse_ptx(kernel("  .shared .align 4 .b8 partial[4294968320];"), "k.ptx"); },
      {"k.ptx:6:", "max_variable_bytes"});
  test::input_error([] { parse_ptx(kernel("  .local .align 8 .b64 big[4194304];"), "k.ptx"); },
                    {"k.ptx:6:", "max_variable_bytes"});
  test::input_error(
      [] { parse_ptx(kernel("  .shared .b32 a[4194300];\n  .shared .b32 b[4194300];"), "k.ptx"); },
      {"k.ptx:7:", "max_variable_bytes"});
}

TEST(PtxParser, RejectsAlignmentsThatAreNotPowersOfTwo) {
  test::input_error([] { parse_ptx(kernel("  .shared .align 3 .b8 s[4];"), "k.ptx"); },
                    {"k.ptx:6:", "power of two"});
  test::input_error([] { parse_ptx(kernel("  .shared .align 4294967296 .b8 s[4];"), "k.ptx"); },
                    {"k.ptx:6:", "max_align"});
}

// Fuzz finding (fuzz_trace, in a trace's module): a branch to a number or past the last
// instruction indexed the CFG builder's block table out of range.
TEST(PtxParser, RejectsBranchTargetsThatAreNotLabelsInTheKernel) {
  test::input_error([] { parse_ptx(kernel("  bra 99;"), "k.ptx"); }, {"k.ptx:6:", "branch target"});
  test::input_error([] { parse_ptx(kernel("  .reg .b32 %r;\n  bra %r;"), "k.ptx"); },
                    {"k.ptx:7:", "undefined label"});
  EXPECT_EQ(parse_ptx(kernel("  bra L;\nL:"), "k.ptx")->kernels.at(0)->code.size(), 2u);
}

}  // namespace
}  // namespace gputlm::isa
