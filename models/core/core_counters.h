// The run-level counters a core reports through core::CoreModule::counters(): a part every core
// type fills, and one part per core type (the other core types leave it at zero). The testbench
// sums them over cores and launches (app::TimingSession) and samples them (app::Sampler).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "models/common/lane_mask.h"
#include "models/isa/opcode.h"

namespace gputlm::core {

// Why the SIMT core's fetch stage did not fetch in a cycle (stall breakdown).
enum class StallCause : uint8_t { Idle, Pipeline, Memory, Barrier, ICache, Backpressure, kCount };
inline const char* stall_cause_name(StallCause c) {
  static const char* const kNames[] = {"idle",    "pipeline", "memory",
                                       "barrier", "icache",   "backpressure"};
  return kNames[static_cast<size_t>(c)];
}
// Every cause's name, in StallCause order (the labels of a histogram by cause).
inline std::vector<std::string> stall_cause_names() {
  std::vector<std::string> names;
  for (size_t i = 0; i < static_cast<size_t>(StallCause::kCount); ++i)
    names.push_back(stall_cause_name(static_cast<StallCause>(i)));
  return names;
}

// What a VGIW fabric's cycles went to while a block streamed (Voitsechov & Etsion Sec. 3.5; our
// breakdown): starting threads; holding threads with every virtual channel taken; waiting for
// the scheduler's next batch; draining the block's last threads.
enum class FabricPhase : uint8_t { Injecting, ChannelsFull, WaitingBatches, Draining, kCount };
inline const char* fabric_phase_name(FabricPhase p) {
  static const char* const kNames[] = {"injecting", "channels_full", "waiting_batches", "draining"};
  return kNames[static_cast<size_t>(p)];
}
constexpr size_t kFabricPhases = static_cast<size_t>(FabricPhase::kCount);

// The SIMT core's own counters (sm::Core).
struct SimtCounters {
  uint64_t issue_cycles = 0;  // cycles in which the execute stage started an instruction
  uint64_t fetch_cycles = 0;  // cycles in which fetch picked a warp (an instruction or an I-cache
                              // access)
  std::vector<uint64_t> simd_histogram =
      std::vector<uint64_t>(kWarpSize + 1, 0);  // k lanes started
  std::vector<uint64_t> stall_cycles =
      std::vector<uint64_t>(static_cast<size_t>(StallCause::kCount), 0);
  uint64_t line_requests = 0;
  uint64_t sector_requests = 0;  // coalescing by sectors: the sectors those line requests name
  uint64_t shared_bank_conflict_cycles = 0;
  uint64_t register_bank_conflict_cycles = 0;
  uint64_t integer_fma_pipe_instructions = 0;  // int_alu ones on the FMA pipe (fma_pipe_integers)
  uint64_t subwarps = 0;  // units formed from large warps (sub-warps), bubbles excluded
  uint64_t subwarp_bubble_cycles = 0;   // cycles the sub-warp former waited for busy threads
  uint64_t resident_thread_cycles = 0;  // threads resident on the core, summed over cycles
  // The MWP/CWP model's memory classes (Hong & Kim Sec. 3.4.5, footnote 8): a global or local
  // memory warp instruction is coalesced when its lanes make ONE line request, uncoalesced
  // otherwise.
  uint64_t coalesced_memory_instructions = 0;
  uint64_t uncoalesced_memory_instructions = 0;
  uint64_t uncoalesced_line_requests = 0;  // line requests of the uncoalesced ones
  uint64_t barrier_instructions = 0;       // warp instructions that were barriers
  // Register-file accesses, one per register operand read or written by a warp instruction (an
  // access for the whole warp, as Voitsechov & Etsion count them for Fig. 3).
  uint64_t register_file_accesses = 0;
  uint64_t register_file_thread_accesses = 0;  // the same per thread (x active lanes)
  // The same split for the energy model (models/energy): operand reads and result writes, each
  // warp-wide; thread instructions by isa::InstrClass; shared-memory (and scratchpad private
  // memory) words accessed, one per active lane of a shared access.
  uint64_t register_reads = 0;
  uint64_t register_writes = 0;
  std::vector<uint64_t> class_thread_instructions = std::vector<uint64_t>(isa::kInstrClasses, 0);
  uint64_t shared_accesses = 0;
};

// The VGIW core's own counters (vgiw::VgiwCore): live value cache accesses, cycles spent
// reconfiguring the fabric, blocks streamed and the cycles of their streaming by phase.
struct FabricCounters {
  uint64_t live_value_accesses = 0;
  uint64_t reconfiguration_cycles = 0;
  uint64_t block_runs = 0;         // blocks (segments) streamed
  uint64_t block_run_threads = 0;  // threads those runs streamed (their thread vectors)
  std::array<uint64_t, kFabricPhases> fabric_cycles{};  // streaming cycles by FabricPhase
};

struct CoreCounters {
  uint64_t warp_instructions = 0;  // zero on a core type without warps
  uint64_t thread_instructions = 0;
  uint64_t first_issue_ns = ~0ull;  // simulated time of the first start (where the waves open)
  uint64_t ctas_done = 0;
  uint64_t active_cycles = 0;  // VGIW: cycles the core had a tile in flight
  SimtCounters simt;
  FabricCounters fabric;
};

}  // namespace gputlm::core
