// SIGINT and SIGTERM stop a run cleanly: the statistics so far are written and marked incomplete,
// the VCD ends with complete lines and a final timestamp, trace record leaves no .part file, and
// the exit code is 128 + the signal (docs/user-guide/command-line.md, exit codes).
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <thread>

#include "support/files.h"

namespace {

namespace fs = std::filesystem;

std::string scratch(const std::string& name) {
  return gputlm::test::scratch_file("interrupt_test", name);
}
std::string read(const std::string& path) { return gputlm::test::read_text(path); }

struct Stopped {
  int exit_code = -1;
  std::string out, err;
};

// Starts `command` (run from the source directory, stdout and stderr to files), waits until
// `started` exists (when given) and `after_s` seconds more, sends `signal` and waits for
// the exit (at most 120 s, then kills).
Stopped run_and_signal(const std::string& command, int signal, const std::string& started,
                       double after_s) {
  const std::string out = scratch("stdout"), err = scratch("stderr");
  const pid_t pid = fork();
  if (pid == 0) {
    const std::string sh =
        "cd '" GPUTLM_SOURCE_DIR "' && exec " + command + " > '" + out + "' 2> '" + err + "'";
    execl("/bin/sh", "sh", "-c", sh.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  const auto start = std::chrono::steady_clock::now();
  auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  while (!started.empty() && !fs::exists(started) && elapsed() < 60)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  std::this_thread::sleep_for(std::chrono::duration<double>(after_s));
  kill(pid, signal);
  int status = 0;
  while (waitpid(pid, &status, WNOHANG) == 0) {
    if (elapsed() > 120) kill(pid, SIGKILL);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, read(out), read(err)};
}

// The last timestamp of a VCD, and whether the file ends with a whole line.
uint64_t last_timestamp(const std::string& vcd, bool& ends_with_newline) {
  const std::string text = read(vcd);
  ends_with_newline = !text.empty() && text.back() == '\n';
  const size_t at = text.rfind("\n#");
  return at == std::string::npos ? 0 : std::stoull(text.substr(at + 2));
}

TEST(Interrupt, SigintStopsATimingRunWithIncompleteStatisticsAndAValidVcd) {
  const std::string vcd = scratch("hotspot.vcd"), stats = scratch("hotspot.json");
  const Stopped s =
      run_and_signal("'" GPUTLM_BINARY
                     "' run --config configs/fermi-gtx480.json --workload traces/narasiman/hotspot "
                     "--size study --stats " +
                         stats + " --vcd " + vcd,
                     SIGINT, vcd, 1.0);
  EXPECT_EQ(s.exit_code, 130) << s.out << s.err;
  EXPECT_NE(s.out.find("STOPPED by SIGINT"), std::string::npos) << s.out;
  const nlohmann::json j = nlohmann::json::parse(read(stats));  // throws if it is not whole JSON
  EXPECT_FALSE(j["complete"].get<bool>());
  EXPECT_EQ(j["stopped_by"], "SIGINT");
  EXPECT_TRUE(j["verify"]["buffers"].empty()) << "outputs of a stopped run are not checked";
  const uint64_t cycles = j["total"]["cycles"];
  EXPECT_GT(cycles, 0u);
  EXPECT_LT(cycles, 302705u) << "the run stopped before its end";
  bool whole = false;
  EXPECT_EQ(last_timestamp(vcd, whole), cycles * 1000)
      << "the VCD (1 ps units on fermi-gtx480) ends at the stop";
  EXPECT_TRUE(whole);
  EXPECT_TRUE(fs::exists(scratch("hotspot.gtkw")));
}

TEST(Interrupt, SigtermStopsAFunctionalRunWithWaves) {
  const std::string vcd = scratch("func.vcd"), stats = scratch("func.json");
  const Stopped s = run_and_signal(
      "'" GPUTLM_BINARY
      "' run --functional --workload traces/narasiman/needleman --size study --stats " +
          stats + " --vcd " + vcd,
      SIGTERM, vcd, 1.0);
  EXPECT_EQ(s.exit_code, 143) << s.out << s.err;
  const nlohmann::json j = nlohmann::json::parse(read(stats));
  EXPECT_FALSE(j["complete"].get<bool>());
  EXPECT_EQ(j["stopped_by"], "SIGTERM");
  bool whole = false;
  EXPECT_GT(last_timestamp(vcd, whole), 0u);
  EXPECT_TRUE(whole);
}

TEST(Interrupt, TraceRecordRemovesItsPartFile) {
  const std::string out = scratch("needleman.trace.gz");
  const Stopped s = run_and_signal(
      "'" GPUTLM_BINARY "' trace record --workload traces/narasiman/needleman --size study --out " +
          out,
      SIGINT, out + ".part", 0.5);
  EXPECT_EQ(s.exit_code, 130) << s.out << s.err;
  EXPECT_NE(s.out.find("STOPPED by SIGINT: no trace written"), std::string::npos) << s.out;
  EXPECT_FALSE(fs::exists(out + ".part"));
  EXPECT_FALSE(fs::exists(out));
}

TEST(Interrupt, TbGpuPrintsIncompleteStatistics) {
  const Stopped s = run_and_signal("'" GPUTLM_BIN_DIR
                                   "/tb_gpu' --config configs/fermi-gtx480.json --workload "
                                   "traces/narasiman/hotspot --size study",
                                   SIGINT, "", 1.5);
  EXPECT_EQ(s.exit_code, 130) << s.err;
  const nlohmann::json j = nlohmann::json::parse(s.out);
  EXPECT_FALSE(j["complete"].get<bool>());
  EXPECT_EQ(j["stopped_by"], "SIGINT");
}

}  // namespace
