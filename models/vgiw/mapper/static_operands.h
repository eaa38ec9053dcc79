// Kernel parameters and CUDA thread coordinates on the VGIW fabric (Voitsechov & Etsion, Sec. 3.5).
// The paper: "The different functional units contain configuration registers that carry the
// opcode they need to execute, along with any static parameters. The configuration registers are
// initialized every time a kernel is loaded"; the initiator CVU "computes the CUDA ThreadIDX
// coordinates for the initiated threads and sends them to its successor nodes" (also Sec. 2:
// threads are streamed "by injecting their thread identifiers and CUDA ThreadIDX coordinates into
// special control vector units"). So, in the "configuration" reading:
//  - a kernel parameter (ld.param of the kernel's own parameters) is a constant held in the
//    configuration of every node that uses it: no load/store unit, no token;
//  - %ntid and %nctaid (CUDA's blockDim, gridDim) are the same for every thread of the launch:
//    configuration constants too;
//  - %tid and %ctaid (threadIdx, blockIdx) come with the thread's token from its segment's
//    initiator: no compute unit. The paper names only ThreadIDX; taking blockIdx the same way is
//    our choice (the initiator knows the tile's CTAs as it knows the thread IDs);
//  - none of these is ever a live value: every segment has them again from its configuration or
//    its initiator, so they never go through the live value cache.
// Other special registers (%laneid, %smid, %clock, ...) stay instructions on compute units.
// The paper is silent on arithmetic whose operands are only such values (nvcc's cvta.to.global
// of a parameter pointer, blockIdx * blockDim + threadIdx); "static_folding" chooses:
//  - "none": it runs on units like any instruction, and its result is an ordinary value;
//  - "launch_constants" (default, chosen): arithmetic on launch constants only (parameters,
//    %ntid, %nctaid, immediates, symbol addresses, and results of such arithmetic) is computed when
//    the kernel is loaded and becomes a configuration constant itself. The configuration registers
//    are written at every kernel load (Sec. 3.5), and the paper's compiler maps LLVM's SSA (Sec.
//    4), where a parameter pointer is used as it is (nvcc's cvta has no counterpart there);
//  - "coordinates": also arithmetic mixing in %tid and %ctaid: the initiator computes it with the
//    coordinates, for every segment that uses it (beyond what the paper says: an upper bound).
// The "units" reading is the old one: ld.param on a load/store unit, special registers and their
// arithmetic on compute units, values crossing blocks through the live value cache.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "models/isa/kernel.h"

namespace gputlm::vgiw {

enum class StaticFolding : uint8_t { None, LaunchConstants, Coordinates };

// The "vgiw" section's "static_operands" and "static_folding" keys.
struct StaticOptions {
  bool configuration = true;  // "static_operands": "configuration" (true) or "units"
  StaticFolding folding = StaticFolding::LaunchConstants;
};
const std::vector<std::string>& static_folding_names();  // by StaticFolding value

// Where a value reaches the nodes that use it.
enum class ValueSource : uint8_t {
  Token,       // from the node that computed it, or the live value cache
  Constant,    // the using node's configuration (no token)
  Coordinate,  // the initiator's token of the thread
};

class StaticOperands {
 public:
  StaticOperands() = default;  // nothing static: the "units" reading
  StaticOperands(const isa::Kernel& kernel, const StaticOptions& options);

  // Where the values the instruction at `pc` defines come from; Token: a node computes them.
  ValueSource at_pc(uint32_t pc) const { return pc < m_pc.size() ? m_pc[pc] : ValueSource::Token; }
  // A register all of whose uses get its value statically (its only definition is static), or
  // Token.
  ValueSource of_reg(int32_t reg) const {
    return reg >= 0 && size_t(reg) < m_reg.size() ? m_reg[size_t(reg)] : ValueSource::Token;
  }
  // `live` without the registers that never need a live value.
  std::vector<int32_t> live_values(const std::vector<int32_t>& live) const;
  // Instructions that take no unit.
  uint32_t instructions() const;

 private:
  ValueSource classify(const isa::Instruction& in, StaticFolding folding) const;

  std::vector<ValueSource> m_pc, m_reg;
};

}  // namespace gputlm::vgiw
