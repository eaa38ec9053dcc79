// Configuration of a SIMT core ("core" in a GPU config). Defaults follow the papers' baseline
// (Narasiman dissertation Table 5.1): 1024 threads as 32 warps of 32, 1-wide fetch with round-robin
// warp selection, in-order back end with barrel processing, 64KB register file (16 registers a
// thread), 32-lane SIMD. The papers give no instruction latencies: the defaults make every
// instruction pass a 7-stage pipeline once (fetch, decode, register read, 2 execute, memory,
// writeback), and the values are config keys.
#pragma once

#include <array>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "models/func/launch.h"
#include "models/func/simt_stack.h"
#include "models/isa/opcode.h"
#include "models/mem/cache/cache_spec.h"
#include "models/sm/formation/warp_formation.h"
#include "models/sm/scheduler/warp_scheduler.h"

namespace gputlm::sm {

// A functional unit type: `count` units of it in the core, each taking `width` lanes a cycle (a
// 32-lane warp instruction takes 32/width passes), a new pass every `interval` cycles, results
// `latency` cycles after the last pass starts. The tensor unit's passes count multiply-adds
// instead: an M x N x K product takes ceil(M*N*K / macs) passes (`macs`, its width in
// multiply-adds).
struct UnitSpec {
  uint32_t latency = 2;
  uint32_t interval = 1;
  uint32_t width = 32;
  uint32_t count = 1;
  uint32_t macs = 0;  // tensor unit only
  // Tensor unit: multiply-adds a pass for each input type, as a multiple of `macs` (which is the
  // FP16 rate): "rates": {"tf32": 0.5, "s8": 2, ...} (the whitepapers' peak tensor throughput of
  // each type over FP16's); 1 for a type not named. Indexed by isa::MmaType.
  std::array<double, 16> rates = filled_rates();
  static std::array<double, 16> filled_rates() {
    std::array<double, 16> r{};
    r.fill(1.0);
    return r;
  }
};

struct CoreSpec {
  static constexpr size_t kClasses = isa::kInstrClasses;

  double clock_mhz = 1000.0;
  uint32_t max_threads = 1024;
  uint32_t max_warps = 32;
  uint32_t max_ctas = 8;               // chosen
  uint32_t registers = 16384;          // 64KB of 32-bit registers
  uint32_t registers_per_thread = 16;  // chosen for occupancy: PTX registers are virtual
  uint32_t shared_bytes = 131072;      // scratchpad
  std::string scheduler = "rr";        // a registered warp scheduler
  SchedulerParams scheduling;  // what the scheduler is built with (the core sets slots = max_warps)
  std::string formation = "static";  // a registered warp formation
  // Whether the formation keeps each warp's 32 consecutive threads ("static"); the others regroup
  // threads into sub-warps or blocks.
  bool static_warps() const { return formation == "static"; }
  FormationParams formation_params;  // what it is built with (keys under "lwm")
  // "reconvergence": "stack" (diverged paths run one after another, models/func/simt_stack.h) or
  // "its" (independent thread scheduling: paths yield at back edges and join at bar.warp.sync and
  // barriers; "static" formation only).
  func::Reconvergence reconvergence = func::Reconvergence::Stack;
  enum class Issue { Barrel, Scoreboard };
  Issue issue = Issue::Barrel;         // "issue": barrel | scoreboard
  uint32_t max_inflight_per_warp = 4;  // scoreboard mode
  // Scoreboard mode: when an instruction's registers stop blocking the instructions that read or
  // write them. "retire" (default): when it leaves writeback. "latency": for an instruction whose
  // result the execute stage makes (not a memory, atomic, barrier or control one), when a
  // dependent fetched then reaches the execute stage as the result is ready (`latency` cycles
  // after its last pass starts, less the fetch, decode and read cycles), so that a unit's
  // `latency` is the dependent-issue latency the microbenchmark studies measure (Jia et al. 2018:
  // 4 cycles for Volta's FP32 and integer add and multiply-add), results forwarded to the
  // dependent's operands as GPUs do, not read back from the register file after writeback.
  bool release_at_latency = false;
  // Cycles between two warp instructions the execute stage (of a processing block) starts,
  // whatever their units: 1 (the papers' 32-lane SIMD) or, e.g., 4 for 8 SPs taking a 32-thread
  // warp in 4 cycles (Hong & Kim Table 1 row 2, the analytical-compatible preset).
  uint32_t issue_interval = 1;
  // Processing blocks (sub-cores) of the SM: 1, the papers' one pipeline, or 4 for Volta and later
  // (NVIDIA Tesla V100 whitepaper, 2017, "Volta SM": four processing blocks, each with its own L0
  // I-cache, warp scheduler, dispatch unit of one warp instruction a clock, 64 KB register file and
  // 16 FP32, 16 INT32, 8 FP64 lanes, 2 tensor cores, 4 LD/ST and 1 SFU). Warp slot s belongs to
  // block s % processing_blocks (GPGPU-Sim's sub_core_model: a warp's scheduler is its warp id
  // modulo the schedulers, shader.cc). With more than one, each block has its own scheduler,
  // decode, register read (its own `register_banks`) and execute stage with its own `units` (the
  // counts and widths are per block), and writeback takes `writeback_ports` a cycle per block; the
  // memory stage (LD/ST path, shared memory, L1) stays one per SM. See processing_block.h.
  uint32_t processing_blocks = 1;
  // Which free warp slots a new CTA's warps take (key "warp_placement"), and so, with processing
  // blocks, which block each warp runs on. "first_free" (default): the lowest free slots, in
  // warp order, as GPGPU-Sim/Accel-Sim do (a CTA's hardware id times its warps), so with CTAs of
  // a multiple of 4 warps warp i of every CTA sits on block i % 4. "rotate" (chosen, no source
  // describes the hardware's choice): the n-th CTA started on the core puts its warp i on block
  // (n + i) % processing_blocks, the lowest free slot there (the next block with one if full), so
  // that the first warps of CTAs, which often do more of the work, spread over the blocks.
  // docs/models/gpu.md ("Processing blocks") says what the V100's binomialOptions row shows.
  enum class WarpPlacement { FirstFree, Rotate };
  WarpPlacement warp_placement = WarpPlacement::FirstFree;
  uint32_t fetch_cycles = 1, decode_cycles = 1, read_cycles = 1, memory_cycles = 1,
           writeback_cycles = 1;
  // Instructions the writeback stage takes a cycle (per processing block). Chosen 2 (the papers are
  // silent): a load whose lines have returned does not take the write port of the instruction
  // behind it. With 1 they share it, the returned loads queue after the memory stage, warps wait
  // there instead of in front of the scheduler, and a warp scheduler has no choice to make
  // (measured: 99.8% of fetches on reduction saw one eligible warp; two-level scheduling then
  // cannot reorder anything).
  uint32_t writeback_ports = 2;
  uint32_t register_banks =
      4;  // chosen: an operand bank conflict costs a read cycle; 0 = no conflicts
  // Source registers a bank reads a cycle (key "register_bank_ports"): an instruction's operand
  // read takes ceil(most registers in one bank / ports) cycles. 1 (default): any two sources in
  // one bank conflict. Volta's banks are 64 bits wide (Jia et al. 2018); Accel-Sim's V100 config
  // reads 2 a bank a cycle (gpgpu_reg_file_port_throughput 2).
  uint32_t register_bank_ports = 1;
  std::array<UnitSpec, kClasses> units;  // per isa::InstrClass
  // Integer work on the FMA pipe (key "fma_pipe_integers"). false (default): int_mul has units of
  // its own and every int_alu instruction takes int_alu's. true, as on Volta to Hopper, where the
  // FMA pipe runs FP32 and IMAD and the ALU pipe the other integer, logic and move instructions,
  // and ptxas writes a 32-bit add, move or left shift by a constant as IMAD.IADD, IMAD.MOV or
  // IMAD.SHL to put it on the FMA pipe instead (Stack Overflow 59777333, "combined format of SASS
  // instructions", answer; NVIDIA developer forums, "Separate CUDA core pipeline for FP16 and
  // FP32?", 2024: "FMA pipe handles IMAD, IDP, and FP32 operations" on GA100 and GH100): an int_mul
  // instruction takes float_alu's units, and a 32-bit integer add, sub, mov of a register or an
  // immediate, or shl by an immediate takes whichever of int_alu's and float_alu's units starts it
  // first (int_alu's on a tie), a run-time stand-in for ptxas's balancing, which no source states.
  // Latency and width stay the instruction's own class's.
  bool fma_pipe_integers = false;
  // Global and shared loads moved up their basic blocks before a kernel's first launch (key
  // "hoist_loads"; isa/load_hoisting.h says which instructions a load passes), a stand-in for
  // ptxas's scheduling of loads ahead of the instructions that do not need them; nvcc's PTX keeps
  // the source order. Default false: the PTX runs as written. A choice: ptxas's scheduler is not
  // public.
  bool hoist_loads = false;
  uint32_t shared_banks = 32;
  uint32_t shared_latency = 1;
  // How a shared (or scratchpad) access and a constant-cache access use the LD/ST path
  // (key "shared_path"): "blocking" (false, the default) holds the path for the access's whole
  // latency, so the next memory instruction starts after it; "pipelined" (true) holds it only for
  // the cycles its requests take (a shared access's bank-conflict degree, a constant access's
  // distinct addresses), the latency running behind, so a conflict-free access can start every
  // cycle (Volta's shared memory serves 32 banks of 4 bytes a cycle: Jia et al. 2018, "Dissecting
  // the NVIDIA Volta GPU Architecture via Microbenchmarking"; Accel-Sim's shared-memory latency is
  // likewise a pipeline delay). One access alone completes at the same cycle either way.
  bool pipelined_shared = false;
  // Extra cycles of a shared access that reaches another CTA's shared memory in its cluster
  // (.shared::cluster, sm_90's SM-to-SM network). A choice of this model, not a measured figure:
  // presets of real GPUs set their own.
  uint32_t cluster_shared_latency = 32;
  // Where thread-local (private) memory lives: "cached" (in global memory through the L1, as on
  // NVIDIA GPUs) or "scratchpad" (an on-chip banked private memory, Narasiman Table 5.1's "128KB,
  // 32-banked private memory (128 bytes per thread)"), timed like shared memory.
  std::string local_memory = "cached";
  uint32_t instruction_bytes = 8;  // chosen: I-cache footprint of one PTX instruction
  bool wait_for_stores = false;    // chosen: a warp does not wait for store acknowledgements
  bool run_every_cycle = false;    // verification aid: the core runs every cycle while it holds
                                   // CTAs (results must equal the event-driven run's)
  bool run_ahead = true;           // speed: the core runs its next cycle at once when nothing
                                   // else can happen before it (Core::activate; same results)
  bool fast_icache_hits = true;    // speed: a fetch that finds the I-cache idle and holding its
                                   // line skips the link's round trip (FetchStage; same results)
  // How a warp's global or local access becomes L1 requests: "line", one request per distinct
  // l1d line touched (Fermi, CUDA C Programming Guide "Compute Capability 2.x"); "sector", one per
  // line carrying the mask of the 32-byte sectors touched (l1d.sector_bytes if set), Volta and
  // later ("Compute Capability 7.x: Global Memory": accesses are serviced in 32-byte sectors;
  // Accel-Sim's -gpgpu_coalesce_arch 70).
  std::string coalescing = "line";
  mem::CacheSpec icache;
  mem::CacheSpec l1d;
  // The constant cache ld.const and ld.param read (sm/memory/constant_cache.h): size_bytes 0 (the
  // default) is none, and those loads take memory_cycles as other instructions do. Its misses take
  // l1c_miss_latency cycles (the levels behind it as one latency; chosen default).
  mem::CacheSpec l1c;
  uint32_t l1c_miss_latency = 20;
  // Where the constant cache's misses go: "latency", l1c_miss_latency cycles and no traffic; or
  // "icache", a read of the line through a second port of the I-cache (the one cache behind both,
  // in place of the L1.5 constant cache NVIDIA's SMs have there: chosen), and so from the L2 and
  // DRAM; the access then completes when its last line is back, and a warp that misses a line
  // already on its way waits for that line. A parameter's miss (not an operand) keeps the latency:
  // the parameters come with the launch. Measured on the V100 (data/hw-v100), binomialOptions'
  // kernel read 640 sectors from DRAM: the 20,480 bytes of its __constant__ option data.
  std::string l1c_misses = "latency";
  bool constant_cache() const { return l1c.size_bytes != 0; }
  // ld.param of a kernel's parameters as SASS reads them: operands of the instruction that uses
  // them (c[0x0][offset]), not loads through the constant cache. The load then takes
  // memory_cycles as other instructions do and makes no constant-cache request (on the V100 the
  // idc__requests of dct8x8's CUDAkernel1DCT, 786,432, are its __constant__ table's addresses
  // alone: sending its 5 ld.param a warp to the cache made 827,392). Only with a constant cache.
  bool param_operands = false;
  // Volta and later: one on-chip array of unified_l1_shared_bytes that the L1 data cache and shared
  // memory split per kernel, shared memory taking one of shared_carveouts (bytes, ascending; the
  // key "shared_carveouts_kb" lists KB as the CUDA C++ Programming Guide does: V100 128 KB with
  // 0, 8, 16, 32, 64 or 96 KB, "Compute Capability 7.x"; A100 192 KB with 0 to 164 KB and H100
  // 256 KB with 0 to 228 KB, "8.x" and "9.0"). l1d then describes the L1 with no shared memory
  // (size_bytes = unified_l1_shared_bytes) and shared_bytes is the largest carve-out; sm/carveout.h
  // says which one a launch gets. 0: not unified, shared_bytes and l1d fixed (the default).
  uint32_t unified_l1_shared_bytes = 0;
  std::vector<uint32_t> shared_carveouts;
  bool unified() const { return unified_l1_shared_bytes != 0; }

  CoreSpec();
  const UnitSpec& unit(isa::InstrClass c) const { return units[static_cast<size_t>(c)]; }
  static CoreSpec from_json(const nlohmann::json& j, const std::string& where,
                            const std::string& path);
};

// What a core's resident CTAs take of its limits.
struct CoreUsage {
  uint64_t ctas = 0, threads = 0, warps = 0, registers = 0, shared = 0;
};
// How many more CTAs of `launch` fit on a core of `spec` beside what `used` holds, by every limit:
// threads, warps, registers, shared memory (`shared_capacity` bytes if given, else
// spec.shared_bytes: a unified core's launch has its own, sm/carveout.h) and the CTA count. With
// nothing used: the CTAs a core holds at once (the MWP/CWP model's #Active_blocks_per_SM before the
// grid's share caps it).
uint32_t ctas_fitting(const CoreSpec& spec, const func::Launch& launch, const CoreUsage& used = {},
                      std::optional<uint32_t> shared_capacity = std::nullopt);

}  // namespace gputlm::sm
