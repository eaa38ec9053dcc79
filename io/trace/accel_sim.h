// Reading Accel-Sim SASS traces (the NVBit tracer's output after post-processing; format as in
// accel-sim-framework's trace_parser.cc and the tracer's README): the command list
// `kernelslist.g` (MemcpyHtoD lines and kernel-N.traceg files, in order) and each kernel's
// .traceg: a header of "-key = value" lines, then per thread block (#BEGIN_TB ... #END_TB) its
// warps, each "warp = w", "insts = n" and n instruction lines
//   [line] PC mask dest_num [dests] OPCODE src_num [srcs] mem_width [mode addresses] [immediate]
// (line number with -enable lineinfo = 1; immediate from tracer version 5). The mask is the
// lanes that executed (active and predicate true). Address modes: 0 one address per lane of the
// mask, 1 base and stride (lane i: base + stride x i), 2 base then one delta per further lane of
// the mask (the tracer writes popcount - 1 deltas). Tracer versions 4 and 5 are read; anything
// malformed is one InputError naming the file and line. Streams: a line at a time.
#pragma once

#include <array>
#include <cstdint>
#include <istream>
#include <string>
#include <vector>

#include "models/common/lane_mask.h"
#include "models/func/launch.h"

namespace gputlm::accelsim {

struct Command {
  enum class Kind { MemcpyHtoD, Kernel } kind = Kind::Kernel;
  uint64_t address = 0, bytes = 0;  // MemcpyHtoD
  std::string file;                 // Kernel: its .traceg, relative to the list's directory
};

// The commands of <dir>/kernelslist.g; InputError "<file>:<line>: ..." on a line it cannot read.
std::vector<Command> read_kernelslist(const std::string& dir);

struct KernelHeader {
  std::string name;
  uint32_t id = 0;
  func::Dim3 grid, block;
  uint32_t shmem = 0, nregs = 0, binary_version = 0, tracer_version = 0;
  uint64_t shmem_base = 0, local_base = 0;
  bool lineinfo = false;
};

struct SassInstr {
  uint32_t pc = 0;  // byte offset of the SASS instruction
  LaneMask mask = 0;
  std::string opcode;  // with its modifiers, e.g. LDG.E.128
  std::vector<std::string> dests, srcs;
  uint32_t width = 0;                      // bytes a lane accesses; 0: not a memory instruction
  std::array<uint64_t, kWarpSize> addr{};  // the mask's lanes, for memory instructions
  int64_t immediate = 0;
};

class TracegReader {
 public:
  enum class Kind { Block, Warp, Instruction, End };
  // Reads the header; InputError for a missing key or an unsupported tracer version.
  TracegReader(std::istream& in, std::string name);
  const KernelHeader& header() const { return m_header; }
  Kind next();

  func::Dim3 block;           // Kind::Block: the thread block's index
  uint32_t warp = 0;          // Kind::Warp: the warp in the block
  uint64_t instructions = 0;  // Kind::Warp: lines that follow
  SassInstr instr;            // Kind::Instruction

 private:
  [[noreturn]] void fail(const std::string& what) const;
  bool read_line();
  void parse_instruction();

  std::istream& m_in;
  std::string m_name, m_line;
  uint64_t m_line_no = 0, m_left = 0;
  bool m_in_block = false, m_header_done = false;
  KernelHeader m_header;
};

}  // namespace gputlm::accelsim
