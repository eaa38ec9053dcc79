// gputlm validate's comparison (app/hw_counters, validate_stats, validate_manifest,
// validate_report, scatter_svg): the hardware CSV read with quoted fields and its bad rows
// refused with file and line, launches averaged per kernel with counters in 32-byte sectors,
// kernels matched by mangled name within their program, MAPE and Pearson correlation, and the
// manifest's mistakes named.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <nlohmann/json.hpp>
#include <sstream>

#include "app/hw_counters.h"
#include "app/scatter_svg.h"
#include "app/validate_manifest.h"
#include "app/validate_report.h"
#include "app/validate_stats.h"
#include "models/common/error.h"

namespace gputlm::app {
namespace {

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(ValidateCsv, QuotedFieldsKeepTheirCommasAndQuotes) {
  EXPECT_EQ(split_csv_line(R"(a,"b,c","say ""hi""",,"")", "f:1"),
            (std::vector<std::string>{"a", "b,c", "say \"hi\"", "", ""}));
  EXPECT_EQ(error_of([] { split_csv_line(R"(a,"b)", "f.csv:3"); }),
            "f.csv:3: a quote is not closed");
  EXPECT_EQ(error_of([] { split_csv_line(R"(a,"b"c)", "f.csv:3"); }),
            "f.csv:3: text after a closing quote in field 2");
}

TEST(ValidateCsv, RowsKeepTheirNumbersAndLeaveEmptyCellsOut) {
  const auto rows = parse_hw_csv(
      "Benchmark,Kernel,L1_RH,DRAM_Rd,Elapsed_Cycles,Chip Voltage\r\n"
      "\"prog, one\",_Z1kPf,10,,2.5e3,1.0\r\n"
      "\n"
      "prog2,k2,1,2,300,\r\n",
      "hw.csv");
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].benchmark, "prog, one");
  EXPECT_EQ(rows[0].kernel, "_Z1kPf");
  EXPECT_EQ(rows[0].values.at("Elapsed_Cycles"), 2500);
  EXPECT_EQ(rows[0].values.at("L1_RH"), 10);
  EXPECT_FALSE(rows[0].values.count("DRAM_Rd"));
  EXPECT_EQ(rows[0].line, 2u);
  EXPECT_EQ(rows[1].line, 4u);
  EXPECT_FALSE(rows[1].values.count("Chip Voltage"));
}

TEST(ValidateCsv, BadRowsAreErrorsWithFileLineAndColumn) {
  const std::string header = "Benchmark,Kernel,L1_RH,Elapsed_Cycles\n";
  EXPECT_EQ(error_of([&] { parse_hw_csv(header + "p,k,1\n", "hw.csv"); }),
            "hw.csv:2: 3 fields, the header has 4");
  EXPECT_EQ(error_of([&] { parse_hw_csv(header + "p,k,lots,5\n", "hw.csv"); }),
            "hw.csv:2: column L1_RH is not a number: 'lots'");
  EXPECT_EQ(error_of([&] { parse_hw_csv(header + "p,k,1,\n", "hw.csv"); }),
            "hw.csv:2: column Elapsed_Cycles must be a positive number of cycles");
  EXPECT_EQ(error_of([&] { parse_hw_csv(header + "p,k,1,5\np,k,2,6\n", "hw.csv"); }),
            "hw.csv:3: p k appears twice");
  EXPECT_EQ(error_of([&] { parse_hw_csv(header + ",k,1,5\n", "hw.csv"); }),
            "hw.csv:2: Benchmark and Kernel must not be empty");
  EXPECT_EQ(error_of([] { parse_hw_csv("Benchmark,Kernel,Cycles\n", "hw.csv"); }),
            "hw.csv:1: the header has no column 'Elapsed_Cycles' (a hardware CSV has Benchmark, "
            "Kernel, Elapsed_Cycles and counters)");
  EXPECT_EQ(error_of([] { parse_hw_csv("", "hw.csv"); }), "hw.csv: empty (no header line)");
}

// Two launches of one kernel, one of another, on two cores, one L2 slice and one DRAM channel.
nlohmann::json two_kernels() {
  auto launch = [](const char* kernel, int cycles, int l1_reads, int dram_reads) {
    return nlohmann::json{
        {"kernel", kernel},
        {"cycles", cycles},
        {"modules",
         {{"gpu.core0", {{"warp_instructions", 9}}},
          {"gpu.core0.l1d", {{"reads", l1_reads}, {"writes", 1}, {"hits", 2}, {"misses", 3}}},
          {"gpu.core1.l1d", {{"reads", l1_reads}, {"writes", 1}, {"hits", 2}, {"misses", 3}}},
          {"gpu.core0.l1i", {{"reads", 1000}}},
          {"gpu.l2_0", {{"reads", 4}, {"writes", 0}, {"hits", 1}, {"misses", 3}}},
          {"gpu.dram0", {{"reads", dram_reads}, {"writes", 0}}}}}};
  };
  return {{"launches",
           {launch("_Z1aPf", 100, 1, 2), launch("b", 50, 0, 0), launch("_Z1aPf", 300, 3, 4)}}};
}

TEST(ValidateStats, AKernelsLaunchesAreAveragedAndCountersAreInSectors) {
  SectorScale scale;
  scale.l1d = 4;  // 128-byte lines
  scale.l2 = 2;   // 64-byte lines
  scale.dram = 2;
  const std::vector<SimKernel> k = average_launches(two_kernels(), scale, "s.json");
  ASSERT_EQ(k.size(), 2u);
  EXPECT_EQ(k[0].kernel, "_Z1aPf");
  EXPECT_EQ(k[0].demangled, "a(float*)");
  EXPECT_EQ(k[0].launches, 2u);
  EXPECT_EQ(k[0].cycles, 200);
  // Two cores' L1D (l1i left out), 4 sectors a request: (1 + 3) / 2 launches x 2 cores x 4.
  EXPECT_EQ(k[0].counters.at("l1_reads"), 16);
  EXPECT_EQ(k[0].counters.at("l1_misses"), 24);
  EXPECT_EQ(k[0].counters.at("l2_reads"), 8);
  EXPECT_EQ(k[0].counters.at("dram_reads"), 6);  // (2 + 4) / 2 x 2
  EXPECT_EQ(k[1].kernel, "b");
  EXPECT_EQ(k[1].launches, 1u);
  EXPECT_EQ(k[1].cycles, 50);
}

// A sectored level's sector statistics are its counters (the hardware counts the sectors a warp
// touched); an unsectored level's requests are still lines. Here the L2 is sectored, the L1D not.
TEST(ValidateStats, ASectoredLevelIsCountedBySectorsNotLines) {
  nlohmann::json stats = two_kernels();
  for (nlohmann::json& l : stats["launches"])
    l["modules"]["gpu.l2_0"].update({{"read_sectors", 5}, {"sector_misses", 7}});
  SectorScale scale;
  scale.l1d = 4;
  scale.l2 = 4;
  scale.l2_sector = 1;
  scale.dram = 1;  // a DRAM request is a sector of the sectored L2
  const std::vector<SimKernel> k = average_launches(stats, scale, "s.json");
  EXPECT_EQ(k[0].counters.at("l2_reads"), 5);    // read_sectors, not 4 reads x 4
  EXPECT_EQ(k[0].counters.at("l2_misses"), 7);   // sector_misses
  EXPECT_EQ(k[0].counters.at("l2_hits"), 4);     // no sector_hits given: hits x 4
  EXPECT_EQ(k[0].counters.at("l1_reads"), 16);   // the L1D as before
  EXPECT_EQ(k[0].counters.at("dram_reads"), 3);  // (2 + 4) / 2 x 1
}

TEST(ValidateStats, ALevelTheConfigDoesNotHaveHasNoCounter) {
  SectorScale scale;
  scale.l1d = 4;  // no L2 (scale 0): no l2_* counters even if a module matched
  const std::vector<SimKernel> k = average_launches(two_kernels(), scale, "s.json");
  EXPECT_FALSE(k[0].counters.count("l2_reads"));
  EXPECT_FALSE(k[0].counters.count("dram_reads"));
  EXPECT_TRUE(k[0].counters.count("l1_reads"));
  EXPECT_EQ(error_of([&] { average_launches(nlohmann::json::object(), scale, "s.json"); }),
            "s.json: no \"launches\" array (not the --stats JSON of gputlm cuda)");
}

TEST(ValidateStats, KernelsAreMatchedByMangledNameWithinTheirProgram) {
  SectorScale scale;
  scale.l1d = scale.l2 = scale.dram = 4;
  const std::vector<SimKernel> sim = average_launches(two_kernels(), scale, "s.json");
  const std::vector<HwKernel> hw = parse_hw_csv(
      "Benchmark,Kernel,L1_RH,L1_RM,DRAM_Rd,Elapsed_Cycles\n"
      "prog,_Z1aPf,4,12,,250\n"
      "other,b,,,,10\n"  // another program's kernel of the same name
      "prog,_Z1cv,,,,99\n",
      "hw.csv");
  const Matching m = match_kernels("prog", sim, hw);
  ASSERT_EQ(m.compared.size(), 1u);
  const Comparison& c = m.compared[0];
  EXPECT_EQ(c.kernel, "_Z1aPf");
  EXPECT_EQ(c.sim_cycles, 200);
  EXPECT_EQ(c.hw_cycles, 250);
  EXPECT_DOUBLE_EQ(c.error(), -0.2);
  EXPECT_EQ(c.counters.at("l1_reads").first, 16.0);
  EXPECT_EQ(c.counters.at("l1_reads").second, 16.0);  // L1_RH + L1_RM
  EXPECT_FALSE(c.counters.at("l1_writes").second);    // no L1_WH, L1_WM columns
  EXPECT_FALSE(c.counters.at("dram_reads").second);   // empty cell
  EXPECT_EQ(c.counters.at("dram_reads").first, 12.0);
  ASSERT_EQ(m.hw_only.size(), 1u);
  EXPECT_EQ(m.hw_only[0].kernel, "_Z1cv");
  ASSERT_EQ(m.sim_only.size(), 1u);
  EXPECT_EQ(m.sim_only[0].kernel, "b");
}

TEST(ValidateStats, MapeAndPearson) {
  EXPECT_DOUBLE_EQ(mape({80, 150}, {100, 100}), (0.2 + 0.5) / 2);
  EXPECT_DOUBLE_EQ(mape({80, 7}, {100, 0}), 0.2);  // a zero measurement is left out
  EXPECT_TRUE(std::isnan(mape({}, {})));
  EXPECT_DOUBLE_EQ(pearson({1, 2, 3}, {2, 4, 6}), 1);
  EXPECT_DOUBLE_EQ(pearson({1, 2, 3}, {3, 2, 1}), -1);
  EXPECT_NEAR(pearson({1, 2, 3, 4}, {1, 3, 2, 4}), 0.8, 1e-12);
  EXPECT_TRUE(std::isnan(pearson({1}, {1})));
  EXPECT_TRUE(std::isnan(pearson({1, 1}, {1, 2})));  // a constant side
}

TEST(ValidateManifest, ProgramsWithTheirDefaults) {
  const auto p = parse_manifest(
      R"([{"name": "a", "sources": ["a.cu", "b.cu"], "nvcc_flags": ["-Iinc"], "args": ["1"],
           "workdir": "w"}, {"name": "b", "sources": ["b.cu"]}])",
      "m.json");
  ASSERT_EQ(p.size(), 2u);
  EXPECT_EQ(p[0].sources, (std::vector<std::string>{"a.cu", "b.cu"}));
  EXPECT_EQ(p[0].nvcc_flags, std::vector<std::string>{"-Iinc"});
  EXPECT_EQ(p[0].args, std::vector<std::string>{"1"});
  EXPECT_EQ(p[0].workdir, "w");
  EXPECT_TRUE(p[1].args.empty());
  EXPECT_EQ(p[1].workdir, ".");
}

TEST(ValidateManifest, MistakesAreNamedWithTheProgramAndKey) {
  auto error = [](const std::string& text) {
    return error_of([&] { parse_manifest(text, "m.json"); });
  };
  EXPECT_EQ(error(R"({"name": "a"})"), "m.json: the manifest must be a list of programs");
  EXPECT_EQ(error("[]"), "m.json: the manifest lists no programs");
  EXPECT_EQ(error(R"([{"sources": ["a.cu"]}])"),
            "m.json: program 1: \"name\" (the hardware CSV's Benchmark) must be a string");
  EXPECT_EQ(error(R"([{"name": "a", "sources": []}])"),
            "m.json: program 1 (a): \"sources\" must list at least one .cu file");
  EXPECT_EQ(error(R"([{"name": "a", "sources": ["a.cu"], "arg": ["1"]}])"),
            "m.json: program 1 (a): unknown key \"arg\" (did you mean 'args'?)");
  EXPECT_EQ(error(R"([{"name": "a", "sources": ["a.cu"], "args": [1]}])"),
            "m.json: program 1 (a): \"args\" must be a list of strings (has 1)");
  EXPECT_EQ(error(R"([{"name": "a", "sources": ["a.cu"]}, {"name": "a", "sources": ["b.cu"]}])"),
            "m.json: program 2 (a): the name is used twice");
  EXPECT_EQ(error(R"([{"name": "../a", "sources": ["a.cu"]}])"),
            "m.json: program 1 (../a): the name must be usable as a file name (no '/', no "
            "leading '.')");
  EXPECT_EQ(error("[{]").rfind("m.json: not JSON: ", 0), 0u);
}

TEST(ValidateReport, AFailedProgramAndAMissingKernelAreFailures) {
  ValidateReport r;
  r.programs.resize(2);
  r.programs[0].name = "broken";
  r.programs[0].status = "build failed";
  r.programs[0].first_error = "x.cu(3): error: \"y\" is undefined";
  r.programs[0].log = "logs/broken.build.log";
  r.programs[1].name = "ok";
  EXPECT_EQ(r.failures(), 1u);
  const std::vector<HwKernel> hw = parse_hw_csv("Benchmark,Kernel,Elapsed_Cycles\nok,k,5\n", "h");
  r.programs[1].matching = match_kernels("ok", {}, hw);
  EXPECT_EQ(r.failures(), 2u);
  const std::string csv = validate_csv(r);
  EXPECT_NE(csv.find("broken,,,,,,\"build failed: x.cu(3): error: \"\"y\"\" is undefined\","),
            std::string::npos)
      << csv;
  EXPECT_NE(csv.find("ok,k,k,0,,5,no simulated kernel,"), std::string::npos) << csv;
  const std::string summary = validate_summary(r);
  EXPECT_NE(summary.find("FAILED              broken: build failed: x.cu(3)"), std::string::npos);
  EXPECT_NE(summary.find("FAILED              ok: no simulated kernel k"), std::string::npos);
  // Every CSV row has as many fields as the header.
  std::istringstream lines(csv);
  std::string header, line;
  std::getline(lines, header);
  const size_t fields = split_csv_line(header, "").size();
  while (std::getline(lines, line)) EXPECT_EQ(split_csv_line(line, "").size(), fields) << line;
}

// A run its time limit stopped (complete: false) is compared on its complete launches: the last,
// stopped part way, is left out. Untimed launches (gputlm cuda --timed-launches) are counted apart
// and shown beside the timed ones.
TEST(ValidateStats, AStoppedLaunchIsLeftOutAndUntimedLaunchesAreCountedApart) {
  nlohmann::json stats = two_kernels();
  stats["complete"] = false;
  stats["untimed_launches"] = {{{"launch", 3}, {"kernel", "_Z1aPf"}},
                               {{"launch", 4}, {"kernel", "_Z1aPf"}},
                               {{"launch", 5}, {"kernel", "b"}}};
  SectorScale scale;
  scale.l1d = 4;
  const std::vector<SimKernel> k = average_launches(stats, scale, "s.json");
  ASSERT_EQ(k.size(), 2u);
  EXPECT_EQ(k[0].launches, 1u);  // the 300-cycle launch stopped
  EXPECT_EQ(k[0].cycles, 100);
  EXPECT_EQ(k[0].counters.at("l1_reads"), 8);  // 1 x 2 cores x 4
  EXPECT_EQ(k[0].untimed, 2u);
  EXPECT_EQ(k[1].untimed, 1u);

  ValidateReport r;
  r.programs.resize(1);
  r.programs[0].name = "p";
  r.programs[0].status = kTimeLimit;
  r.programs[0].first_error = "gputlm cuda: the time limit stopped launch 2";
  const std::vector<HwKernel> hw =
      parse_hw_csv("Benchmark,Kernel,Elapsed_Cycles\np,_Z1aPf,50\np,c,7\n", "h");
  r.programs[0].matching = match_kernels("p", k, hw);
  ASSERT_EQ(r.compared().size(), 1u);
  EXPECT_EQ(r.compared()[0].untimed, 2u);
  EXPECT_EQ(r.failures(), 1u);
  const std::string csv = validate_csv(r);
  EXPECT_NE(csv.find("p,,,,,,stopped at the time limit: gputlm cuda"), std::string::npos) << csv;
  EXPECT_NE(csv.find("p,_Z1aPf,a(float*),1,100,50,1.0000,"), std::string::npos) << csv;
  EXPECT_NE(csv.find("p,c,c,0,,7,no complete simulated launch,"), std::string::npos) << csv;
  EXPECT_NE(csv.find(",untimed_launches\n"), std::string::npos) << csv;
  const std::string md = validate_markdown(r);
  EXPECT_NE(md.find("| p | `a(float*)` | 1 (+2 untimed) | 100.0 | 50.0 | +100.0% |"),
            std::string::npos)
      << md;
  EXPECT_NE(validate_summary(r).find("FAILED              p: stopped at the time limit: "),
            std::string::npos);
  std::istringstream lines(csv);
  std::string header, line;
  std::getline(lines, header);
  const size_t fields = split_csv_line(header, "").size();
  while (std::getline(lines, line)) EXPECT_EQ(split_csv_line(line, "").size(), fields) << line;
}

TEST(ValidateScatter, OnePointPerKernelOnLogAxesWithTheDiagonal) {
  ScatterPlot plot{"t <1>", "measured", "simulated", {{100, 1000, "a"}, {0, 5, "left out"}}};
  const std::string svg = scatter_svg(plot);
  EXPECT_EQ(svg.rfind("<svg ", 0), 0u);
  EXPECT_NE(svg.find("t &lt;1&gt;"), std::string::npos);
  size_t circles = 0;
  for (size_t at = svg.find("<circle"); at != std::string::npos; at = svg.find("<circle", at + 1))
    ++circles;
  EXPECT_EQ(circles, 1u);
  EXPECT_NE(svg.find(">y = x<"), std::string::npos);
  EXPECT_NE(svg.find(">100<"), std::string::npos);  // decade ticks 100, 1k
  EXPECT_NE(svg.find(">1k<"), std::string::npos);
}

}  // namespace
}  // namespace gputlm::app
