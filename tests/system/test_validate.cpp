// `gputlm validate` end to end: two of our own CUDA programs (tests/cuda/vecadd.cu, one launch;
// bfs.cu, two kernels launched ten times each) built with nvcc and run on fermi-gtx480, compared
// with a hardware CSV of our own (tests/data/validate/hw.csv) whose cycles are the simulated ones
// times 1.25, 0.8 and 2 (tests/data/validate/README.md has the arithmetic), so the error column,
// MAPE and correlation are known exactly; a program that does not compile, and a hardware kernel
// that never launched, are failures (exit 1) while the rest is still compared; bad input is one
// error naming file and place. Skipped without nvcc.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>

#include "app/hw_counters.h"
#include "support/cuda_programs.h"
#include "support/files.h"
#include "support/shell.h"

namespace {

using gputlm::test::gputlm_cli;
using gputlm::test::read_text;

class ValidateCommand : public gputlm::test::CudaPrograms {};

std::string out_dir(const std::string& name) {
  return gputlm::test::scratch_file("validate_test", name);
}

// The rows of a CSV file by their first two fields ("program,kernel"), each split into its fields.
std::map<std::string, std::vector<std::string>> rows_by_kernel(const std::string& csv) {
  std::map<std::string, std::vector<std::string>> rows;
  std::istringstream lines(csv);
  for (std::string line; std::getline(lines, line);) {
    const std::vector<std::string> fields = gputlm::app::split_csv_line(line, "validate.csv");
    if (fields.size() >= 2) rows[fields[0] + "," + fields[1]] = fields;
  }
  return rows;
}

bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

// gputlm validate of our two programs against our CSV on `config`, into `out`.
gputlm::test::CliResult validate_ours(const std::string& config, const std::string& out,
                                      const std::string& options = "") {
  return gputlm_cli("validate --config " + config +
                    " --hw tests/data/validate/hw.csv --programs tests/data/validate/programs.json "
                    "--root . " +
                    options + "--out '" + out + "'");
}

TEST_F(ValidateCommand, TheErrorColumnMapeAndCorrelationAreTheHandComputedOnes) {
  const std::string out = out_dir("ok");
  const auto r = validate_ours("configs/fermi-gtx480.json", out);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(contains(r.output, "programs            2 (2 ran, 0 failed)\n")) << r.output;
  EXPECT_TRUE(contains(r.output, "kernels compared    3\n")) << r.output;
  // |673-841.25|/841.25 = 0.2, |1507.7-1206.16|/1206.16 = 0.25, |425.1-850.2|/850.2 = 0.5: mean
  // 0.3167
  EXPECT_TRUE(contains(r.output, "cycles              MAPE 31.7%, correlation 0.971\n"))
      << r.output;
  // vecadd's row has L1 and DRAM columns: reads and writes equal, DRAM reads x 1.25.
  EXPECT_TRUE(contains(r.output, "l1_reads            MAPE 0.0%, correlation n/a (1 kernel)\n"))
      << r.output;
  EXPECT_TRUE(contains(r.output, "dram_reads          MAPE 20.0%, correlation n/a (1 kernel)\n"))
      << r.output;
  const auto rows = rows_by_kernel(read_text(out + "/validate.csv"));
  const std::vector<std::string> header = rows.at("program,kernel");
  ASSERT_GE(header.size(), 7u);
  EXPECT_EQ(header[4], "sim_cycles");
  EXPECT_EQ(header[6], "error");
  struct Expected {
    const char* key;
    const char* launches;
    const char* sim_cycles;
    const char* error;
  };
  for (const Expected& e : {Expected{"vecadd,vecadd", "1", "673", "-0.2000"},
                            Expected{"bfs,bfs_kernel", "10", "1507.7", "0.2500"},
                            Expected{"bfs,bfs_kernel2", "10", "425.1", "-0.5000"}}) {
    ASSERT_TRUE(rows.count(e.key)) << e.key << " missing from validate.csv";
    const std::vector<std::string>& row = rows.at(e.key);
    ASSERT_EQ(row.size(), header.size()) << e.key;
    EXPECT_EQ(row[3], e.launches) << e.key;
    ASSERT_EQ(row[4], e.sim_cycles)
        << e.key
        << ": the simulated cycles changed; recompute tests/data/validate/hw.csv as its README "
           "says";
    EXPECT_EQ(row[6], e.error) << e.key;
  }
  EXPECT_FALSE(rows.count("not, in the manifest,_Z5otherv")) << "only the manifest's programs";
  const std::string md = read_text(out + "/validate.md");
  EXPECT_TRUE(std::regex_search(md, std::regex("gputlm [0-9a-f]+(-dirty)?: `.*gputlm validate "
                                               "--config configs/fermi-gtx480.json --hw")))
      << md;
  EXPECT_TRUE(contains(md, "| bfs | `bfs_kernel2` | 10 | 425.1 | 850.2 | -50.0% |")) << md;
  const std::string svg = read_text(out + "/scatter.svg");
  EXPECT_TRUE(contains(svg, "3 kernels, MAPE 31.7%, correlation 0.971")) << svg;
  size_t points = 0;
  for (size_t at = svg.find("<circle"); at != std::string::npos; at = svg.find("<circle", at + 1))
    ++points;
  EXPECT_EQ(points, 3u);
  EXPECT_TRUE(std::filesystem::exists(out + "/stats/bfs.json"));

  // --reuse-stats: the statistics in the folder are compared again, nothing built or run, the same
  // table; statistics of another config are refused.
  const std::string csv = read_text(out + "/validate.csv");
  std::filesystem::remove_all(out + "/build");
  const auto again = validate_ours("configs/fermi-gtx480.json", out, "--reuse-stats ");
  ASSERT_EQ(again.exit_code, 0) << again.output;
  EXPECT_TRUE(contains(again.output, "program             bfs: statistics reused\n"))
      << again.output;
  EXPECT_FALSE(contains(again.output, "building")) << again.output;
  EXPECT_EQ(read_text(out + "/validate.csv"), csv);
  EXPECT_FALSE(std::filesystem::exists(out + "/build/bfs"));
  const auto other = validate_ours("configs/volta-v100.json", out, "--reuse-stats ");
  EXPECT_EQ(other.exit_code, 2) << other.output;
  EXPECT_TRUE(contains(other.output, "made with config hash")) << other.output;
}

TEST_F(ValidateCommand, AProgramThatDoesNotCompileIsReportedAndTheOthersStillRun) {
  const std::string out = out_dir("broken");
  const auto r = gputlm_cli(
      "validate --config configs/fermi-gtx480.json --hw tests/data/validate/hw.csv --programs "
      "tests/data/validate/programs_broken.json --root . --out '" +
      out + "'");
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_TRUE(contains(r.output,
                       "FAILED              broken: build failed: "
                       "tests/data/validate/broken.cu(3): error: identifier "
                       "\"undeclared_value\" is undefined (log logs/broken.build.log)"))
      << r.output;
  EXPECT_TRUE(contains(r.output, "programs            2 (1 ran, 1 failed)")) << r.output;
  EXPECT_TRUE(contains(r.output, "kernels compared    1\n")) << r.output;
  const std::string csv = read_text(out + "/validate.csv");
  EXPECT_TRUE(
      contains(csv, "\nbroken,,,,,,\"build failed: tests/data/validate/broken.cu(3): error"))
      << csv;
  EXPECT_TRUE(contains(csv, "\nvecadd,vecadd,vecadd,1,673,841.25,-0.2000,")) << csv;
  EXPECT_TRUE(contains(read_text(out + "/logs/broken.build.log"), "undeclared_value"));
}

// A hardware row of a program that ran whose kernel never launched fails the comparison (exit 1)
// while the kernels that did launch are still compared.
TEST_F(ValidateCommand, AHardwareKernelThatNeverLaunchedIsAFailure) {
  const std::string manifest = out_dir("vecadd_only.json"), csv = out_dir("ghost.csv");
  std::ofstream(manifest) << R"([{"name": "vecadd", "sources": ["tests/cuda/vecadd.cu"]}])";
  std::ofstream(csv)
      << "Benchmark,Kernel,Elapsed_Cycles\nvecadd,vecadd,860\nvecadd,_Z5ghostPf,100\n";
  const std::string out = out_dir("ghost");
  const auto r = gputlm_cli("validate --config configs/fermi-gtx480.json --hw '" + csv +
                            "' --programs '" + manifest + "' --root . --out '" + out + "'");
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_TRUE(contains(r.output, "kernels compared    1\n")) << r.output;
  EXPECT_TRUE(contains(r.output, "FAILED              vecadd: no simulated kernel _Z5ghostPf\n"))
      << r.output;
  EXPECT_TRUE(contains(read_text(out + "/validate.csv"),
                       "\nvecadd,_Z5ghostPf,ghost(float*),0,,100,no simulated kernel,"));
}

// A simulated kernel with no hardware row is listed as such, not a failure. The report is written
// after every program ran, from what each program's matching kept (it used to point into the
// program's simulated kernels, gone by then: a crash after validate.csv).
TEST_F(ValidateCommand, ASimulatedKernelWithNoRowIsListedAfterTheRun) {
  const std::string manifest = out_dir("bfs_only.json"), csv = out_dir("bfs_one_row.csv");
  std::ofstream(manifest)
      << R"([{"name": "bfs", "sources": ["tests/cuda/bfs.cu"], "nvcc_flags": ["-Itests/cuda"],)"
      << R"( "args": ["512"]}])";
  std::ofstream(csv) << "Benchmark,Kernel,Elapsed_Cycles\nbfs,bfs_kernel,1484.56\n";
  const std::string out = out_dir("bfs_one_row");
  const auto r = gputlm_cli("validate --config configs/fermi-gtx480.json --hw '" + csv +
                            "' --programs '" + manifest + "' --root . --out '" + out + "'");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(contains(r.output, "kernels compared    1\n")) << r.output;
  EXPECT_TRUE(contains(read_text(out + "/validate.md"),
                       "| bfs | `bfs_kernel2` | 10 | 425.1 | (no row) | |\n"));
  EXPECT_TRUE(std::filesystem::exists(out + "/scatter.svg"));
}

TEST_F(ValidateCommand, ABadManifestOrCsvIsOneErrorWithItsPlace) {
  const std::string manifest = out_dir("bad.json"), csv = out_dir("bad.csv");
  std::ofstream(manifest) << R"([{"name": "vecadd", "source": ["tests/cuda/vecadd.cu"]}])";
  std::ofstream(csv) << "Benchmark,Kernel,Elapsed_Cycles\nvecadd,vecadd,many\n";
  const std::string common =
      "validate --config configs/fermi-gtx480.json --root . --out '" + out_dir("bad_out") + "' ";
  auto r = gputlm_cli(common + "--hw tests/data/validate/hw.csv --programs '" + manifest + "'");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_EQ(r.output, "gputlm: " + manifest +
                          ": program 1 (vecadd): unknown key \"source\" (did you mean "
                          "'sources'?)\n");
  r = gputlm_cli(common + "--hw '" + csv + "' --programs tests/data/validate/programs.json");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_EQ(r.output, "gputlm: " + csv + ":2: column Elapsed_Cycles is not a number: 'many'\n");
  r = gputlm_cli("validate --config configs/fermi-gtx480.json");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(contains(r.output, "validate: --hw is required")) << r.output;
}

}  // namespace
