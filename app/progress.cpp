#include "app/progress.h"

#include <cstdio>
#include <iostream>

namespace gputlm::app {

namespace {
constexpr double kEveryCycles = 200000;  // simulated core cycles between updates
}

ProgressReporter::ProgressReporter(sc_core::sc_module_name name, const gpu::Gpu& gpu)
    : sc_module(name), m_gpu(gpu), m_start(std::chrono::steady_clock::now()) {
  SC_METHOD(report);
  sensitive << m_tick;
  dont_initialize();
}

void ProgressReporter::report() {
  uint64_t ctas = 0, instructions = 0;
  for (const auto& c : m_gpu.cores()) {
    ctas += c->counters().ctas_done;
    instructions += c->counters().thread_instructions;
  }
  const double secs =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - m_start).count();
  if (m_gpu.clock().now() > 0) {
    std::cerr << "\rcycle " << m_gpu.clock().now() << ", " << ctas << " CTAs done, "
              << (secs > 0 ? instructions / secs / 1e6 : 0.0) << " M thread instructions/s   "
              << std::flush;
    m_printed = true;
  }
  bool busy = false;
  for (const auto& c : m_gpu.cores()) busy |= !c->idle();
  if (busy) next_trigger(m_gpu.clock().period() * kEveryCycles);
}

void ProgressReporter::finish() {
  if (m_printed) std::cerr << "\n";
}

}  // namespace gputlm::app
