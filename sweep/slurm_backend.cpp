#include "sweep/slurm_backend.h"

#include <chrono>
#include <ctime>
#include <filesystem>
#include <sstream>
#include <thread>

#include "app/interrupt.h"
#include "models/common/error.h"
#include "sweep/run_launcher.h"
#include "sweep/subprocess.h"

namespace gputlm::sweep {

namespace {

constexpr size_t kLogLines = 10;
constexpr double kSqueueErrorLimit = 120;  // seconds of squeue failing in a row before giving up

std::string utc_now() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

// Sleeps `seconds` in short steps; false if a stop signal came meanwhile.
bool pause(double seconds) {
  for (double left = seconds; left > 0 && !app::stop_requested(); left -= 0.05)
    std::this_thread::sleep_for(std::chrono::duration<double>(std::min(left, 0.05)));
  return !app::stop_requested();
}

// "ok", "failed (exit 1)", "stopped (signal 15 (Terminated))", "not run": a run's status in words.
std::string status_text(const nlohmann::json& result) {
  if (result.is_null()) return "not run";
  const std::string s = result.value("status", "?");
  return s == "ok" ? s : s + " (" + outcome(result) + ")";
}

}  // namespace

void SlurmBackend::refuse_if_queued() const {
  const auto last = SlurmSubmission::latest(m_store.out());
  if (last && m_client.job_active(last->job))
    throw InputError(m_store.out() + ": job " + last->job + " (submitted " + last->submitted +
                     ", " + last->dir + ") is still in the queue; wait for it (or scancel " +
                     last->job + "), or collect what it has done with --collect");
}

std::string SlurmBackend::script(const SlurmSubmission& s) const {
  const SlurmOptions& o = m_sweep.options;
  std::ostringstream sh;
  sh << "#!/bin/bash\n"
     << "# gputlm sweep " << m_sweep.name << ": " << s.runs() << " run(s) in " << s.tasks.size()
     << " array task(s); line i of tasks.txt\n"
     << "# holds the run ids task i does, one after another. Written by gputlm sweep --backend "
        "slurm.\n"
     << "#SBATCH --job-name=gputlm-" << m_sweep.name << "\n"
     << "#SBATCH --array=0-" << s.tasks.size() - 1
     << (o.throttle ? "%" + std::to_string(o.throttle) : "") << "\n"
     << "#SBATCH --chdir=" << s.dir << "\n"
     << "#SBATCH --output=" << s.dir << "/%A_%a.log\n";
  if (!o.partition.empty()) sh << "#SBATCH --partition=" << o.partition << "\n";
  if (!o.time.empty()) sh << "#SBATCH --time=" << o.time << "\n";
  if (!o.mem.empty()) sh << "#SBATCH --mem=" << o.mem << "\n";
  for (const std::string& a : o.sbatch_args)
    sh << "# sbatch " << a << " (given on the sbatch command line)\n";
  sh << "exec " << shell_quoted(m_sweep.exe) << " sweep " << shell_quoted(m_sweep.spec_path)
     << " --out " << shell_quoted(m_store.out())
     << " --task-file tasks.txt --task \"$SLURM_ARRAY_TASK_ID\"\n";
  return sh.str();
}

SlurmSubmission SlurmBackend::submit(const std::vector<std::string>& ids) const {
  SlurmSubmission s = SlurmSubmission::create(m_store.out(), ids, m_sweep.options.runs_per_task);
  const std::string path = s.dir + "/sweep.sbatch";
  write_atomically(path, script(s));
  try {
    s.job = m_client.submit(path, m_sweep.options.sbatch_args);
  } catch (const InputError&) {  // nothing submitted: no directory left behind
    std::error_code ec;
    std::filesystem::remove_all(s.dir, ec);
    throw;
  }
  s.submitted = utc_now();
  s.write_job();
  return s;
}

std::string SlurmBackend::progress_line(const SlurmSubmission& s,
                                        const std::map<size_t, std::string>& queued) const {
  size_t pending = 0, running = 0, ok = 0, failed = 0;
  for (const auto& [task, state] : queued) (state == "PENDING" ? pending : running) += 1;
  for (const auto& task : s.tasks)
    for (const std::string& id : task) {
      const nlohmann::json r = m_store.result(id);  // null when there is none yet
      ok += m_store.done(id);
      failed += r.is_object() && r.value("status", "") == "failed";
    }
  std::ostringstream line;
  line << "job " << s.job << ": " << pending << " pending, " << running << " running, "
       << s.tasks.size() - queued.size() << " done of " << s.tasks.size() << " task(s); runs " << ok
       << " ok, " << failed << " failed of " << s.runs();
  return line.str();
}

int SlurmBackend::wait(const SlurmSubmission& s, std::ostream& progress) const {
  std::string last_line, last_error;
  double failing_since = -1;
  while (true) {
    std::map<size_t, std::string> queued;
    try {
      queued = m_client.queued_tasks(s.job);
      failing_since = -1;
    } catch (const InputError& e) {  // slurmctld busy or restarting: ask again
      if (failing_since < 0) failing_since = now_seconds();
      if (now_seconds() - failing_since > kSqueueErrorLimit) throw;
      if (e.what() != last_error)
        progress << (m_sweep.terminal ? "\n" : "") << "sweep: " << e.what() << " (retrying)\n"
                 << std::flush;
      last_error = e.what();
    }
    const std::string line = progress_line(s, queued);
    if (m_sweep.terminal)
      progress << "\r" << line << "\033[K" << std::flush;
    else if (line != last_line)
      progress << line << "\n" << std::flush;
    last_line = line;
    if (failing_since < 0 && queued.empty()) break;
    if (!pause(m_sweep.options.poll_seconds)) break;
  }
  if (m_sweep.terminal) progress << "\n";
  return app::stop_signal();
}

size_t SlurmBackend::report(const SlurmSubmission& s, std::ostream& out,
                            const std::function<std::string(const std::string&)>& describe) const {
  size_t reported = 0;
  for (size_t i = 0; i < s.tasks.size(); ++i) {
    std::vector<std::string> not_ok;
    for (const std::string& id : s.tasks[i])
      if (!m_store.done(id)) not_ok.push_back(id);
    if (not_ok.empty()) continue;
    ++reported;
    const auto state = m_client.task_state(s.job, i);
    out << "TASK " << i << " (" << s.job << "_" << i << "): "
        << (state ? state->state + ", exit code " + state->exit_code
                  : std::string("no record (cancelled before it started?)"))
        << "; " << not_ok.size() << " of its " << s.tasks[i].size()
        << " run(s) without an ok result:\n";
    for (const std::string& id : not_ok)
      out << "    " << describe(id) << "  " << status_text(m_store.result(id)) << "\n";
    const std::vector<std::string> tail = last_lines(s.log(i), kLogLines);
    out << "    log " << s.log(i) << (tail.empty() ? " (none)" : ", last lines:") << "\n";
    for (const std::string& l : tail) out << "      " << l << "\n";
  }
  return reported;
}

}  // namespace gputlm::sweep
