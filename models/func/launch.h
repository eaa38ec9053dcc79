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
  std::string str() const {
    return "(" + std::to_string(x) + "," + std::to_string(y) + "," + std::to_string(z) + ")";
  }
};

struct CtaState;
struct ExecResult;
class DeviceServices;
class MemoryCheck;
class TextureTable;

// Where a timing run takes each warp instruction's outcome from when not from the functional
// engine: a recorded trace (io/trace/trace_replay.h). `warp` is the warp's index in its CTA, `pc`
// and `lanes` what the core issues; throws InputError when the trace does not match.
class InstructionSource {
 public:
  virtual ~InstructionSource() = default;
  virtual void next(const CtaState& cta, uint32_t warp, uint32_t pc, uint32_t lanes,
                    ExecResult& result) = 0;
  // Whether the source also says where each warp goes next (SASS traces carry no taken lanes or
  // reconvergence points). Then the core asks next_issue() for the warp's next PC and lanes,
  // once per fetched instruction, instead of applying its SIMT stack rules.
  virtual bool drives_control() const { return false; }
  // The warp's next PC and lanes after the instruction fetched last; false when it has no more.
  virtual bool next_issue(const CtaState&, uint32_t /*warp*/, uint32_t& /*pc*/,
                          uint32_t& /*lanes*/) {
    return false;
  }
};

struct Launch {
  const isa::Kernel* kernel = nullptr;
  Dim3 grid, block;
  std::vector<uint8_t> params;  // kernel->param_bytes bytes
  uint32_t dynamic_shared = 0;  // bytes of extern .shared
  // cudaFuncAttributePreferredSharedMemoryCarveout: -1 (no preference) or a percentage (0-100) of
  // the largest shared memory capacity; a hint a unified L1/shared core takes (sm/carveout.h).
  int preferred_carveout = -1;
  GlobalMemory* memory = nullptr;
  InstructionSource* replay = nullptr;  // set: a trace replay, no functional execution
  DeviceServices* services = nullptr;   // printf FIFO, malloc heap, assertions (device_services.h);
                                        // null: calling them faults
  // A cooperative launch's grid workspace (cooperative_groups/details/driver_abi.h: {wsSize,
  // barrier}, which grid.sync() counts on), read by the kernel as %envreg1 (high word) and
  // %envreg2 (low word); 0 for other launches, whose grid.sync() traps as on a GPU. Its CTAs run
  // interleaved on the functional engine (reference_executor.h), as they are resident at once.
  uint64_t grid_workspace = 0;
  // Thread block clusters (sm_90): CTAs per cluster in each dimension (1x1x1: none; each CTA is
  // a cluster of one), and whether the launch or the kernel named them (%is_explicit_cluster).
  // The grid is a whole number of clusters in each dimension (the runtime checks).
  Dim3 cluster;
  bool explicit_cluster = false;
  MemoryCheck* memcheck =
      nullptr;  // global accesses outside every allocation (memory_check.h); null: they fault
  const TextureTable* textures =
      nullptr;  // texture and surface objects by handle (texture_table.h); null: none are live

  uint32_t threads_per_cta() const { return static_cast<uint32_t>(block.count()); }
  uint32_t warps_per_cta() const { return (threads_per_cta() + 31) / 32; }
  uint32_t shared_bytes() const { return kernel->dynamic_shared_offset + dynamic_shared; }
  // Linear CTA index -> (x, y, z).
  Dim3 cta_coords(uint64_t linear) const { return coords(linear, grid); }
  bool clustered() const { return cluster.count() > 1; }
  Dim3 cluster_grid() const { return {grid.x / cluster.x, grid.y / cluster.y, grid.z / cluster.z}; }
  // A CTA's rank in its cluster (%cluster_ctarank: x fastest) and its cluster's linear index.
  uint32_t cluster_rank(const Dim3& cta) const {
    return cta.x % cluster.x + cluster.x * (cta.y % cluster.y + cluster.y * (cta.z % cluster.z));
  }
  uint64_t cluster_index(const Dim3& cta) const {
    const Dim3 g = cluster_grid();
    return cta.x / cluster.x +
           uint64_t{g.x} * (cta.y / cluster.y + uint64_t{g.y} * (cta.z / cluster.z));
  }
  // The linear index of the CTA at position `i` of the order CTAs start in: cluster after
  // cluster, each cluster's CTAs by rank (without clusters, linear order).
  uint64_t cta_in_order(uint64_t i) const {
    if (!clustered()) return i;
    const Dim3 c = coords(i / cluster.count(), cluster_grid()),
               r = coords(i % cluster.count(), cluster);
    const uint64_t x = uint64_t{c.x} * cluster.x + r.x, y = uint64_t{c.y} * cluster.y + r.y,
                   z = uint64_t{c.z} * cluster.z + r.z;
    return x + grid.x * (y + uint64_t{grid.y} * z);
  }

 private:
  static Dim3 coords(uint64_t linear, const Dim3& shape) {
    return {static_cast<uint32_t>(linear % shape.x),
            static_cast<uint32_t>(linear / shape.x % shape.y),
            static_cast<uint32_t>(linear / (uint64_t{shape.x} * shape.y))};
  }
};

}  // namespace gputlm::func
