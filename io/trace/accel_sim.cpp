#include "io/trace/accel_sim.h"

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "io/trace/line_scanner.h"
#include "io/trace/trace_format.h"
#include "models/common/error.h"
#include "models/common/limits.h"

namespace gputlm::accelsim {

namespace {

std::string trim(const std::string& s) {
  const size_t b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t\r") - b + 1);
}

// "(x,y,z)" -> Dim3; false when it is not that.
bool parse_dim3(const std::string& text, func::Dim3& d) {
  char open = 0, c1 = 0, c2 = 0, close = 0;
  std::istringstream is(text);
  return static_cast<bool>(is >> open >> d.x >> c1 >> d.y >> c2 >> d.z >> close) && open == '(' &&
         c1 == ',' && c2 == ',' && close == ')';
}

}  // namespace

std::vector<Command> read_kernelslist(const std::string& dir) {
  const std::string path = (std::filesystem::path(dir) / "kernelslist.g").string();
  std::ifstream in(path);
  if (!in)
    throw InputError(path + ": cannot read (an Accel-Sim trace directory has a kernelslist.g)");
  std::vector<Command> out;
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    line = trim(line);
    if (line.empty() || line[0] == '#') continue;
    Command c;
    if (line.rfind("Memcpy", 0) == 0) {
      std::istringstream is(line);
      std::string kind, address, bytes;
      std::getline(is, kind, ',');
      std::getline(is, address, ',');
      std::getline(is, bytes, ',');
      if (kind != "MemcpyHtoD")
        throw SourceError(path, n, "unknown copy '" + kind + "' (MemcpyHtoD)", line);
      try {
        c.kind = Command::Kind::MemcpyHtoD;
        c.address = std::stoull(address, nullptr, 16);
        c.bytes = std::stoull(bytes);
      } catch (const std::logic_error&) {
        throw SourceError(path, n, "expected 'MemcpyHtoD,<hex address>,<bytes>'", line);
      }
    } else {
      c.file = line;
      std::error_code
          ec;  // a name the file system cannot even look up (too long, ...) is missing too
      if (!std::filesystem::is_regular_file(std::filesystem::path(dir) / line, ec))
        throw SourceError(path, n, "no kernel trace '" + line + "'", line);
    }
    if (out.size() >= limits::kMaxTraceCommands)
      throw SourceError(path, n,
                        "more than " + std::to_string(limits::kMaxTraceCommands) + " commands" +
                            limits::named("max_trace_commands"),
                        line);
    out.push_back(c);
  }
  for (const Command& c : out)
    if (c.kind == Command::Kind::Kernel) return out;
  throw InputError(path + ": no kernel trace listed (a kernelslist.g names kernel-N.traceg files)");
}

TracegReader::TracegReader(std::istream& in, std::string name) : m_in(in), m_name(std::move(name)) {
  std::map<std::string, std::string> keys;
  while (read_line()) {
    if (m_line[0] != '-') break;  // the header ends at the first line that is not "-key = value"
    const size_t eq = m_line.find('=');
    if (eq == std::string::npos) fail("expected '-<key> = <value>'");
    keys[trim(m_line.substr(1, eq - 1))] = trim(m_line.substr(eq + 1));
  }
  auto get = [&](const char* key) -> const std::string& {
    auto it = keys.find(key);
    if (it == keys.end()) fail(std::string("the header has no '-") + key + "'");
    return it->second;
  };
  auto number = [&](const char* key, int base = 10) {
    try {
      return std::stoull(get(key), nullptr, base);
    } catch (const std::logic_error&) {
      fail(std::string("'-") + key + "' is not a number");
    }
  };
  KernelHeader& h = m_header;
  h.name = get("kernel name");
  h.id = static_cast<uint32_t>(number("kernel id"));
  if (!parse_dim3(get("grid dim"), h.grid)) fail("'-grid dim' must be (x,y,z)");
  if (!parse_dim3(get("block dim"), h.block)) fail("'-block dim' must be (x,y,z)");
  const std::string shape = trace::check_shape(h.grid, h.block);
  if (!shape.empty())
    fail("'-grid dim' " + h.grid.str() + ", '-block dim' " + h.block.str() + ": " + shape);
  const uint64_t shmem = number("shmem"), nregs = number("nregs");
  if (shmem > limits::kMaxSharedBytes)
    fail("'-shmem' " + std::to_string(shmem) + limits::named("max_shared_bytes"));
  if (nregs > limits::kMaxRegistersPerKernel)
    fail("'-nregs' " + std::to_string(nregs) + limits::named("max_registers_per_kernel"));
  h.shmem = static_cast<uint32_t>(shmem);
  h.nregs = static_cast<uint32_t>(nregs);
  h.binary_version = static_cast<uint32_t>(number("binary version"));
  h.tracer_version = static_cast<uint32_t>(number("accelsim tracer version"));
  if (keys.count("shmem base_addr")) h.shmem_base = number("shmem base_addr", 16);
  if (keys.count("local mem base_addr")) h.local_base = number("local mem base_addr", 16);
  h.lineinfo = keys.count("enable lineinfo") && number("enable lineinfo") != 0;
  if (h.tracer_version < 4 || h.tracer_version > 5)
    fail("Accel-Sim tracer version " + std::to_string(h.tracer_version) +
         " is not supported (versions 4 and 5 are)");
  m_header_done = true;
}

void TracegReader::fail(const std::string& what) const {
  throw SourceError(m_name, static_cast<int>(m_line_no), what, m_line);
}

// The next line that is not blank or a comment; "#BEGIN_TB" and "#END_TB" are records.
bool TracegReader::read_line() {
  while (std::getline(m_in, m_line)) {
    ++m_line_no;
    const size_t b = m_line.find_first_not_of(" \t\r");
    if (b == std::string::npos) continue;
    if (m_line[b] == '#' && m_line.compare(b, 3, "#BE") != 0 && m_line.compare(b, 3, "#EN") != 0)
      continue;
    m_line = trim(m_line);
    return true;
  }
  m_line.clear();
  return false;
}

TracegReader::Kind TracegReader::next() {
  // The constructor has read the first line after the header.
  if (m_header_done) {
    m_header_done = false;
    if (m_line.empty()) fail("no thread block in the trace");
  } else if (!read_line()) {
    if (m_left)
      fail("truncated: warp " + std::to_string(warp) + " lacks " + std::to_string(m_left) +
           " instruction line(s)");
    if (m_in_block) fail("truncated: the last thread block has no #END_TB");
    return Kind::End;
  }
  if (m_left) {
    parse_instruction();
    --m_left;
    return Kind::Instruction;
  }
  if (m_line == "#BEGIN_TB") {
    if (m_in_block) fail("#BEGIN_TB inside a thread block");
    m_in_block = true;
    if (!read_line()) fail("truncated after #BEGIN_TB");
    char c1 = 0, c2 = 0;
    std::istringstream is(m_line.substr(std::min(m_line.size(), m_line.find('=') + 1)));
    if (m_line.rfind("thread block", 0) != 0 ||
        !(is >> block.x >> c1 >> block.y >> c2 >> block.z) || c1 != ',' || c2 != ',')
      fail("expected 'thread block = x,y,z'");
    if (block.x >= m_header.grid.x || block.y >= m_header.grid.y || block.z >= m_header.grid.z)
      fail("thread block " + block.str() + " is outside the grid " + m_header.grid.str());
    return Kind::Block;
  }
  if (m_line == "#END_TB") {
    if (!m_in_block) fail("#END_TB outside a thread block");
    m_in_block = false;
    return next();
  }
  if (m_line.rfind("warp", 0) == 0) {
    if (!m_in_block) fail("a warp outside a thread block");
    std::istringstream ws(m_line.substr(std::min(m_line.size(), m_line.find('=') + 1)));
    if (!(ws >> warp)) fail("expected 'warp = <n>'");
    if (warp >= (m_header.block.count() + kWarpSize - 1) / kWarpSize)
      fail("warp " + std::to_string(warp) + " is outside the block " + m_header.block.str());
    if (!read_line()) fail("truncated after the warp line");
    std::istringstream is(m_line.substr(std::min(m_line.size(), m_line.find('=') + 1)));
    if (m_line.rfind("insts", 0) != 0 || !(is >> instructions)) fail("expected 'insts = <n>'");
    if (instructions > limits::kMaxWarpInstructions)
      fail(std::to_string(instructions) + " instructions" + limits::named("max_warp_instructions"));
    m_left = instructions;
    return Kind::Warp;
  }
  fail("expected #BEGIN_TB, #END_TB, 'warp = <n>' or an instruction");
}

void TracegReader::parse_instruction() {
  trace::LineScanner sc(m_line);
  SassInstr& r = instr;
  uint32_t line = 0, dests = 0, srcs = 0;
  std::string_view w;
  if (m_header.lineinfo && !sc.number(line))
    fail("expected the line number first (-enable lineinfo = 1)");
  if (!sc.number(r.pc, 16) || !sc.number(r.mask, 16) || !sc.number(dests))
    fail("expected '<pc> <mask> <dest_num>'");
  if (dests > 8) fail("more than 8 destination registers");
  r.dests.clear();
  for (uint32_t i = 0; i < dests; ++i) {
    if (!sc.word(w)) fail("fewer destination registers than dest_num");
    r.dests.emplace_back(w);
  }
  if (!sc.word(w)) fail("no opcode");
  r.opcode.assign(w);
  if (!sc.number(srcs) || srcs > 8) fail("expected src_num (at most 8)");
  r.srcs.clear();
  for (uint32_t i = 0; i < srcs; ++i) {
    if (!sc.word(w)) fail("fewer source registers than src_num");
    r.srcs.emplace_back(w);
  }
  if (!sc.number(r.width)) fail("expected mem_width");
  if (r.width > limits::kMaxAccessBytes || (r.width & (r.width - 1)))
    fail("mem_width " + std::to_string(r.width) + " (0, or a power of two up to " +
         std::to_string(limits::kMaxAccessBytes) + " bytes)" + limits::named("max_access_bytes"));
  if (r.width) {
    uint32_t mode = 0;
    if (!sc.number(mode)) fail("expected the address mode (0, 1 or 2)");
    bool ok = true, first = true;
    uint64_t base = 0;
    int64_t step = 0;
    if (mode == 1) ok = sc.number(base, 16) && sc.number(step);
    for (unsigned l = 0; l < kWarpSize && ok; ++l) {
      if (!(r.mask >> l & 1)) continue;
      if (mode == 0) {
        ok = sc.number(r.addr[l], 16);
      } else if (mode == 1) {
        r.addr[l] = base + static_cast<uint64_t>(step) * l;
      } else if (mode == 2) {
        if (first) {
          ok = sc.number(base, 16);
        } else {
          ok = sc.number(step);
          base += static_cast<uint64_t>(step);
        }
        r.addr[l] = base;
      } else {
        fail("unknown address mode " + std::to_string(mode) +
             " (0 list, 1 base+stride, 2 base+deltas)");
      }
      first = false;
    }
    if (!ok) fail("too few addresses for the mask's lanes");
  }
  r.immediate = 0;
  if (m_header.tracer_version >= 5 && !sc.number(r.immediate))
    fail("expected the immediate (tracer version 5)");
  if (!sc.at_end()) fail("unexpected text after the instruction");
}

}  // namespace gputlm::accelsim
