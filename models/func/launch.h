// A kernel launch as the functional engine sees it: the kernel, grid and block shape, the
// parameter bytes laid out as the kernel's .param list says, dynamic shared memory, and the
// global memory the kernel works on.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "models/func/global_memory.h"
#include "models/isa/kernel.h"

namespace gputlm::func {

struct Dim3 {
  uint32_t x = 1, y = 1, z = 1;
  uint64_t count() const { return uint64_t{x} * y * z; }
  std::string str() const { return "(" + std::to_string(x) + "," + std::to_string(y) + "," + std::to_string(z) + ")"; }
};

struct CtaState;
struct ExecResult;
class DeviceServices;
class MemoryCheck;
class TextureTable;

// Where a timing run takes each warp instruction's outcome from when not from the functional
// engine: a recorded trace (tb/trace/trace_replay.h). `warp` is the warp's index in its CTA, `pc`
// and `lanes` what the core issues; throws InputError when the trace does not match.
class InstructionSource {
 public:
  virtual ~InstructionSource() = default;
  virtual void next(const CtaState& cta, uint32_t warp, uint32_t pc, uint32_t lanes, ExecResult& result) = 0;
  // Whether the source also says where each warp goes next (SASS traces carry no taken lanes or
  // reconvergence points). Then the core asks next_issue() for the warp's next PC and lanes,
  // once per fetched instruction, instead of applying its SIMT stack rules.
  virtual bool drives_control() const { return false; }
  // The warp's next PC and lanes after the instruction fetched last; false when it has no more.
  virtual bool next_issue(const CtaState&, uint32_t /*warp*/, uint32_t& /*pc*/, uint32_t& /*lanes*/) { return false; }
};

struct Launch {
  const isa::Kernel* kernel = nullptr;
  Dim3 grid, block;
  std::vector<uint8_t> params;     // kernel->param_bytes bytes
  uint32_t dynamic_shared = 0;     // bytes of extern .shared
  GlobalMemory* memory = nullptr;
  InstructionSource* replay = nullptr;  // set: a trace replay, no functional execution
  DeviceServices* services = nullptr;   // printf FIFO, malloc heap, assertions (device_services.h); null: calling them faults
  // A cooperative launch's grid workspace (cooperative_groups/details/driver_abi.h: {wsSize,
  // barrier}, which grid.sync() counts on), read by the kernel as %envreg1 (high word) and
  // %envreg2 (low word); 0 for other launches, whose grid.sync() traps as on a GPU. Its CTAs run
  // interleaved on the functional engine (reference_executor.h), as they are resident at once.
  uint64_t grid_workspace = 0;
  MemoryCheck* memcheck = nullptr;  // global accesses outside every allocation (memory_check.h); null: they fault
  const TextureTable* textures = nullptr;  // texture and surface objects by handle (texture_table.h); null: none are live

  uint32_t threads_per_cta() const { return static_cast<uint32_t>(block.count()); }
  uint32_t warps_per_cta() const { return (threads_per_cta() + 31) / 32; }
  uint32_t shared_bytes() const { return kernel->dynamic_shared_offset + dynamic_shared; }
  // Linear CTA index -> (x, y, z).
  Dim3 cta_coords(uint64_t linear) const {
    return {static_cast<uint32_t>(linear % grid.x), static_cast<uint32_t>(linear / grid.x % grid.y),
            static_cast<uint32_t>(linear / (uint64_t{grid.x} * grid.y))};
  }
};

}  // namespace gputlm::func
