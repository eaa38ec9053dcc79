// Memory request traces in DRAMSys' STL text form, read as a stream (a trace of any size uses
// bounded memory):
//     <cycle>: read|write 0x<hex address> [more fields]
// one request a line, cycles non-decreasing; '#' starts a comment. gputlm's optional fields:
// `core=<n>` (which core issues it, default 0), `bytes=<n>` (access size, default the line size of
// the receiving module), `hint` (the row-buffer locality hint bit). Other trailing fields (DRAMSys
// data words) are ignored. A malformed line is an InputError naming file and line.
#pragma once

#include <cstdint>
#include <fstream>
#include <optional>
#include <string>

namespace gputlm::tb {

struct TraceRequest {
  uint64_t cycle = 0;
  bool write = false;
  uint64_t address = 0;
  uint32_t core = 0;
  uint32_t bytes = 0;  // 0 = default
  bool hint = false;
  bool cache_global = false;  // an ld.global.cg (not read from trace files: tests set it)
  bool fetch = false;         // an instruction fetch (likewise)
  int line = 0;
};

class RequestTraceReader {
 public:
  explicit RequestTraceReader(const std::string& path);
  // The next request (of `core` only, if given), or nullopt at the end.
  std::optional<TraceRequest> next(std::optional<uint32_t> core = std::nullopt);
  const std::string& path() const { return m_path; }

 private:
  TraceRequest parse(const std::string& text, int line) const;

  std::string m_path;
  std::ifstream m_in;
  int m_line = 0;
  uint64_t m_last_cycle = 0;
};

}  // namespace gputlm::tb
