#include "sc_main/sweep_slurm.h"

#include <iomanip>
#include <iostream>
#include <optional>

#include "app/interrupt.h"
#include "models/common/error.h"
#include "sc_main/sweep_report.h"
#include "sweep/collect.h"
#include "sweep/run_launcher.h"

using namespace gputlm::sweep;

namespace gputlm {

int run_on_slurm(const SweepSpec& spec, const SlurmBackend& slurm,
                 const nlohmann::ordered_json& runs, const std::vector<std::string>& missing,
                 bool wait, const std::string& collect_command, double start) {
  const RunStore& store = slurm.store();
  const size_t cached = runs.size() - missing.size();
  std::optional<SlurmSubmission> sub;
  if (missing.empty()) {
    std::cout << "sweep " << spec.name << ": " << runs.size()
              << " runs, all done: nothing to submit\n";
  } else {
    sub = slurm.submit(missing);
    std::cout << "sweep " << spec.name << ": " << runs.size() << " runs, " << cached << " cached, "
              << missing.size() << " submitted as job " << sub->job << " (" << sub->tasks.size()
              << " array task(s), " << sub->dir << ")\n"
              << std::flush;
    if (!wait) {
      std::cout << "not waiting (--no-wait); once job " << sub->job
                << " has left the queue (squeue -j " << sub->job << "), collect with:\n  "
                << collect_command << "\n";
      return kExitOk;
    }
    if (const int stopped = slurm.wait(*sub, slurm.terminal() ? std::cerr : std::cout)) {
      std::cout << "STOPPED waiting by " << app::signal_name(stopped) << ": job " << sub->job
                << " stays in the queue; collect later with:\n  " << collect_command << "\n";
      return app::interrupted_exit_code(stopped);
    }
  }
  const CollectCounts c = collect(store, runs, spec.axis_keys());
  print_failures(store, runs);
  const size_t bad_tasks = sub ? slurm.report(*sub, std::cout, run_labels(runs)) : 0;
  std::cout << "sweep " << spec.name << ": " << runs.size() << " runs, " << cached << " cached, "
            << missing.size() << " submitted"
            << (sub ? " (job " + sub->job + ", " + std::to_string(bad_tasks) + " of its " +
                          std::to_string(sub->tasks.size()) + " task(s) not ok)"
                    : "")
            << ", " << c.failed << " failed"
            << (c.missing ? ", " + std::to_string(c.missing) + " not run" : "") << "; wall "
            << std::fixed << std::setprecision(1) << now_seconds() - start << " s\n";
  print_collected(store, c);
  if (c.failed || c.missing)
    std::cout << "the same command again submits the runs without an ok result\n";
  return c.failed || c.missing ? kExitVerifyFailed : kExitOk;
}

void report_latest_submission(const SlurmBackend& slurm, const std::string& out,
                              const nlohmann::ordered_json& runs) {
  const auto last = SlurmSubmission::latest(out);
  if (!last) return;
  if (slurm.client().job_active(last->job)) {
    std::cout << "job " << last->job << " (" << last->dir
              << ") is still in the queue: the tables hold what it has done so far\n";
    return;
  }
  const size_t bad = slurm.report(*last, std::cout, run_labels(runs));
  std::cout << "job " << last->job << ": " << bad << " of its " << last->tasks.size()
            << " array task(s) did not finish ok\n";
}

}  // namespace gputlm
