// gputlm sweep --backend slurm on a real one-node Slurm cluster (scripts/slurm_local.sh, brought
// up and down by the ctest fixture "slurm"): its sweep.csv equals the local backend's; an array
// task cancelled mid-run is reported with its missing runs, and the rerun submits exactly those;
// a bad "slurm" key or a job sbatch refuses is an error before anything is submitted. Skipped in
// the sanitizer pass (GPUTLM_SANITIZER_PASS), whose fixture starts no cluster.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <thread>

#include "support/files.h"
#include "support/shell.h"

namespace {

namespace fs = std::filesystem;

using Result = gputlm::test::CliResult;
bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}
std::string read(const std::string& path) { return gputlm::test::read_text(path); }
std::string sh(const std::string& command) { return gputlm::test::shell(command + " 2>&1").out; }

class SlurmSweep : public ::testing::Test {
 protected:
  // The cluster the fixture started (its state directory: tests/CMakeLists.txt), for gputlm and
  // the Slurm commands here.
  static void SetUpTestSuite() { setenv("SLURM_CONF", GPUTLM_TEST_SLURM_CONF, 1); }
  void SetUp() override {
    if (std::getenv("GPUTLM_SANITIZER_PASS"))
      GTEST_SKIP() << "the Slurm tests run in the normal pass only";
    ASSERT_EQ(gputlm::test::shell("sinfo -h > /dev/null 2>&1").exit_code, 0)
        << "no Slurm cluster: " << sh("sinfo");
    const std::string name = ::testing::UnitTest::GetInstance()->current_test_info()->name();
    m_dir = gputlm::test::scratch_file("sweep_slurm", name);
    fs::remove_all(m_dir);
    fs::create_directories(m_dir);
  }
  // gputlm sweep SPEC (tests/data/sweeps/) --out <test dir>/OUT OPTIONS.
  Result sweep(const std::string& spec, const std::string& out, const std::string& options) const {
    return gputlm::test::gputlm_cli("sweep tests/data/sweeps/" + spec + " --out '" + m_dir + "/" +
                                    out + "' " + options);
  }
  std::string m_dir;
};

std::vector<std::vector<std::string>> task_lines(const std::string& tasks_txt) {
  std::vector<std::vector<std::string>> tasks;
  std::istringstream lines(read(tasks_txt));
  for (std::string line; std::getline(lines, line);) {
    std::istringstream words(line);
    tasks.emplace_back();
    for (std::string id; words >> id;) tasks.back().push_back(id);
  }
  return tasks;
}

std::string run_status(const std::string& out, const std::string& id) {
  const auto r = nlohmann::json::parse(read(out + "/runs/" + id + "/result.json"), nullptr, false);
  return r.is_object() ? r.value("status", "") : "";
}

// Waits up to `seconds` for `done()`.
template <class F>
bool eventually(F done, double seconds) {
  for (int i = 0; i < seconds * 10;
       ++i, std::this_thread::sleep_for(std::chrono::milliseconds(100)))
    if (done()) return true;
  return false;
}

bool job_gone(const std::string& job) {
  const gputlm::test::ShellResult q = gputlm::test::shell("squeue -h -j " + job + " -o %i 2>&1");
  return (q.exit_code == 0 && q.out.empty()) || contains(q.out, "Invalid job id");
}

// The CSV's cells by row, with the host_seconds column (wall time, differs run to run) left out.
std::vector<std::vector<std::string>> csv_without_host_seconds(const std::string& path) {
  std::vector<std::vector<std::string>> rows;
  std::istringstream lines(read(path));
  size_t skip = std::string::npos;
  for (std::string line; std::getline(lines, line);) {
    std::vector<std::string> cells;
    std::istringstream in(line);
    for (std::string cell; std::getline(in, cell, ',');) cells.push_back(cell);
    if (rows.empty())
      for (size_t c = 0; c < cells.size(); ++c)
        if (cells[c] == "host_seconds") skip = c;
    if (skip < cells.size()) cells.erase(cells.begin() + static_cast<long>(skip));
    rows.push_back(cells);
  }
  return rows;
}

TEST_F(SlurmSweep, CsvEqualsTheLocalBackendsColumnForColumnExceptHostSeconds) {
  const Result slurm = sweep("slurm_small.json", "slurm", "--backend slurm --poll-seconds 0.2");
  ASSERT_EQ(slurm.exit_code, 0) << slurm.output;
  EXPECT_TRUE(contains(slurm.output, "12 runs, 0 cached, 12 submitted as job")) << slurm.output;
  EXPECT_TRUE(contains(slurm.output, "(12 array task(s)")) << slurm.output;
  const std::string script = read(m_dir + "/slurm/slurm/1/sweep.sbatch");
  for (const char* line :
       {"#SBATCH --array=0-11\n", "#SBATCH --partition=gputlm\n", "#SBATCH --time=10\n",
        "#SBATCH --mem=500M\n", "--task-file tasks.txt --task \"$SLURM_ARRAY_TASK_ID\"\n"})
    EXPECT_TRUE(contains(script, line)) << line << " not in\n" << script;
  EXPECT_EQ(task_lines(m_dir + "/slurm/slurm/1/tasks.txt").size(), 12u);
  const auto job = nlohmann::json::parse(read(m_dir + "/slurm/slurm/1/job.json"));
  EXPECT_EQ(job["tasks"], 12);
  EXPECT_EQ(job["runs"].size(), 12u);

  const Result local = sweep("slurm_small.json", "local", "--jobs 2");
  ASSERT_EQ(local.exit_code, 0) << local.output;
  const auto a = csv_without_host_seconds(m_dir + "/slurm/sweep.csv"),
             b = csv_without_host_seconds(m_dir + "/local/sweep.csv");
  ASSERT_EQ(a.size(), 1u + 12) << read(m_dir + "/slurm/sweep.csv");
  EXPECT_GT(a[0].size(), 50u);
  EXPECT_EQ(a, b);

  const Result again =
      sweep("slurm_small.json", "slurm", "--backend slurm");  // nothing missing: no job
  EXPECT_EQ(again.exit_code, 0) << again.output;
  EXPECT_TRUE(contains(again.output, "all done: nothing to submit")) << again.output;
  EXPECT_FALSE(fs::exists(m_dir + "/slurm/slurm/2"));
}

TEST_F(SlurmSweep, CancelledTaskIsReportedAndTheRerunSubmitsExactlyItsMissingRuns) {
  const std::string out = m_dir + "/out";
  const Result submitted = sweep("slurm_study.json", "out", "--backend slurm --no-wait");
  ASSERT_EQ(submitted.exit_code, 0) << submitted.output;
  EXPECT_TRUE(contains(submitted.output, "--backend slurm --collect")) << submitted.output;
  const std::string job = nlohmann::json::parse(read(out + "/slurm/1/job.json"))["job"];
  const auto tasks = task_lines(out + "/slurm/1/tasks.txt");
  ASSERT_EQ(tasks.size(), 2u);  // 6 runs, 3 a task
  ASSERT_EQ(tasks[1].size(), 3u);

  const Result twice =
      sweep("slurm_study.json", "out", "--backend slurm");  // the job is queued: refused
  EXPECT_EQ(twice.exit_code, 2) << twice.output;
  EXPECT_TRUE(contains(twice.output, "job " + job + " (submitted")) << twice.output;
  EXPECT_TRUE(contains(twice.output, "is still in the queue")) << twice.output;

  // Task 1 is cancelled while it runs, after its first run (kept: it is ok) and during its second.
  const std::string task = job + "_1";
  ASSERT_TRUE(eventually([&] { return run_status(out, tasks[1][0]) == "ok"; }, 90))
      << sh("squeue -r; cat '" + out + "/slurm/1/" + task + ".log'");
  ASSERT_EQ(sh("squeue -h -j " + task + " -o %T"), "RUNNING\n");
  sh("scancel " + task);
  ASSERT_TRUE(eventually([&] { return job_gone(job); }, 60)) << sh("squeue -r");

  std::set<std::string> missing;
  for (const std::string& id : tasks[1])
    if (run_status(out, id) != "ok") missing.insert(id);
  for (const std::string& id : tasks[0]) EXPECT_EQ(run_status(out, id), "ok") << id;
  EXPECT_EQ(run_status(out, tasks[1][0]), "ok");
  EXPECT_GE(missing.size(), 1u);
  const Result collected = sweep("slurm_study.json", "out", "--backend slurm --collect");
  EXPECT_EQ(collected.exit_code, 0) << collected.output;
  EXPECT_TRUE(contains(collected.output, "TASK 1 (" + task + "): CANCELLED, exit code "))
      << collected.output;
  EXPECT_TRUE(contains(collected.output,
                       std::to_string(missing.size()) + " of its 3 run(s) without an ok result"))
      << collected.output;
  for (const std::string& id : missing)
    EXPECT_TRUE(contains(collected.output, "    " + id.substr(0, 12) + "  fermi-gtx480"))
        << collected.output;
  EXPECT_FALSE(contains(collected.output, "TASK 0")) << collected.output;
  EXPECT_TRUE(contains(collected.output, "log " + out + "/slurm/1/" + task + ".log, last lines:"))
      << collected.output;

  const Result rerun = sweep("slurm_study.json", "out", "--backend slurm --poll-seconds 0.2");
  EXPECT_EQ(rerun.exit_code, 0) << rerun.output;
  EXPECT_TRUE(contains(rerun.output, "6 runs, " + std::to_string(6 - missing.size()) + " cached, " +
                                         std::to_string(missing.size()) + " submitted"))
      << rerun.output;
  std::set<std::string> resubmitted;
  for (const auto& t : task_lines(out + "/slurm/2/tasks.txt"))
    resubmitted.insert(t.begin(), t.end());
  EXPECT_EQ(resubmitted, missing);
  for (const auto& t : tasks)
    for (const std::string& id : t) EXPECT_EQ(run_status(out, id), "ok") << id;
}

TEST_F(SlurmSweep, BadSlurmKeyOrRefusedJobIsAnErrorBeforeAnySubmission) {
  nlohmann::json spec =
      nlohmann::json::parse(read(GPUTLM_SOURCE_DIR "/tests/data/sweeps/slurm_small.json"));
  for (auto& path : spec["configs"])
    path = GPUTLM_SOURCE_DIR "/configs/" + fs::path(path.get<std::string>()).filename().string();
  for (auto& path : spec["workloads"])
    path =
        GPUTLM_SOURCE_DIR "/traces/micro/" + fs::path(path.get<std::string>()).filename().string();
  spec["slurm"] = {{"partion", "gputlm"}};
  std::ofstream(m_dir + "/spec.json") << spec.dump(1);
  const std::string command =
      "sweep '" + m_dir + "/spec.json' --out '" + m_dir + "/out' --backend slurm";
  Result r = gputlm::test::gputlm_cli(command);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_TRUE(contains(r.output, m_dir + "/spec.json: key 'slurm.partion': ")) << r.output;
  EXPECT_FALSE(fs::exists(m_dir + "/out"));

  spec["slurm"] = {{"runs_per_task", "3"}};
  std::ofstream(m_dir + "/spec.json") << spec.dump(1);
  r = gputlm::test::gputlm_cli(command);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_TRUE(contains(r.output, "key 'slurm.runs_per_task': must be a non-negative integer"))
      << r.output;

  spec.erase("slurm");
  std::ofstream(m_dir + "/spec.json") << spec.dump(1);
  r = gputlm::test::gputlm_cli(command + " --partition nosuch");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_TRUE(contains(r.output, "sbatch refused the sweep's job")) << r.output;
  EXPECT_TRUE(contains(r.output, "invalid partition")) << r.output;
  EXPECT_FALSE(fs::exists(m_dir + "/out/slurm/1/job.json"));
}

}  // namespace
