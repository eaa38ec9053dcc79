#include "app/functional_run.h"

#include <chrono>
#include <memory>
#include <systemc>

#include "app/func_stepper.h"
#include "app/vcd_file.h"

namespace gputlm::app {

FunctionalRun run_functional(workload::Workload& w, const FunctionalOptions& options) {
  FunctionalRun run;
  run.workload = w.name();
  run.size = w.spec().size;
  func::GlobalMemory memory;
  w.setup(memory);
  const auto start = std::chrono::steady_clock::now();
  int stopped = 0;
  func::ReferenceOptions reference = options.reference;
  if (options.stop_signal) reference.stop = [&] { return (stopped = options.stop_signal()) != 0; };

  std::unique_ptr<FuncStepper> stepper;
  std::unique_ptr<VcdFile> vcd;
  if (!options.vcd_path.empty()) {
    uint32_t max_warps = 1;
    for (const auto& l : w.spec().launches)
      max_warps = std::max<uint32_t>(max_warps, (l.block.count() + 31) / 32);
    stepper = std::make_unique<FuncStepper>("func", max_warps, reference);
    vcd = std::make_unique<VcdFile>(options.vcd_path);
    stepper->start_waves(vcd->file());
  }
  w.for_each_launch(memory, [&](const func::BoundKernel& bk, const func::Launch& launch) {
    if (stopped) return;
    LaunchRecord rec{launch.kernel->name, launch.grid, launch.block, {}};
    rec.stats = stepper ? stepper->run(bk, launch) : func::run_reference(bk, launch, reference);
    run.total.add(rec.stats);
    run.launches.push_back(rec);
  });
  if (vcd) vcd->write_save_file(stepper->save_file_groups());
  run.host_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (stopped)
    run.stopped_by = signal_name(stopped);
  else {
    run.verify = w.verify(memory);
    if (options.keep_outputs) run.outputs = w.outputs(memory);
  }
  return run;
}

}  // namespace gputlm::app
