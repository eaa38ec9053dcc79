// Workloads without a CPU reference through the gputlm executable (tests/data/workloads/noref:
// a struct parameter with a pointer field, a pointer 64 bytes into a buffer, a u64 above 2^63 and
// a float4): the run says UNCHECKED and exits 0, --dump-outputs writes the bytes the kernel
// computes, bad parameters are one error naming launch.json and the key (exit 2), and a relative
// workload path finds the same reference as the full one.
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <vector>

#include "support/files.h"
#include "support/shell.h"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const char* kNoref = "tests/data/workloads/noref";

using Result = gputlm::test::CliResult;
Result gputlm(const std::string& args, const std::string& dir = ".") {
  return gputlm::test::gputlm_cli(args, dir);
}
bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}
std::string scratch(const std::string& name) {
  return gputlm::test::scratch_file("unchecked_test", name);
}

// What the fixture's kernel writes: out[i] = a[16 + i] * 3 - 5 + (i < m ? extra[i] : 0) + (big >>
// 32) + (uint32_t)v.y with a[j] = 3j, extra[i] = 7 + 5i, big = 0x8000000500000001, v.y = 42, n =
// 300, m = 100.
std::vector<uint8_t> expected_out() {
  std::vector<uint32_t> out(300);
  for (uint32_t i = 0; i < out.size(); ++i)
    out[i] =
        3 * (16 + i) * 3 + static_cast<uint32_t>(-5) + (i < 100 ? 7 + 5 * i : 0) + 0x80000005u + 42;
  std::vector<uint8_t> bytes(out.size() * 4);
  for (size_t i = 0; i < out.size(); ++i)
    for (size_t b = 0; b < 4; ++b)
      bytes[i * 4 + b] = static_cast<uint8_t>(out[i] >> (8 * b));  // little-endian
  return bytes;
}

std::vector<uint8_t> read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// A copy of the fixture in a scratch directory `name` with launch.json changed by `edit`.
std::string fixture_copy(const std::string& name, const std::function<void(json&)>& edit,
                         const char* from = kNoref) {
  const fs::path dir = scratch(name);
  fs::create_directories(dir);
  fs::copy_file(fs::path(GPUTLM_SOURCE_DIR) / from / "kernel.ptx", dir / "kernel.ptx",
                fs::copy_options::overwrite_existing);
  json doc = json::parse(
      gputlm::test::read_text((fs::path(GPUTLM_SOURCE_DIR) / from / "launch.json").string()));
  edit(doc);
  std::ofstream(dir / "launch.json") << doc.dump(2);
  return dir.string();
}

void expect_dump(const std::string& dir, const char* mode) {
  const json index = json::parse(gputlm::test::read_text(dir + "/outputs.json"));
  EXPECT_EQ(index["workload"], "workloads/noref");
  EXPECT_EQ(index["mode"], mode);
  EXPECT_EQ(index["verify"]["status"], "unchecked");
  EXPECT_EQ(index["launches"][0]["kernel"], "affine");
  ASSERT_EQ(index["buffers"].size(), 1u) << "only the buffer marked \"output\": " << index.dump(2);
  const json& out = index["buffers"][0];
  EXPECT_EQ(out["name"], "out");
  EXPECT_EQ(out["type"], "u32");
  EXPECT_EQ(out["count"], 300);
  EXPECT_EQ(out["bytes"], 1200);
  EXPECT_EQ(out["status"], "unchecked");
  EXPECT_EQ(read_bytes(dir + "/" + out["file"].get<std::string>()), expected_out());
}

TEST(UncheckedWorkload, FunctionalRunSaysUncheckedExitsZeroAndDumpsTheKernelsBytes) {
  const std::string dump = scratch("functional"), stats = scratch("functional.json");
  const Result r = gputlm(std::string("run --functional --workload ") + kNoref +
                          " --dump-outputs " + dump + " --stats " + stats);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(contains(r.output, "UNCHECKED (no buffers checked): no CPU reference")) << r.output;
  EXPECT_FALSE(contains(r.output, "FAILED")) << r.output;
  EXPECT_EQ(json::parse(gputlm::test::read_text(stats))["verify"]["status"], "unchecked");
  expect_dump(dump, "functional");
}

TEST(UncheckedWorkload, TimingRunSaysUncheckedExitsZeroAndDumpsTheKernelsBytes) {
  const std::string dump = scratch("timing"), stats = scratch("timing.json");
  const Result r = gputlm(std::string("run --config configs/narasiman-baseline.json --workload ") +
                          kNoref + " --dump-outputs " + dump + " --stats " + stats);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(contains(r.output, "UNCHECKED (no buffers checked)")) << r.output;
  const json j = json::parse(gputlm::test::read_text(stats));
  EXPECT_EQ(j["verify"]["status"], "unchecked");
  EXPECT_FALSE(j["verify"]["reason"].get<std::string>().empty());
  expect_dump(dump, "timing");
  EXPECT_EQ(json::parse(gputlm::test::read_text(dump + "/outputs.json"))["config"]["name"],
            "narasiman-baseline");
}

TEST(UncheckedWorkload, ABadParameterIsOneErrorNamingFileAndKeyAndExitsTwo) {
  struct Case {
    const char* name;
    std::function<void(json&)> edit;
    const char* message;
  };
  const std::vector<Case> cases = {
      {"short_struct", [](json& d) { d["launches"][0]["params"][0]["struct"].erase(3); },
       "key 'launches[0].params[0]': is 16 bytes (struct) but PTX parameter 'affine_param_0' is 24 "
       "bytes"},
      {"far_offset", [](json& d) { d["launches"][0]["params"][1]["offset"] = 2000; },
       "key 'launches[0].params[1].offset': must be between 0 and 1264, the byte size of buffer "
       "'a' (is 2000)"},
      {"unknown_buffer", [](json& d) { d["launches"][0]["params"][2]["buffer"] = "ot"; },
       "key 'launches[0].params[2].buffer': no buffer named 'ot' (did you mean 'out'?)"},
      {"narrow_vector",
       [](json& d) {
         d["launches"][0]["params"][4]["value"] = {1.5, 42.0};
       },
       "key 'launches[0].params[4]': is 8 bytes (vector) but PTX parameter 'affine_param_4' is 16 "
       "bytes"},
  };
  for (const Case& c : cases) {
    const std::string dir = fixture_copy(c.name, c.edit);
    const Result r = gputlm("run --functional --workload " + dir);
    EXPECT_EQ(r.exit_code, 2) << c.name << ": " << r.output;
    EXPECT_TRUE(contains(r.output, dir + "/launch.json: " + c.message))
        << c.name << ": " << r.output;
    EXPECT_EQ(std::count(r.output.begin(), r.output.end(), '\n'), 1)
        << "one error line, before any run: " << r.output;
  }
}

TEST(UncheckedWorkload, CheckedBufferOrCustomInputsWithoutHostCodeAreErrorsNamingTheKey) {
  const std::string checked = fixture_copy("checked", [](json& d) {
    d["buffers"][2]["check"] = {{"mode", "exact"}};
  });
  Result r = gputlm("run --functional --workload " + checked);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_TRUE(contains(r.output, "key 'buffers[2].check': needs a CPU reference")) << r.output;
  const std::string custom = fixture_copy("custom", [](json& d) {
    d["buffers"][1]["init"] = {{"gen", "custom"}};
  });
  r = gputlm("run --functional --workload " + custom);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_TRUE(contains(
      r.output, "key 'buffers[1].init.gen': \"custom\" contents come from an input generator"))
      << r.output;
  const std::string named = fixture_copy("named", [](json& d) { d["reference"] = "micro/vecad"; });
  r = gputlm("run --functional --workload " + named);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_TRUE(contains(r.output,
                       "key 'reference': no CPU reference registered as 'micro/vecad' (did you "
                       "mean 'micro/vecadd'?)"))
      << r.output;
}

TEST(UncheckedWorkload, AReferenceWithNoCheckedBufferIsUncheckedNotFailed) {
  const std::string dir = fixture_copy(
      "no_check",
      [](json& d) {
        d["reference"] = "micro/vecadd";
        d["buffers"][2].erase("check");
      },
      "traces/micro/vecadd");
  const Result r = gputlm("run --functional --workload " + dir);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(contains(
      r.output, "UNCHECKED (no buffers checked): launch.json marks no buffer with \"check\""))
      << r.output;
  EXPECT_FALSE(contains(r.output, "FAILED")) << r.output;
}

TEST(UncheckedWorkload, RelativeWorkloadPathFindsTheReferenceOfTheFullPath) {
  for (const auto& [dir, path] : {std::pair<std::string, std::string>{"traces/micro", "vecadd"},
                                  {"traces/micro/vecadd", "."},
                                  {"traces", "micro/vecadd/"}}) {
    const Result r = gputlm("run --functional --workload " + path, dir);
    EXPECT_EQ(r.exit_code, 0) << dir << " " << path << ": " << r.output;
    EXPECT_TRUE(contains(r.output, "workload            micro/vecadd (size test)")) << r.output;
    EXPECT_TRUE(contains(r.output, "VERIFIED: 1 output buffer(s)")) << r.output;
  }
}

TEST(UncheckedWorkload, UnwritableDumpDirectoryIsAnErrorBeforeTheRun) {
  const Result r = gputlm(std::string("run --functional --workload ") + kNoref +
                          " --dump-outputs README.md/out");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_TRUE(contains(r.output, "cannot write --dump-outputs (README.md is not a directory)"))
      << r.output;
  EXPECT_FALSE(contains(r.output, "warp instructions")) << "the run started: " << r.output;
  const Result trace =
      gputlm("run --config configs/narasiman-baseline.json --trace x.trace --dump-outputs " +
             scratch("t"));
  EXPECT_EQ(trace.exit_code, 2) << trace.output;
  EXPECT_TRUE(contains(trace.output, "--dump-outputs needs a workload run")) << trace.output;
}

}  // namespace
