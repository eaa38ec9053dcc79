#include "io/trace/trace_record.h"

#include <sstream>
#include <string>
#include <vector>

#include "io/trace/trace_format.h"
#include "models/common/error.h"
#include "models/func/cta_runner.h"
#include "models/func/global_memory.h"
#include "models/func/kernel_fault.h"
#include "models/isa/kernel.h"

namespace gputlm::trace {

namespace {

// The opcode with its modifiers: the first word of the instruction's text after any guard.
std::string opcode_text(const std::string& text) {
  std::istringstream is(text);
  std::string word;
  is >> word;
  if (!word.empty() && word[0] == '@') is >> word;
  if (!word.empty() && word.back() == ';') word.pop_back();
  return word;
}

std::vector<std::string> names(const isa::Kernel& k, const std::vector<int32_t>& slots) {
  std::vector<std::string> out;
  for (int32_t s : slots) out.push_back(k.regs[static_cast<size_t>(s)].name);
  return out;
}

}  // namespace

RecordSummary record(workload::Workload& w, const std::string& ptx, std::ostream& out,
                     uint64_t max_warp_instructions, const std::function<bool()>& stop) {
  RecordSummary summary;
  TraceWriter writer(out, w.name(), w.spec().size, ptx);
  func::GlobalMemory memory;
  w.setup(memory);
  std::vector<int32_t> uses, defs;
  w.for_each_launch(memory, [&](const func::BoundKernel& bk, const func::Launch& launch) {
    if (summary.stopped) return;
    const isa::Kernel& k = *launch.kernel;
    if (launch.clustered())  // its CTAs run together (barrier.cluster, each other's shared memory);
                             // a trace holds them one by one
      throw InputError("'" + k.name +
                       "' is launched with thread block clusters, which traces do not record");
    writer.launch({static_cast<uint32_t>(summary.launches++), k.name, launch.grid, launch.block,
                   launch.shared_bytes(), static_cast<uint32_t>(k.regs.size())});
    func::FuncStats stats;
    for (uint64_t id = 0; id < launch.grid.count() && !summary.stopped; ++id) {
      func::CtaRunner cta(bk, launch, id);
      std::vector<std::vector<InstrRecord>> warps(cta.warps().size());
      while (!cta.done()) {
        if (summary.warp_instructions % 4096 == 0 && stop && stop()) {  // a CTA can be long
          summary.stopped = true;
          break;
        }
        const uint32_t wi = cta.step(stats);
        if (++summary.warp_instructions > max_warp_instructions)
          throw func::KernelFault(k.name + ": more than " + std::to_string(max_warp_instructions) +
                                  " warp instructions (the watchdog)");
        InstrRecord r;
        r.pc = cta.last_pc();
        r.block = k.cfg.block_of[r.pc];
        r.mask = cta.last_active();
        const isa::Instruction& in = k.code[r.pc];
        r.opcode = opcode_text(k.text[r.pc]);
        isa::instruction_registers(in, uses, defs);
        r.defs = names(k, defs);
        r.uses = names(k, uses);
        r.result = cta.last_result();
        r.row_hint = in.has(isa::kRowHint);
        r.targets = k.has_lane_targets(in);
        warps[wi].push_back(std::move(r));
      }
      for (uint32_t wi = 0; wi < warps.size(); ++wi) {
        writer.warp({id, wi, warps[wi].size()});
        for (const InstrRecord& r : warps[wi]) writer.instruction(r);
      }
    }
  });
  if (!summary.stopped) summary.verify = w.verify(memory);
  return summary;
}

}  // namespace gputlm::trace
