// The launch description reader (io/workload/launch_spec.h) on hostile input: every wrong JSON
// type, out-of-range number, overflowing expression and oversized request is one ConfigError
// naming launch.json and the key, before anything is allocated or run.
#include <gtest/gtest.h>

#include <cstring>
#include <nlohmann/json.hpp>
#include <string>

#include "io/workload/launch_spec.h"
#include "support/input_error.h"

namespace gputlm::workload {
namespace {

using nlohmann::json;

json valid() {
  return json::parse(R"({
    "sizes": {"test": {"n": 1000}},
    "buffers": [{"name": "a", "type": "f32", "count": "n", "init": {"gen": "uniform", "min": -1.0, "max": 1.0},
                 "check": {"mode": "float", "rel": 1e-6}}],
    "launches": [{"kernel": "k", "grid": "(n + 255) / 256", "block": 256, "shared_bytes": 0,
                  "params": [{"buffer": "a"}, {"type": "u32", "value": "n"}]}]})");
}

WorkloadSpec parse(const std::string& text) {
  return parse_workload_spec(text, "launch.json", "test", "x/y");
}

// The error of `doc` with `path` (a JSON pointer) set to `value`, naming launch.json and `key`.
std::string error_with(const std::string& pointer, const json& value, const char* key) {
  json doc = valid();
  doc[json::json_pointer(pointer)] = value;
  return test::input_error([&] { parse(doc.dump()); }, {"launch.json", key});
}

TEST(LaunchSpec, TheValidDescriptionReads) {
  const WorkloadSpec s = parse(valid().dump());
  EXPECT_EQ(s.launches.at(0).grid.x, 4u);
  EXPECT_EQ(s.buffers.at(0).count, 1000u);
}

TEST(LaunchSpec, RejectsWrongJsonTypesNamingTheKey) {
  error_with("/seed", "x", "key 'seed'");
  error_with("/buffers", 5, "key 'buffers'");
  error_with("/buffers/0", 5, "key 'buffers[0]'");
  error_with("/launches/0/params", json::object(), "key 'launches[0].params'");
  error_with("/launches/0/params/0", 3, "key 'launches[0].params[0]'");
  error_with("/launches/0/swap", json::array({json::array({1, 2})}), "key 'launches[0].swap'");
  error_with("/launches/0/swap", 7, "key 'launches[0].swap'");
  error_with("/buffers/0/check/rel", "x", "key 'buffers[0].check.rel'");
  error_with("/buffers/0/init", "zeros", "key 'buffers[0].init'");
  error_with("/sizes/test", 3, "key 'sizes.test'");
  error_with("/reference", 1, "key 'reference'");
  test::input_error([] { parse("[1, 2]"); }, {"launch.json", "(root)"});
}

TEST(LaunchSpec, RejectsNumbersOutOfRangeOfJson) {
  test::input_error([] { parse(R"({"sizes": {"test": {"n": 1e400}}})"); },
                    {"launch.json", "invalid JSON"});
  error_with("/sizes/test/n", 18446744073709551615ull, "key 'sizes.test.n'");
}

TEST(LaunchSpec, RejectsGridThatOverflows) {
  error_with("/launches/0/grid", "n * 4611686018427387904", "key 'launches[0].grid'");
  error_with("/launches/0/grid", "-9223372036854775807 - 1 - 1", "does not fit in 64 bits");
}

TEST(LaunchSpec, RejectsExpressionsThatDivideInt64MinByMinusOne) {
  error_with("/launches/0/grid", "(-9223372036854775807 - 1) / -1", "key 'launches[0].grid'");
}

TEST(LaunchSpec, RejectsDeeplyNestedExpressions) {
  error_with("/launches/0/grid", std::string(50000, '(') + "1" + std::string(50000, ')'),
             "nested deeper");
}

TEST(LaunchSpec, RejectsGridsOfMoreCtasThanTheLimit) {
  error_with("/launches/0/grid", 2147483647, "max_ctas_per_launch");
  error_with("/launches/0/grid", json::array({65536, 65536}), "key 'launches[0].grid[1]'");
  error_with("/launches/0/grid", 0, "key 'launches[0].grid'");
}

TEST(LaunchSpec, RejectsBlockWhoseThreadCountWraps) {
  error_with("/launches/0/block", json::array({65536, 65536, 1}), "key 'launches[0].block[0]'");
  error_with("/launches/0/block", json::array({1024, 1024, 64}), "max_threads_per_cta");
}

TEST(LaunchSpec, RejectsSharedBytesAbove32Bits) {
  error_with("/launches/0/shared_bytes", 4294967297ull, "max_shared_bytes");
}

TEST(LaunchSpec, RejectsBuffersLargerThanTheLimit) {
  error_with("/buffers/0/count", 17179869184ull, "max_buffer_bytes");
  json doc = valid();
  for (int i = 1; i < 6; ++i)
    doc["buffers"].push_back(
        {{"name", "b" + std::to_string(i)}, {"type", "f64"}, {"count", 134217728}});
  test::input_error([&] { parse(doc.dump()); }, {"launch.json", "max_total_buffer_bytes"});
}

TEST(LaunchSpec, RejectsRepeatsAboveTheLimit) {
  error_with("/launches/0/repeat", 2147483647, "max_launch_repeat");
}

TEST(LaunchSpec, RejectsGeneratorValuesOutsideTheBufferType) {
  error_with("/buffers/0/init/max", 1e300, "key 'buffers[0].init.max'");
  error_with("/buffers/0/init", json{{"gen", "const"}, {"value", 1e39}},
             "key 'buffers[0].init.value'");
  error_with("/buffers/0/init", json{{"gen", "iota"}, {"start", 0}, {"step", 1e36}},
             "key 'buffers[0].init.step'");
  error_with("/buffers/0/init", json{{"gen", "zeros"}, {"min", 1}}, "key 'buffers[0].init.min'");
  error_with("/buffers/0/init", json{{"gen", "fibonacci"}}, "key 'buffers[0].init.gen'");
}

TEST(LaunchSpec, RejectsScalarParametersOutsideTheirType) {
  error_with("/launches/0/params/1/value", 4294967296ull, "key 'launches[0].params[1].value'");
  error_with("/launches/0/params/1", json{{"type", "f32"}, {"value", 1e300}},
             "key 'launches[0].params[1].value'");
  json doc = valid();
  doc["launches"][0]["params"][1] = json{{"type", "s64"}, {"value", INT64_MIN}};
  const ParamSpec p = parse(doc.dump()).launches[0].params[1];
  int64_t v = 0;
  ASSERT_EQ(p.pieces.at(0).bytes.size(), 8u);
  std::memcpy(&v, p.pieces[0].bytes.data(), 8);
  EXPECT_EQ(v, INT64_MIN);
}

}  // namespace
}  // namespace gputlm::workload
