#include "app/timing_waves.h"

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "app/timing_run.h"
#include "models/common/error.h"

namespace gputlm::app {

std::vector<uint64_t> clock_periods_ps(const gpu::GpuSpec& spec) {
  const double ref = spec.core_clock_mhz();
  std::vector<double> mhz{ref, spec.xbar.clock_mhz, spec.dram.clock_mhz};
  if (spec.l2) mhz.push_back(spec.l2->clock_mhz);
  for (const mem::CacheSpec* c :
       spec.fabric_core() ? std::vector<const mem::CacheSpec*>{&spec.vgiw.l1d, &spec.vgiw.lvc}
                          : std::vector<const mem::CacheSpec*>{&spec.core.icache, &spec.core.l1d})
    mhz.push_back(c->clock_mhz);
  std::vector<uint64_t> periods;
  for (double m : mhz)
    periods.push_back(std::max<uint64_t>(
        1, static_cast<uint64_t>(std::llround(1000.0 * ref / m))));  // as ClockDomain
  return periods;
}

TimingWaves::TimingWaves(const TimingOptions& options, const gpu::GpuSpec& spec)
    : m_options(options),
      m_spec(spec),
      m_vcd(std::make_unique<VcdFile>(options.vcd_path, vcd_unit_ps(clock_periods_ps(spec)))) {
  try {
    m_groups = trace_all(*m_vcd, options.vcd_scope);
    if (options.vcd_from > 0 || options.vcd_to != ~0ull)
      m_window = std::make_unique<WaveWindow>("vcd_window", m_vcd->file(), options.vcd_from,
                                              options.vcd_to);
  } catch (const InputError&) {  // no run: no waves file left behind
    const std::string path = m_vcd->path();
    m_vcd.reset();
    std::filesystem::remove(path);
    throw;
  }
}

void TimingWaves::finish(uint64_t first_issue, uint64_t end_cycle) {
  // Open the waves a few cycles before the first instruction starts (at the window's start if
  // later).
  const uint64_t start =
      first_issue == ~0ull
          ? 0
          : std::max<uint64_t>(m_options.vcd_from, first_issue > 8 ? first_issue - 8 : 0);
  // A core's pipeline reads best a few dozen cycles across; a memory-side scope (a DRAM channel,
  // an L2 slice, the interconnect) shows accesses of hundreds of cycles (a row conflict: 300).
  const std::string& scope = m_options.vcd_scope;
  const bool memory_scope = scope.rfind("gpu.core", 0) != 0 && scope.rfind("gpu.", 0) == 0;
  // A VGIW core streams a block for hundreds of cycles between reconfigurations.
  m_vcd->write_save_file(m_groups, memory_scope || m_spec.fabric_core() ? 400 : 30,
                         std::min(start, m_options.vcd_to));
  if (m_window) m_window->release();
  m_vcd->close(m_options.vcd_from, std::min(m_options.vcd_to, end_cycle));
}

}  // namespace gputlm::app
