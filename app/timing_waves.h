// The waves of a timing run: a VCD of the modules under the run's scope, in a time unit that
// holds every clock edge of the GPU (1 ns = one core cycle when all clocks allow it), written only
// inside the run's window while it goes on (WaveWindow), closed at the run's last cycle (or the
// window's end) with its GTKWave save file beside it.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "app/vcd_file.h"
#include "app/wave_window.h"
#include "models/gpu/gpu_spec.h"

namespace gputlm::app {

struct TimingOptions;

class TimingWaves {
 public:
  // Traces the modules of the elaborated GPU under options.vcd_scope. InputError when the file
  // cannot be written or the scope matches no module.
  TimingWaves(const TimingOptions& options, const gpu::GpuSpec& spec);
  // Writes the save file (opening a few cycles before `first_issue`, in core cycles) and closes
  // the VCD at `end_cycle`, keeping the options' window.
  void finish(uint64_t first_issue, uint64_t end_cycle);

 private:
  const TimingOptions& m_options;
  const gpu::GpuSpec& m_spec;
  std::unique_ptr<VcdFile> m_vcd;
  std::unique_ptr<WaveWindow> m_window;  // none without --vcd-window
  std::vector<WaveGroup> m_groups;
};

// Every clock period of the GPU's modules in ps (the core clock is 1000 ps).
std::vector<uint64_t> clock_periods_ps(const gpu::GpuSpec& spec);

}  // namespace gputlm::app
