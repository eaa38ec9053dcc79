// Functional testbench module: steps the reference functional engine one warp instruction per
// cycle (round-robin over the warps of one CTA at a time; no timing model) so that a VCD shows
// how each warp's PC, SIMT active mask and divergence-stack depth evolve. Used by
// `gputlm run --functional --vcd`. The waves are an instruction-order view, not a timing one.
#pragma once

#include <memory>
#include <string>
#include <systemc>
#include <vector>

#include "app/vcd_file.h"
#include "models/func/cta_runner.h"
#include "models/func/reference_executor.h"

namespace gputlm::app {

class FuncStepper : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(FuncStepper);
  // `warp_slots` = the most warps any launch's CTA has (one set of waves per slot).
  FuncStepper(sc_core::sc_module_name name, uint32_t warp_slots,
              const func::ReferenceOptions& options);

  // Runs one launch to completion inside the SystemC simulation (sc_start) and returns its
  // statistics. Rethrows a kernel fault after the simulation stopped.
  func::FuncStats run(const func::BoundKernel& kernel, const func::Launch& launch);

  // Switches the stepper's waves on: registers its signals with tf (before the first run).
  void start_waves(sc_core::sc_trace_file* tf);
  std::vector<WaveGroup> save_file_groups() const;

 private:
  void tick();
  void sample();

  func::ReferenceOptions m_options;
  const func::BoundKernel* m_kernel = nullptr;
  const func::Launch* m_launch = nullptr;
  std::unique_ptr<func::CtaRunner> m_cta;
  uint64_t m_next_cta = 0;
  func::FuncStats m_stats;
  std::string m_fault;
  sc_core::sc_event m_start;

  // Traced values (one per cycle).
  uint32_t m_launch_no = 0;
  uint32_t m_cta_id = 0;
  uint32_t m_issue_warp = 0;
  uint32_t m_issue_pc = 0;
  uint32_t m_issue_lanes = 0;
  std::vector<uint32_t> m_pc, m_mask, m_depth, m_status;
};

}  // namespace gputlm::app
