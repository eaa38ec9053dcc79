// Module-test support: runs a PTX snippet (support/ptx_harness.h) as one CTA on a fresh one-core
// GPU made from a preset (or any config) and returns its cycles, outputs and core counters.
#pragma once

#include <functional>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "models/common/error.h"
#include "models/gpu/gpu.h"
#include "models/sm/core.h"
#include "support/ptx_harness.h"
#include "support/sc_kernel.h"

namespace gputlm::test {

// A preset of configs/ as JSON, its base configs applied.
inline nlohmann::json preset(const std::string& name = "narasiman-baseline") {
  return gpu::load_config(std::string(GPUTLM_SOURCE_DIR) + "/configs/" + name + ".json");
}

struct CoreRun {
  Cycle cycles = 0;
  std::vector<LaneOut> out;
  core::CoreCounters counters;
  nlohmann::json l1d;             // the SIMT core's L1 data cache statistics
  nlohmann::json modules;         // every module's statistics, by name
  uint64_t cycles_run_ahead = 0;  // the SIMT core's (sm::Core::cycles_run_ahead)
  uint64_t idle_icache_hits = 0;  // ... and its sm::Core::idle_icache_hits
};

// Runs `snippet` for `threads` threads (one CTA) on a fresh GPU made from `config`; thread i's
// input %a is a(i) (i by default). With `dram_trace`, the DRAM request log (CSV) goes there.
inline CoreRun run_core(const std::string& snippet, uint32_t threads,
                        const nlohmann::json& config = preset(),
                        const std::function<uint64_t(unsigned)>& a = nullptr,
                        std::ostream* dram_trace = nullptr) {
  test::fresh_sc_kernel();
  const gpu::GpuSpec spec = gpu::GpuSpec::from_json(config, "test");
  gpu::Gpu gpu("gpu", spec);
  std::unique_ptr<mem::DramRequestLog> log;
  if (dram_trace) {
    log = std::make_unique<mem::DramRequestLog>(*dram_trace);
    gpu.set_dram_log(log.get());
  }
  std::vector<Inputs> in(threads);
  for (unsigned i = 0; i < threads; ++i) in[i] = {a ? a(i) : i, 0, 0};
  SnippetLaunch launch(snippet, in);
  CoreRun r;
  r.cycles = gpu.run(*launch.bound, launch.launch).cycles;
  r.out = launch.outputs();
  r.counters = gpu.cores()[0]->counters();
  if (auto* simt = dynamic_cast<sm::Core*>(gpu.cores()[0].get())) {
    r.l1d = simt->l1d().stats().values();
    r.cycles_run_ahead = simt->cycles_run_ahead();
    r.idle_icache_hits = simt->idle_icache_hits();
  }
  r.modules = collect_stats();
  return r;
}

// The message of the error a GPU config gives, or "" if it is accepted.
inline std::string config_error(const nlohmann::json& config) {
  try {
    gpu::GpuSpec::from_json(config, "cfg");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

// A loop of `n` iterations of 10 ALU instructions and its branch (I-cache warm after the first).
inline std::string alu_loop(unsigned n) {
  std::string s = "  mov.u32 %r1, 0;\n  mov.u32 %r2, 1;\n$L:\n";
  for (int i = 0; i < 8; ++i) s += "  add.s32 %r2, %r2, 3;\n";
  s += "  add.s32 %r1, %r1, 1;\n  setp.lt.u32 %q1, %r1, " + std::to_string(n) +
       ";\n  @%q1 bra $L;\n  cvt.u64.u32 %o, %r2;";
  return s;
}

// Threads with tid % 3 != 0 take a path with a ballot of (tid % 5 == 0), then `after` (say, a
// barrier): each logical 32-thread warp's ballot must see only its own threads on the path.
inline std::string diverged_ballot(const std::string& after = "") {
  return R"(
  rem.u32 %r1, %tid.x, 3;
  setp.eq.u32 %q1, %r1, 0;
  rem.u32 %r1, %tid.x, 5;
  setp.eq.u32 %q2, %r1, 0;
  mov.u32 %r3, 0;
  @%q1 bra $SKIP;
  add.u32 %r4, %r3, 1;
  vote.sync.ballot.b32 %r3, %q2, 0xffffffff;
$SKIP:
)" + after +
         "  cvt.u64.u32 %o, %r3;";
}

}  // namespace gputlm::test
