// Every wmma form sm_70..sm_89 allow (PTX ISA 9.7.14.4: .f16 with .f16/.f32 accumulators, .bf16,
// .tf32, .s8/.u8, .s4/.u4, .b1 with .xor.popc/.and.popc, .f64), each shape, and every layout of
// A, B, C and D: wmma.load of A, B and C from memory, wmma.mma, wmma.store of D. The result in
// memory is fixed by the ISA whatever the fragment layout (gputlm's choice): D = A x B + C,
// element by element. Values are small integers, exact in every type, so D is exact.
#include <gtest/gtest.h>

#include <functional>

#include "models/func/semantics/small_float.h"
#include "tensor_warp_harness.h"

namespace gputlm {
namespace {

struct Form {
  unsigned m, n, k;
  std::string ab, cd, c;  // element types of A/B, D and C
  std::string mma_types;  // the type suffix of wmma.mma
  bool any_layout;        // A and B in either layout (sub-byte types: .row A, .col B only)
  std::string op = "";    // .b1: ".xor.popc" or ".and.popc"
};

unsigned type_bits(const std::string& t) {
  if (t == "f16" || t == "bf16") return 16;
  if (t == "f32" || t == "tf32" || t == "s32") return 32;
  if (t == "f64") return 64;
  if (t == "s8" || t == "u8") return 8;
  if (t == "s4" || t == "u4") return 4;
  return 1;  // b1
}
// Registers of a fragment: E elements per lane, .f16 A/B always 8 registers (PTX ISA 9.7.14.4.1).
unsigned regs(const Form& f, char part, const std::string& t) {
  const unsigned rows = part == 'b' ? f.k : f.m, cols = part == 'a' ? f.k : f.n;
  if ((part == 'a' || part == 'b') && t == "f16") return 8;
  return rows * cols * type_bits(t) / (32 * (t == "f64" ? 64 : 32));
}
// A small integer value of element i of a matrix of type t (exact in every type).
int64_t value(const std::string& t, unsigned i, unsigned salt) {
  const unsigned h = (i * 2654435761u + salt * 97u) >> 7;
  if (t == "b1") return h & 1;
  if (t == "u4") return h % 16;
  if (t == "s4") return static_cast<int64_t>(h % 16) - 8;
  if (t == "u8") return h % 256;
  if (t == "s8") return static_cast<int64_t>(h % 256) - 128;
  if (t == "s32") return static_cast<int64_t>(h % 200001) - 100000;
  return static_cast<int64_t>(h % 9) - 4;  // floats
}
uint64_t encode(const std::string& t, int64_t v) {
  if (t == "f16") return func::sem::to_f16(static_cast<double>(v));
  if (t == "bf16") return func::sem::to_bf16(static_cast<double>(v));
  if (t == "f32" || t == "tf32") return test::f32_bits(static_cast<float>(v));
  if (t == "f64") return test::f64_bits(static_cast<double>(v));
  return static_cast<uint64_t>(v);
}
double decode(const std::string& t, uint64_t bits) {
  if (t == "f16") return func::sem::from_f16(static_cast<uint16_t>(bits));
  if (t == "f32") return test::bits_f32(bits);
  if (t == "f64") return test::bits_f64(bits);
  return static_cast<int32_t>(bits);
}
// Element (r, c) of a rows x cols matrix stored .row or .col with leading dimension ld.
uint64_t elem_index(bool col, unsigned ld, unsigned r, unsigned c) {
  return col ? uint64_t{c} * ld + r : uint64_t{r} * ld + c;
}
void put_bits(uint8_t* base, uint64_t index, unsigned bits, uint64_t v) {
  const uint64_t bit = index * bits;
  if (bits >= 8) {
    std::memcpy(base + bit / 8, &v, bits / 8);
    return;
  }
  base[bit / 8] = static_cast<uint8_t>((base[bit / 8] & ~(((1u << bits) - 1) << (bit % 8))) |
                                       ((v & ((1u << bits) - 1)) << (bit % 8)));
}
uint64_t get_bits(const uint8_t* base, uint64_t index, unsigned bits) {
  uint64_t v = 0;
  std::memcpy(&v, base + index * bits / 8, bits / 8);
  return v;
}

std::string reg_list(const std::string& prefix, unsigned first, unsigned n) {
  std::string s = "{";
  for (unsigned i = 0; i < n; ++i) s += (i ? ", " : "") + prefix + std::to_string(first + i);
  return s + "}";
}

// Runs one form with the given layouts (.col when true) and an explicit stride for A when
// `a_stride` is not 0; checks D element by element.
void check_form(const Form& f, bool a_col, bool b_col, bool c_col, bool d_col, unsigned a_stride) {
  const std::string shape =
      "m" + std::to_string(f.m) + "n" + std::to_string(f.n) + "k" + std::to_string(f.k);
  const auto layout = [](bool col) { return std::string(col ? "col" : "row"); };
  const bool f64 = f.ab == "f64";
  const unsigned na = regs(f, 'a', f.ab), nb = regs(f, 'b', f.ab), nc = regs(f, 'c', f.c),
                 nd = regs(f, 'd', f.cd);
  const unsigned lda = a_stride ? a_stride : (a_col ? f.m : f.k), ldb = b_col ? f.k : f.n,
                 ldc = c_col ? f.m : f.n, ldd = d_col ? f.m : f.n;
  std::vector<test::LaneWords> in(32, test::LaneWords{});
  auto* bytes = reinterpret_cast<uint8_t*>(in.data());
  std::vector<int64_t> A(f.m * f.k), B(f.k * f.n), C(f.m * f.n);
  for (unsigned r = 0; r < f.m; ++r)
    for (unsigned c = 0; c < f.k; ++c) {
      A[r * f.k + c] = value(f.ab, r * f.k + c, 1);
      put_bits(bytes, elem_index(a_col, lda, r, c), type_bits(f.ab), encode(f.ab, A[r * f.k + c]));
    }
  for (unsigned r = 0; r < f.k; ++r)
    for (unsigned c = 0; c < f.n; ++c) {
      B[r * f.n + c] = value(f.ab, r * f.n + c, 2);
      put_bits(bytes + 1024, elem_index(b_col, ldb, r, c), type_bits(f.ab),
               encode(f.ab, B[r * f.n + c]));
    }
  for (unsigned r = 0; r < f.m; ++r)
    for (unsigned c = 0; c < f.n; ++c) {
      C[r * f.n + c] = value(f.c, r * f.n + c, 3);
      put_bits(bytes + 2048, elem_index(c_col, ldc, r, c), type_bits(f.c),
               encode(f.c, C[r * f.n + c]));
    }
  // Fragments: A, B, C, D in %r0.. one after another (.f64: %fd0..).
  const std::string p = f64 ? "%fd" : "%r";
  const std::string ra = reg_list(p, 0, na), rb = reg_list(p, na, nb),
                    rc = reg_list(p, na + nb, nc), rd = reg_list(p, na + nb + nc, nd);
  const std::string sa = a_stride ? ", " + std::to_string(a_stride) : "";
  const std::string body =
      std::string(
          "ld.param.u64 %rd0, [pin];\n  ld.param.u64 %rd1, [pout];\n  add.u64 %rd2, %rd0, "
          "1024;\n") +
      "  add.u64 %rd3, %rd0, 2048;\n  wmma.load.a.sync.aligned." + layout(a_col) + "." + shape +
      ".global." + f.ab + " " + ra + ", [%rd0]" + sa + ";\n" + "  wmma.load.b.sync.aligned." +
      layout(b_col) + "." + shape + ".global." + f.ab + " " + rb + ", [%rd2];\n" +
      "  wmma.load.c.sync.aligned." + layout(c_col) + "." + shape + ".global." + f.c + " " + rc +
      ", [%rd3];\n" + "  wmma.mma" + f.op + ".sync.aligned." + layout(a_col) + "." + layout(b_col) +
      "." + shape + "." + f.mma_types + " " + rd + ", " + ra + ", " + rb + ", " + rc + ";\n" +
      "  wmma.store.d.sync.aligned." + layout(d_col) + "." + shape + ".global." + f.cd +
      " [%rd1], " + rd +
      ";\n  bar.sync 0;\n  ld.global.v4.b32 {%r32, %r33, %r34, %r35}, [%out];\n" +
      "  ld.global.v4.b32 {%r36, %r37, %r38, %r39}, [%out+16];";
  const auto out = test::run_tensor_warp(body, in);
  const auto* dbytes = reinterpret_cast<const uint8_t*>(out.data());
  for (unsigned r = 0; r < f.m; ++r)
    for (unsigned c = 0; c < f.n; ++c) {
      int64_t want = C[r * f.n + c];
      for (unsigned x = 0; x < f.k; ++x) {
        const int64_t a = A[r * f.k + x], b = B[x * f.n + c];
        want += f.op == ".xor.popc" ? (a ^ b) : a * b;  // .and.popc: a & b = a * b for bits
      }
      const double got =
          decode(f.cd, get_bits(dbytes, elem_index(d_col, ldd, r, c), type_bits(f.cd)));
      ASSERT_EQ(got, static_cast<double>(want))
          << shape << " " << f.mma_types << f.op << " A ." << layout(a_col) << " B ."
          << layout(b_col) << " C ." << layout(c_col) << " D ." << layout(d_col) << ": D[" << r
          << "][" << c << "]\n"
          << body;
    }
}

void check_layouts(const Form& f) {
  for (unsigned bits = 0; bits < 16; ++bits) {
    const bool a_col = bits & 1, b_col = bits & 2, c_col = bits & 4, d_col = bits & 8;
    if (!f.any_layout && (a_col || !b_col)) continue;
    check_form(f, a_col, b_col, c_col, d_col, 0);
  }
}

std::vector<Form> half_shapes(const std::string& ab, const std::string& cd, const std::string& c,
                              const std::string& types) {
  return {{16, 16, 16, ab, cd, c, types, true},
          {32, 8, 16, ab, cd, c, types, true},
          {8, 32, 16, ab, cd, c, types, true}};
}

TEST(WmmaForms, F16WithEveryAccumulatorPairShapeAndLayout) {
  for (const auto& [d, c] : std::vector<std::pair<std::string, std::string>>{
           {"f32", "f32"}, {"f16", "f16"}, {"f32", "f16"}, {"f16", "f32"}})
    for (const Form& f : half_shapes("f16", d, c, d + "." + c)) check_layouts(f);
}
TEST(WmmaForms, Bf16EveryShapeAndLayout) {
  for (const Form& f : half_shapes("bf16", "f32", "f32", "f32.bf16.bf16.f32")) check_layouts(f);
}
TEST(WmmaForms, Tf32M16n16k8EveryLayout) {
  check_layouts({16, 16, 8, "tf32", "f32", "f32", "f32.tf32.tf32.f32", true});
}
TEST(WmmaForms, F64M8n8k4EveryLayout) {
  check_layouts({8, 8, 4, "f64", "f64", "f64", "f64.f64.f64.f64", true});
}
TEST(WmmaForms, S8AndU8EveryShapeAndLayout) {
  for (const std::string t : {"s8", "u8"})
    for (const Form& f : half_shapes(t, "s32", "s32", "s32." + t + "." + t + ".s32"))
      check_layouts(f);
}
TEST(WmmaForms, S4AndU4RowCol) {
  for (const std::string t : {"s4", "u4"})
    check_layouts({8, 8, 32, t, "s32", "s32", "s32." + t + "." + t + ".s32", false});
}
TEST(WmmaForms, B1XorAndAndPopcRowCol) {
  for (const std::string op : {".xor.popc", ".and.popc"})
    check_layouts({8, 8, 128, "b1", "s32", "s32", "s32.b1.b1.s32", false, op});
}
// An A of stride larger than its rows or columns, in either layout.
TEST(WmmaForms, ExplicitStridesSkipThePadding) {
  for (const bool col : {false, true}) {
    check_form({16, 16, 16, "f16", "f32", "f32", "f32.f32", true}, col, !col, col, !col, 24);
    check_form({8, 8, 4, "f64", "f64", "f64", "f64.f64.f64.f64", true}, col, col, !col, col, 12);
  }
}

}  // namespace
}  // namespace gputlm
