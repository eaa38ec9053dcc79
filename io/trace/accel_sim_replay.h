// Replays one kernel of an Accel-Sim SASS trace (accel_sim.h) on the SIMT timing model. A first
// pass over the .traceg collects its SASS instructions by PC and builds a stand-in kernel, one
// instruction per SASS PC in a class the config times (int ALU, int multiply, float ALU, SFU,
// conversion, load/store by space, atomic, barrier, branch, exit), with the SASS registers as its
// registers so the scoreboard sees their dependencies. The replay then reads the trace again, a
// thread block at a time as the cores first issue it: each warp instruction's executed lanes and
// addresses come from the trace, and so does the warp's next PC and lanes (drives_control: SASS
// traces have no taken lanes or reconvergence points; a record with no lanes, predicated off,
// issues with the warp's live lanes). Opcodes the class table does not know are timed as int ALU
// and listed by unclassified().
#pragma once

#include <cstdint>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "io/trace/accel_sim.h"
#include "io/trace/replay_source.h"
#include "models/func/bound_kernel.h"
#include "models/func/launch.h"
#include "models/isa/kernel.h"

namespace gputlm::accelsim {

class AccelSimKernel : public trace::ReplaySource {
 public:
  // Reads `path` once to build the stand-in kernel; InputError for a bad trace.
  explicit AccelSimKernel(const std::string& path);

  const KernelHeader& header() const { return m_header; }
  const func::Launch& launch() const { return m_launch; }
  const func::BoundKernel& kernel() const { return *m_bound; }
  const std::set<std::string>& unclassified() const { return m_unclassified; }

  void next(const func::CtaState& cta, uint32_t warp, uint32_t pc, uint32_t lanes,
            func::ExecResult& result) override;
  bool drives_control() const override { return true; }
  bool next_issue(const func::CtaState& cta, uint32_t warp, uint32_t& pc, uint32_t& lanes) override;

 private:
  struct Step {
    uint32_t index;  // the stand-in kernel's pc
    LaneMask mask;
    uint32_t width;
  };
  struct WarpSteps {
    std::vector<Step> steps;
    std::vector<uint64_t> addresses;
    size_t fetched = 0, executed = 0, next_address = 0;
    LaneMask live = 0;  // lanes not exited, as of the step fetched last
  };
  using Block = std::vector<WarpSteps>;

  void build_kernel(const std::string& path);
  Block* block(uint64_t linear);

  std::string m_path;
  KernelHeader m_header;
  std::map<uint32_t, uint32_t> m_index;  // SASS PC -> stand-in pc
  std::vector<uint8_t> m_role;           // per stand-in pc: what the replay fills in (Role)
  std::unique_ptr<isa::Module> m_module;
  std::unique_ptr<func::BoundKernel> m_bound;
  func::CodeLayout m_code_layout;  // each launch's kernel after the last one's code
  func::Launch m_launch;
  std::set<std::string> m_unclassified;
  std::ifstream m_file;
  std::unique_ptr<TracegReader> m_reader;
  TracegReader::Kind m_pending = TracegReader::Kind::End;
  std::map<uint64_t, Block> m_blocks;  // read and not yet finished
};

}  // namespace gputlm::accelsim
