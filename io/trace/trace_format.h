// gputlm's dynamic trace format, version 1 (traces/FORMAT.md): a text file with a header line,
// then per launch its shape, per CTA and per warp one line per executed warp instruction (PC,
// basic block, SIMT mask at issue, opcode with modifiers, registers, and what the timing model
// takes from the functional engine: guard lanes, taken lanes, exit, barrier, memory lanes and
// addresses). The writer compresses a memory instruction's addresses as base+stride or
// base+deltas when it can; the reader streams (a line at a time) and reports a bad line as one
// InputError naming the file and line.
#pragma once

#include <array>
#include <cstdint>
#include <istream>
#include <ostream>
#include <string>
#include <vector>

#include "models/func/exec_context.h"
#include "models/func/launch.h"

namespace gputlm::trace {

constexpr uint32_t kFormatVersion = 1;

struct LaunchHeader {
  uint32_t index = 0;  // launch number in the workload
  std::string kernel;
  func::Dim3 grid, block;
  uint32_t shared_bytes = 0;
  uint32_t registers = 0;  // register slots per thread
};

struct WarpHeader {
  uint64_t cta = 0;           // linear CTA ID
  uint32_t warp = 0;          // warp in the CTA
  uint64_t instructions = 0;  // lines that follow
};

struct InstrRecord {
  uint32_t pc = 0;
  uint32_t block = 0;                   // basic-block ID
  LaneMask mask = 0;                    // SIMT mask at issue
  std::string opcode;                   // with its modifiers, e.g. ld.global.f32
  std::vector<std::string> defs, uses;  // register names
  func::ExecResult result;  // active, taken, exit, barrier, space, access_bytes, accessed, addr
  bool row_hint = false;
  // brx.idx and calls through pointers: addr holds each taken lane's target pc (field `j`).
  bool targets = false;
};

// Why a launch shape cannot be simulated (a zero dimension, too many threads per CTA or CTAs,
// models/common/limits.h), or empty when it can. Shared by the trace readers.
std::string check_shape(const func::Dim3& grid, const func::Dim3& block);

// Writes a trace; each call appends what it names, in the order the format requires.
class TraceWriter {
 public:
  // `ptx`: the module's PTX text, carried whole so a replay can decode the kernels.
  TraceWriter(std::ostream& out, const std::string& workload, const std::string& size,
              const std::string& ptx);
  void launch(const LaunchHeader& h);
  void warp(const WarpHeader& h);
  void instruction(const InstrRecord& r);

 private:
  std::ostream& m_out;
};

// Reads a trace a record at a time. next() returns the kind of record read into the matching
// member, or End; throws InputError "<name>:<line>: ..." on a malformed line or a wrong version.
class TraceReader {
 public:
  enum class Kind { Launch, Warp, Instruction, End };
  TraceReader(std::istream& in, std::string name);
  Kind next();

  const std::string& workload() const { return m_workload; }
  const std::string& size() const { return m_size; }
  const std::string& ptx() const { return m_ptx; }
  // The trace line the module's first PTX line is on (PTX errors point into the trace).
  uint64_t ptx_line() const { return m_ptx_line; }
  const std::string& name() const { return m_name; }
  LaunchHeader launch;
  WarpHeader warp;
  InstrRecord instr;
  bool keep_registers =
      true;  // false: leave instr.defs and instr.uses empty (a replay needs neither)

 private:
  [[noreturn]] void fail(const std::string& what) const;
  bool read_line();
  bool get_line();
  void parse_instruction();

  std::istream& m_in;
  std::string m_name, m_line, m_workload, m_size, m_ptx;
  uint64_t m_line_no = 0, m_ptx_line = 0;
  uint64_t m_left = 0;  // instruction lines the current warp still owes
  bool m_in_launch = false;
};

}  // namespace gputlm::trace
