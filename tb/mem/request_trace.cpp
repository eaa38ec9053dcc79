#include "tb/mem/request_trace.h"

#include <sstream>

#include "models/common/error.h"

namespace gputlm::tb {

RequestTraceReader::RequestTraceReader(const std::string& path) : m_path(path), m_in(path) {
  if (!m_in) throw InputError(path + ": cannot open trace");
}

std::optional<TraceRequest> RequestTraceReader::next(std::optional<uint32_t> core) {
  std::string text;
  while (std::getline(m_in, text)) {
    ++m_line;
    const size_t hash = text.find('#');
    if (hash != std::string::npos) text.resize(hash);
    if (text.find_first_not_of(" \t\r") == std::string::npos) continue;
    TraceRequest r = parse(text, m_line);
    if (r.cycle < m_last_cycle)
      throw SourceError(m_path, m_line,
                        "cycles must not decrease (previous " + std::to_string(m_last_cycle) + ")",
                        text);
    m_last_cycle = r.cycle;
    if (!core || r.core == *core) return r;
  }
  return std::nullopt;
}

TraceRequest RequestTraceReader::parse(const std::string& text, int line) const {
  auto fail = [&](const std::string& why) -> void { throw SourceError(m_path, line, why, text); };
  TraceRequest r;
  r.line = line;
  const size_t colon = text.find(':');
  if (colon == std::string::npos) fail("expected '<cycle>: read|write 0x<address>'");
  try {
    size_t used = 0;
    const std::string cyc = text.substr(0, colon);
    r.cycle = std::stoull(cyc, &used, 10);
    if (cyc.find_first_not_of(" \t", used) != std::string::npos) fail("bad cycle");
  } catch (const std::logic_error&) {
    fail("bad cycle");
  }
  std::istringstream rest(text.substr(colon + 1));
  std::string cmd, addr;
  if (!(rest >> cmd >> addr)) fail("expected 'read|write 0x<address>' after the cycle");
  if (cmd == "read")
    r.write = false;
  else if (cmd == "write")
    r.write = true;
  else
    fail("unknown command '" + cmd + "' (read or write)");
  try {
    size_t used = 0;
    if (addr.size() < 3 || addr[0] != '0' || (addr[1] != 'x' && addr[1] != 'X'))
      throw std::invalid_argument("hex");
    r.address = std::stoull(addr, &used, 16);
    if (used != addr.size()) throw std::invalid_argument("hex");
  } catch (const std::logic_error&) {
    fail("bad address '" + addr + "' (0x<hex>)");
  }
  for (std::string field; rest >> field;) {
    try {
      if (field.rfind("core=", 0) == 0)
        r.core = static_cast<uint32_t>(std::stoul(field.substr(5)));
      else if (field.rfind("bytes=", 0) == 0)
        r.bytes = static_cast<uint32_t>(std::stoul(field.substr(6)));
      else if (field == "hint")
        r.hint = true;
    } catch (const std::logic_error&) {
      fail("bad field '" + field + "'");
    }
  }
  return r;
}

}  // namespace gputlm::tb
