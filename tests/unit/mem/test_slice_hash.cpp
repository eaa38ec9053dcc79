// The crossbar's address-to-slice functions (XbarSpec::slice_hash) without a simulation kernel.
#include <gtest/gtest.h>

#include <set>

#include "models/common/error.h"
#include "models/mem/xbar/xbar_spec.h"

namespace gputlm::mem {
namespace {

XbarSpec hashed(const char* hash) {
  XbarSpec s;  // 256 B interleave
  s.slice_hash = hash;
  return s;
}

std::vector<uint32_t> slices_of_stride(const XbarSpec& s, uint64_t stride, uint32_t n,
                                       uint32_t slices) {
  std::vector<uint32_t> out;
  for (uint64_t i = 0; i < n; ++i) out.push_back(s.slice_of(i * stride, slices));
  return out;
}

TEST(SliceHash, ModuloKeepsConsecutiveBlocksInTurn) {
  const XbarSpec s = hashed("modulo");
  EXPECT_EQ(slices_of_stride(s, 256, 8, 6), (std::vector<uint32_t>{0, 1, 2, 3, 4, 5, 0, 1}));
}

// A 2 KB stride is 8 blocks of 256 B: modulo 8 slices puts every access on slice 0; the IPOLY
// hash (x^3 + x + 1) gives i * x^3 mod (x^3 + x + 1), distinct for i = 0 .. 7.
TEST(SliceHash, IpolySpreadsAPowerOfTwoStrideThatModuloPutsOnOneSlice) {
  EXPECT_EQ(slices_of_stride(hashed("modulo"), 2048, 8, 8), std::vector<uint32_t>(8, 0));
  EXPECT_EQ(slices_of_stride(hashed("ipoly"), 2048, 8, 8),
            (std::vector<uint32_t>{0, 3, 6, 5, 7, 4, 1, 2}));
}

TEST(SliceHash, IpolyGivesEveryPowerOfTwoStrideAllSlices) {
  const XbarSpec s = hashed("ipoly");
  for (uint32_t slices : {2u, 4u, 8u, 16u, 32u, 64u})
    for (uint64_t stride = 256; stride <= (uint64_t{1} << 24); stride *= 2) {
      const std::vector<uint32_t> v = slices_of_stride(s, stride, slices, slices);
      EXPECT_EQ(std::set<uint32_t>(v.begin(), v.end()).size(), slices)
          << slices << " slices, stride " << stride;
    }
}

// Not a power of two (the GTX 480's 6 partitions): the remainder of degree 3 mod 6. A 4 KB stride
// (16 blocks) reaches 3 slices by modulo, all 6 in its first 8 accesses by the hash.
TEST(SliceHash, IpolyOverSixSlicesReachesAllOfThemWhereModuloReachesThree) {
  const std::vector<uint32_t> m = slices_of_stride(hashed("modulo"), 4096, 8, 6),
                              h = slices_of_stride(hashed("ipoly"), 4096, 8, 6);
  EXPECT_EQ(m, (std::vector<uint32_t>{0, 4, 2, 0, 4, 2, 0, 4}));
  EXPECT_EQ(std::set<uint32_t>(h.begin(), h.end()).size(), 6u);
}

TEST(SliceHash, AnUnknownHashIsRefusedByName) {
  try {
    XbarSpec::from_json(nlohmann::json::parse(R"({"slice_hash": "xor"})"), "c.json", "xbar");
    FAIL();
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("key 'xbar.slice_hash'"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace gputlm::mem
