#include "app/prediction.h"

#include <iomanip>

#include "models/common/error.h"

namespace gputlm::app {

analytical::LaunchCounts launch_shape(const gpu::GpuSpec& spec, const func::Launch& launch) {
  analytical::LaunchCounts c;
  c.threads_per_block = launch.threads_per_cta();
  c.blocks = launch.grid.count();
  c.blocks_that_fit_per_sm = sm::ctas_fitting(spec.core, launch);
  c.sms = spec.cores;
  c.line_bytes = spec.core.l1d.line_bytes;
  return c;
}

Prediction predict_launch(const gpu::GpuSpec& spec, const analytical::LaunchCounts& counts) {
  Prediction p;
  try {
    p.inputs = analytical::inputs_from_run(counts);
    p.result = analytical::evaluate(spec.analytical, p.inputs, spec.analytical_options);
  } catch (const InputError& e) {
    p.error = e.what();
  }
  return p;
}

double simulated_cpi(const Prediction& p, uint64_t cycles, uint64_t warp_instructions) {
  if (!p.ok() || warp_instructions == 0) return 0.0;
  return double(cycles) / (double(warp_instructions) / p.result.active_sms);
}

nlohmann::json to_json(const Prediction& p, uint64_t simulated_cycles, uint64_t warp_instructions) {
  if (!p.ok()) return {{"error", p.error}};
  const analytical::KernelInputs& k = p.inputs;
  const analytical::ModelResult& r = p.result;
  nlohmann::json j = {{"inputs",
                       {{"threads_per_block", k.threads_per_block},
                        {"blocks", k.blocks},
                        {"active_blocks_per_sm", k.active_blocks_per_sm},
                        {"active_sms", r.active_sms},
                        {"comp_insts", k.comp_insts},
                        {"coal_mem_insts", k.coal_mem_insts},
                        {"uncoal_mem_insts", k.uncoal_mem_insts},
                        {"synch_insts", k.synch_insts},
                        {"uncoal_per_mw", r.uncoal_per_mw},
                        {"load_bytes_per_warp", r.load_bytes_per_warp}}},
                      {"n", r.n},
                      {"rep", r.rep},
                      {"mem_l", r.mem_l},
                      {"departure_delay", r.departure_delay},
                      {"mwp", r.mwp},
                      {"mwp_limit", analytical::to_string(r.mwp_limit)},
                      {"cwp", r.cwp},
                      {"case", analytical::to_string(r.exec_case)},
                      {"via_comp_over_mem", r.via_comp_over_mem},
                      {"issue_bound", r.issue_bound},
                      {"clamped_to_issue_bound", r.clamped_to_issue_bound},
                      {"exec_cycles_app", r.exec_cycles_app},
                      {"synch_cost", r.synch_cost},
                      {"cycles", p.cycles()},
                      {"cpi", p.cpi()}};
  if (simulated_cycles) {
    j["simulated_cpi"] = simulated_cpi(p, simulated_cycles, warp_instructions);
    j["simulated_over_predicted"] = p.cycles() > 0 ? double(simulated_cycles) / p.cycles() : 0.0;
  }
  return j;
}

void print_prediction_line(std::ostream& os, const Prediction& p, uint64_t simulated_cycles,
                           uint64_t warp_instructions) {
  os << "  MWP/CWP model     ";
  if (!p.ok()) {
    os << "no prediction: " << p.error << "\n";
    return;
  }
  const analytical::ModelResult& r = p.result;
  os << std::fixed << std::setprecision(0) << p.cycles() << " cycles predicted ("
     << analytical::to_string(r.exec_case) << ", MWP " << std::setprecision(2) << r.mwp << ", CWP "
     << r.cwp << ", N " << r.n << "); CPI " << p.cpi() << " predicted, "
     << simulated_cpi(p, simulated_cycles, warp_instructions) << " simulated\n";
  if (r.exec_cycles_app < r.issue_bound)
    os << "                    (below the issue bound N x Comp_cycles x #Rep = "
       << std::setprecision(0) << r.issue_bound
       << ": Eq. 23 taken by its literal \"Comp_cycles > Mem_cycles\" clause, digest 2.10.2; "
          "\"analytical_model\": {\"comp_over_mem\": \"clamp\"} raises it)\n";
}

void print_prediction(std::ostream& os, const analytical::GpuParams& g, const Prediction& p) {
  auto row = [&os](const char* name, double v, const char* note = "") {
    os << "  " << std::left << std::setw(26) << name << std::right << std::setw(14) << std::fixed
       << std::setprecision(2) << v << "  " << note << "\n";
  };
  if (!p.ok()) {
    os << "  no prediction: " << p.error << "\n";
    return;
  }
  const analytical::KernelInputs& k = p.inputs;
  const analytical::ModelResult& r = p.result;
  os << " GPU constants (" << g.name << ")\n";
  row("#SM", g.sm_count);
  row("Freq (GHz)", g.freq_ghz);
  row("Mem_Bandwidth (GB/s)", g.mem_bandwidth_gbps);
  row("Mem_LD", g.mem_ld, "cycles");
  row("Departure_del_coal", g.departure_del_coal, "cycles");
  row("Departure_del_uncoal", g.departure_del_uncoal, "cycles");
  row("Issue cycles", g.issue_cycles, "cycles a warp instruction");
  os << " inputs (per thread)\n";
  row("#Threads_per_block", k.threads_per_block);
  row("#Blocks", k.blocks);
  row("#Active_blocks_per_SM", k.active_blocks_per_sm);
  row("#Active_SMs", r.active_sms);
  row("#Comp_insts", k.comp_insts);
  row("#Coal_Mem_insts", k.coal_mem_insts);
  row("#Uncoal_Mem_insts", k.uncoal_mem_insts);
  row("#Synch_insts", k.synch_insts);
  row("#Uncoal_per_mw", r.uncoal_per_mw);
  row("Load_bytes_per_warp", r.load_bytes_per_warp, "bytes a memory warp instruction moves");
  os << " model\n";
  row("N (active warps per SM)", r.n, "Eq. 20");
  row("#Rep", r.rep, "Eq. 21");
  row("Mem_L", r.mem_l, "cycles, Eq. 12");
  row("Departure_delay", r.departure_delay, "cycles, Eq. 15");
  row("MWP", r.mwp, analytical::to_string(r.mwp_limit));
  row("CWP", r.cwp, "Eq. 9");
  os << "  " << std::left << std::setw(26) << "case" << std::right << std::setw(14)
     << analytical::to_string(r.exec_case) << "\n";
  row("Exec_cycles_app", r.exec_cycles_app, "cycles");
  row("Synch_cost", r.synch_cost, "cycles, Eq. 26");
  row("predicted cycles", p.cycles(), "Eq. 27");
  row("CPI", p.cpi(), "Eq. 25");
}

}  // namespace gputlm::app
