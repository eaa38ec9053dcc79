// Kernel parameters of launch.json (io/workload/param_spec.h): structs laid out as C lays them
// out, raw bytes, pointers into a buffer, 64-bit and vector scalars; each mistake one ConfigError
// naming launch.json and the key, with the nearest name where one is near.
#include <gtest/gtest.h>

#include <cstring>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "io/workload/launch_spec.h"
#include "support/input_error.h"

namespace gputlm::workload {
namespace {

using nlohmann::json;

// A description whose only launch takes `param`; buffer "a" is 64 u32 (256 bytes).
json with_param(const json& param) {
  json doc = json::parse(R"({
    "sizes": {"test": {"n": 64}},
    "buffers": [{"name": "a", "type": "u32", "count": "n"}, {"name": "out", "type": "u32", "count": "n"}],
    "launches": [{"kernel": "k", "grid": 1, "block": 32, "params": []}]})");
  doc["launches"][0]["params"].push_back(param);
  return doc;
}

ParamSpec read(const json& param) {
  return parse_workload_spec(with_param(param).dump(), "launch.json", "test", "x/y")
      .launches.at(0)
      .params.at(0);
}

std::string error_of(const json& param, std::initializer_list<const char*> parts) {
  return test::input_error([&] { read(param); }, parts);
}

isa::VarDecl decl(uint32_t size, uint32_t align) {
  isa::VarDecl d;
  d.name = "k_param_0";
  d.size = size;
  d.align = align;
  return d;
}

// The parameter's bytes with buffer "a" at 0x10000000 and "out" at 0x20000000.
std::vector<uint8_t> encode(const ParamSpec& p) {
  std::vector<uint8_t> out(p.size, 0xEE);
  encode_param(p, decl(static_cast<uint32_t>(p.size), 16), {{"a", 0x10000000}, {"out", 0x20000000}},
               out);
  return out;
}

template <class T>
T at(const std::vector<uint8_t>& bytes, size_t offset) {
  T v;
  std::memcpy(&v, bytes.data() + offset, sizeof(T));
  return v;
}

TEST(ParamSpec, StructFieldsAreLaidOutAsCLaysThemOut) {
  const ParamSpec p =
      read(json::parse(R"({"struct": [{"type": "u8", "value": 7}, {"type": "u32", "value": 9},
                                                      {"buffer": "out"}, {"type": "u16", "value": 513}]})"));
  EXPECT_EQ(p.size, 24u);  // u8 @0, u32 @4, pointer @8, u16 @16, tail padding to 8
  EXPECT_EQ(p.align, 8u);
  const std::vector<uint8_t> b = encode(p);
  EXPECT_EQ(b[0], 7);
  EXPECT_EQ(at<uint32_t>(b, 4), 9u);
  EXPECT_EQ(at<uint64_t>(b, 8), 0x20000000u);
  EXPECT_EQ(at<uint16_t>(b, 16), 513);
}

TEST(ParamSpec, HexBytesEncodeAsTheSameTypedFields) {
  const ParamSpec hex = read(json{{"bytes", "0a000000FBFFFFFF"}});
  const ParamSpec typed = read(
      json::parse(R"({"struct": [{"type": "u32", "value": 10}, {"type": "s32", "value": -5}]})"));
  EXPECT_EQ(hex.size, 8u);
  EXPECT_EQ(encode(hex), encode(typed));
}

TEST(ParamSpec, PointerOffsetIsAddedToTheBuffersAddressAtTheLaunch) {
  EXPECT_EQ(at<uint64_t>(encode(read(json{{"buffer", "a"}, {"offset", "n"}})), 0),
            0x10000000u + 64);
  EXPECT_EQ(at<uint64_t>(encode(read(json{{"buffer", "a"}, {"offset", 256}})), 0),
            0x10000000u + 256)
      << "one past the end, as in C";
}

TEST(ParamSpec, U64AboveInt64MaxAndNegativeS64ArePassedWhole) {
  EXPECT_EQ(
      at<uint64_t>(encode(read(json{{"type", "u64"}, {"value", 18446744073709551615ull}})), 0),
      18446744073709551615ull);
  EXPECT_EQ(at<int64_t>(encode(read(json{{"type", "s64"}, {"value", -3}})), 0), -3);
  EXPECT_EQ(at<double>(encode(read(json{{"type", "f64"}, {"value", 0.1}})), 0), 0.1);
}

TEST(ParamSpec, VectorValueFillsAnArrayParameter) {
  const ParamSpec p = read(json{{"type", "f32"}, {"value", {1.5, 2, 3, 4}}});
  EXPECT_EQ(p.kind, "vector");
  EXPECT_EQ(p.size, 16u);
  const std::vector<uint8_t> b = encode(p);
  EXPECT_EQ(at<float>(b, 0), 1.5f);
  EXPECT_EQ(at<float>(b, 12), 4.0f);
  check_param(p, decl(16, 16), "launch.json");  // .param .align 16 .b8 p[16]: a float4
}

TEST(ParamSpec, SizeOrAlignmentOtherThanThePtxParameterIsAnErrorNamingTheKey) {
  const ParamSpec s =
      read(json::parse(R"({"struct": [{"type": "u32", "value": 1}, {"buffer": "a"}]})"));
  test::input_error([&] { check_param(s, decl(12, 8), "launch.json"); },
                    {"launch.json", "key 'launches[0].params[0]'", "is 16 bytes (struct)",
                     "PTX parameter 'k_param_0' is 12 bytes"});
  test::input_error([&] { check_param(s, decl(16, 4), "launch.json"); },
                    {"launch.json", "needs 8-byte alignment", ".align 4"});
}

TEST(ParamSpec, OffsetOutsideTheBufferIsAnErrorNamingTheKey) {
  error_of(json{{"buffer", "a"}, {"offset", 257}},
           {"launch.json", "key 'launches[0].params[0].offset'", "between 0 and 256"});
  error_of(json{{"buffer", "a"}, {"offset", -4}}, {"key 'launches[0].params[0].offset'"});
}

TEST(ParamSpec, UnknownNamesSuggestTheNearest) {
  error_of(json{{"buffer", "ot"}}, {"launch.json", "key 'launches[0].params[0].buffer'",
                                    "no buffer named 'ot'", "did you mean 'out'"});
  error_of(json{{"bufer", "a"}}, {"key 'launches[0].params[0]'", "did you mean 'buffer'"});
  error_of(json{{"buffer", "a"}, {"ofset", 4}},
           {"key 'launches[0].params[0].ofset'", "did you mean 'offset'"});
  error_of(json{{"type", "u33"}, {"value", 1}},
           {"key 'launches[0].params[0].type'", "did you mean 'u32'"});
  error_of(json::parse(R"({"struct": [{"buffer": "b"}]})"),
           {"key 'launches[0].params[0].struct[0].buffer'"});
}

TEST(ParamSpec, MalformedValuesAreErrorsNamingTheKey) {
  error_of(json{{"bytes", "0a0"}}, {"key 'launches[0].params[0].bytes'", "two per byte"});
  error_of(json{{"bytes", "zz"}}, {"key 'launches[0].params[0].bytes'"});
  error_of(json{{"struct", json::array()}}, {"key 'launches[0].params[0].struct'"});
  error_of(json{{"type", "u8"}, {"value", {1, 256}}},
           {"key 'launches[0].params[0].value[1]'", "not a value of type u8"});
  error_of(json{{"type", "u64"}, {"value", -1}}, {"key 'launches[0].params[0].value'"});
  error_of(json{{"buffer", "a"}, {"type", "u32"}}, {"key 'launches[0].params[0]'", "give one of"});
}

}  // namespace
}  // namespace gputlm::workload
