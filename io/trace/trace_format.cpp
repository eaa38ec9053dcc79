#include "io/trace/trace_format.h"

#include <sstream>
#include <string_view>

#include "io/trace/line_scanner.h"
#include "models/common/error.h"
#include "models/common/limits.h"

namespace gputlm::trace {

namespace {

constexpr const char* kMagic = "gputlm-trace";
const char* const kSpaces[] = {"generic", "global", "shared", "local", "param", "const"};

std::string join(const std::vector<std::string>& regs) {
  if (regs.empty()) return "-";
  std::string s;
  for (const std::string& r : regs) s += (s.empty() ? "" : ",") + r;
  return s;
}

// The accessed lanes' addresses: "s <base> <stride>" when lane i's address is base + stride x i
// (stride may be negative), "d <first> <delta>..." between successive accessed lanes, else "l
// <address>...".
void write_addresses(std::ostream& os, const func::ExecResult& r) {
  std::vector<std::pair<unsigned, uint64_t>> lanes;
  for (unsigned l = 0; l < kWarpSize; ++l)
    if (r.accessed >> l & 1) lanes.emplace_back(l, r.addr[l]);
  if (lanes.empty()) return;
  if (lanes.size() >= 2) {
    const auto [l0, a0] = lanes[0];
    const auto [l1, a1] = lanes[1];
    const int64_t diff = static_cast<int64_t>(a1 - a0);
    const int64_t span = static_cast<int64_t>(l1 - l0);
    if (diff % span == 0) {
      const int64_t stride = diff / span;
      const uint64_t base = a0 - static_cast<uint64_t>(stride) * l0;
      bool all = true;
      for (const auto& [l, a] : lanes) all &= a == base + static_cast<uint64_t>(stride) * l;
      if (all) {
        os << " s " << std::hex << base << std::dec << " " << stride;
        return;
      }
    }
    uint32_t small = 0;
    for (size_t i = 1; i < lanes.size(); ++i) {
      const int64_t d = static_cast<int64_t>(lanes[i].second - lanes[i - 1].second);
      small += d > -(int64_t{1} << 31) && d < (int64_t{1} << 31);
    }
    if (small + 1 == lanes.size()) {
      os << " d " << std::hex << lanes[0].second << std::dec;
      for (size_t i = 1; i < lanes.size(); ++i)
        os << " " << static_cast<int64_t>(lanes[i].second - lanes[i - 1].second);
      return;
    }
  }
  os << " l" << std::hex;
  for (const auto& [l, a] : lanes) os << " " << a;
  os << std::dec;
}

}  // namespace

TraceWriter::TraceWriter(std::ostream& out, const std::string& workload, const std::string& size,
                         const std::string& ptx)
    : m_out(out) {
  m_out << kMagic << " " << kFormatVersion << "\nworkload " << workload << " size " << size << "\n";
  size_t lines = 0;
  for (char c : ptx) lines += c == '\n';
  if (!ptx.empty() && ptx.back() != '\n') ++lines;
  m_out << "module " << lines << "\n" << ptx << (ptx.empty() || ptx.back() == '\n' ? "" : "\n");
}

void TraceWriter::launch(const LaunchHeader& h) {
  m_out << "launch " << h.index << " kernel " << h.kernel << " grid " << h.grid.x << " " << h.grid.y
        << " " << h.grid.z << " block " << h.block.x << " " << h.block.y << " " << h.block.z
        << " shared " << h.shared_bytes << " registers " << h.registers << "\n";
}

void TraceWriter::warp(const WarpHeader& h) {
  m_out << "warp " << h.cta << " " << h.warp << " " << h.instructions << "\n";
}

void TraceWriter::instruction(const InstrRecord& r) {
  const func::ExecResult& x = r.result;
  m_out << r.pc << " " << r.block << " " << std::hex << r.mask << std::dec << " " << r.opcode << " "
        << join(r.defs) << " " << join(r.uses);
  if (x.active != r.mask) m_out << " g " << std::hex << x.active << std::dec;
  if (x.taken) m_out << " t " << std::hex << x.taken << std::dec;
  if (r.targets) {
    m_out << " j";
    for_each_lane(x.taken, [&](unsigned lane) { m_out << " " << x.addr[lane]; });
  }
  if (x.exit) m_out << " x";
  if (x.barrier) m_out << " b " << x.barrier_id << " " << x.barrier_count;
  if (x.access_bytes) {
    m_out << " m " << kSpaces[static_cast<size_t>(x.space)] << " " << x.access_bytes << " "
          << std::hex << x.accessed << std::dec;
    write_addresses(m_out, x);
  }
  if (r.row_hint) m_out << " h";
  m_out << "\n";
}

std::string check_shape(const func::Dim3& grid, const func::Dim3& block) {
  if (!grid.x || !grid.y || !grid.z || !block.x || !block.y || !block.z)
    return "a grid or block dimension is 0";
  if (block.count() > limits::kMaxThreadsPerCta)
    return "block " + block.str() + " has more than " + std::to_string(limits::kMaxThreadsPerCta) +
           " threads" + limits::named("max_threads_per_cta");
  if (grid.count() > limits::kMaxCtasPerLaunch)
    return "grid " + grid.str() + " has more than " + std::to_string(limits::kMaxCtasPerLaunch) +
           " CTAs" + limits::named("max_ctas_per_launch");
  return {};
}

TraceReader::TraceReader(std::istream& in, std::string name) : m_in(in), m_name(std::move(name)) {
  if (!read_line()) fail("empty file: not a gputlm trace");
  std::istringstream is(m_line);
  std::string magic;
  uint32_t version = 0;
  if (!(is >> magic >> version) || magic != kMagic)
    fail("not a gputlm trace (the first line must be '" + std::string(kMagic) + " <version>')");
  if (version != kFormatVersion)
    fail("trace format version " + std::to_string(version) +
         " is not supported (this gputlm reads version " + std::to_string(kFormatVersion) + ")");
  if (!read_line()) fail("truncated: no 'workload' line");
  std::istringstream ws(m_line);
  std::string w, s;
  if (!(ws >> w >> m_workload >> s >> m_size) || w != "workload" || s != "size")
    fail("expected 'workload <name> size <size>'");
  if (!read_line()) fail("truncated: no 'module' line");
  std::istringstream ms(m_line);
  uint64_t lines = 0;
  if (!(ms >> w >> lines) || w != "module")
    fail("expected 'module <lines>' (the PTX module follows)");
  m_ptx_line = m_line_no + 1;
  for (uint64_t i = 0; i < lines; ++i) {  // verbatim: blank and '#' lines belong to the PTX
    if (!get_line())
      fail("truncated: the module has " + std::to_string(i) + " of its " + std::to_string(lines) +
           " lines");
    m_ptx += m_line;
    m_ptx += '\n';
  }
}

void TraceReader::fail(const std::string& what) const {
  throw SourceError(m_name, static_cast<int>(m_line_no), what, m_line);
}

// The next line that is not blank or a comment (#).
bool TraceReader::read_line() {
  while (get_line()) {
    const size_t first = m_line.find_first_not_of(" \t\r");
    if (first != std::string::npos && m_line[first] != '#') return true;
  }
  m_line.clear();
  return false;
}

// The next raw line; a compressed stream that cannot be decoded is an error at the line it broke.
bool TraceReader::get_line() {
  try {
    if (!std::getline(m_in, m_line)) return false;
  } catch (const std::ios_base::failure& e) {
    m_line.clear();
    ++m_line_no;
    fail(std::string("the compressed trace is corrupt or truncated (") + e.what() + ")");
  }
  ++m_line_no;
  return true;
}

namespace {

void split_regs(std::string_view field, std::vector<std::string>& out) {
  out.clear();
  if (field == "-") return;
  while (!field.empty()) {
    const size_t comma = field.find(',');
    out.emplace_back(field.substr(0, comma));
    field = comma == std::string_view::npos ? std::string_view() : field.substr(comma + 1);
  }
}

}  // namespace

void TraceReader::parse_instruction() {
  InstrRecord& r = instr;
  func::ExecResult& x = r.result;
  x.clear();
  r.row_hint = false;
  r.targets = false;
  LineScanner sc(m_line);
  std::string_view opcode, defs, uses;
  if (!(sc.number(r.pc) && sc.number(r.block) && sc.number(r.mask, 16) && sc.word(opcode) &&
        sc.word(defs) && sc.word(uses)))
    fail("expected '<pc> <block> <mask> <opcode> <defs> <uses> [fields]'");
  r.opcode.assign(opcode);
  if (keep_registers) {
    split_regs(defs, r.defs);
    split_regs(uses, r.uses);
  }
  x.active = r.mask;
  for (std::string_view key; sc.word(key);) {
    bool ok = true;
    if (key == "g")
      ok = sc.number(x.active, 16);
    else if (key == "t")
      ok = sc.number(x.taken, 16);
    else if (key == "x")
      x.exit = true;
    else if (key == "h")
      r.row_hint = true;
    else if (key == "j") {  // after `t`: one target pc per taken lane
      r.targets = true;
      for (unsigned l = 0; l < kWarpSize && ok; ++l)
        if (x.taken >> l & 1) ok = sc.number(x.addr[l]);
    } else if (key == "b") {
      x.barrier = true;
      ok = sc.number(x.barrier_id) && sc.number(x.barrier_count);
      if (ok && x.barrier_id > limits::kMaxBarrierId)
        fail("barrier " + std::to_string(x.barrier_id) + " (PTX has barriers 0 to 15)");
      if (ok && x.barrier_count > limits::kMaxThreadsPerCta)
        fail("a barrier for more than " + std::to_string(limits::kMaxThreadsPerCta) + " threads");
    } else if (key == "m") {
      std::string_view space, mode;
      ok = sc.word(space) && sc.number(x.access_bytes) && sc.number(x.accessed, 16);
      if (!ok) fail("field 'm' is incomplete (m <space> <bytes> <hex lanes> <addresses>)");
      if (x.access_bytes == 0 || x.access_bytes > limits::kMaxAccessBytes ||
          (x.access_bytes & (x.access_bytes - 1)))
        fail("memory width " + std::to_string(x.access_bytes) + " (a power of two, 1 to " +
             std::to_string(limits::kMaxAccessBytes) + " bytes)" +
             limits::named("max_access_bytes"));
      size_t sp = 0;
      while (sp < std::size(kSpaces) && space != kSpaces[sp]) ++sp;
      if (sp == std::size(kSpaces)) fail("unknown memory space '" + std::string(space) + "'");
      x.space = static_cast<isa::Space>(sp);
      if (!x.accessed) continue;
      if (!sc.word(mode)) fail("memory lanes without addresses");
      if (mode != "s" && mode != "d" && mode != "l")
        fail("unknown address encoding '" + std::string(mode) + "' (s, d or l)");
      uint64_t base = 0;
      int64_t step = 0;
      if (mode == "s") ok = sc.number(base, 16) && sc.number(step);
      bool first = true;
      for (unsigned l = 0; l < kWarpSize && ok; ++l) {
        if (!(x.accessed >> l & 1)) continue;
        if (mode == "s") {
          x.addr[l] = base + static_cast<uint64_t>(step) * l;
        } else if (mode == "l") {
          ok = sc.number(x.addr[l], 16);
        } else {
          if (first) {
            ok = sc.number(base, 16);
          } else {
            ok = sc.number(step);
            base += static_cast<uint64_t>(step);
          }
          x.addr[l] = base;
        }
        first = false;
      }
    } else {
      fail("unknown field '" + std::string(key) + "'");
    }
    if (!ok) fail("field '" + std::string(key) + "' is incomplete");
  }
}

TraceReader::Kind TraceReader::next() {
  if (!read_line()) {
    if (m_left)
      fail("truncated: warp " + std::to_string(warp.warp) + " of CTA " + std::to_string(warp.cta) +
           " lacks " + std::to_string(m_left) + " instruction line(s)");
    if (!m_in_launch) fail("no launch in the trace");
    return Kind::End;
  }
  if (m_left) {
    parse_instruction();
    --m_left;
    return Kind::Instruction;
  }
  std::istringstream is(m_line);
  std::string word;
  is >> word;
  if (word == "launch") {
    std::string k, g, b, s, rg;
    LaunchHeader& h = launch;
    if (!(is >> h.index >> k >> h.kernel >> g >> h.grid.x >> h.grid.y >> h.grid.z >> b >>
          h.block.x >> h.block.y >> h.block.z >> s >> h.shared_bytes >> rg >> h.registers) ||
        k != "kernel" || g != "grid" || b != "block" || s != "shared" || rg != "registers")
      fail(
          "expected 'launch <n> kernel <name> grid <x> <y> <z> block <x> <y> <z> shared <bytes> "
          "registers <n>'");
    const std::string shape = check_shape(h.grid, h.block);
    if (!shape.empty()) fail(shape);
    if (h.shared_bytes > limits::kMaxSharedBytes)
      fail("shared " + std::to_string(h.shared_bytes) + " bytes" +
           limits::named("max_shared_bytes"));
    if (h.registers > limits::kMaxRegistersPerKernel)
      fail("registers " + std::to_string(h.registers) + limits::named("max_registers_per_kernel"));
    m_in_launch = true;
    return Kind::Launch;
  }
  if (word == "warp") {
    if (!m_in_launch) fail("a warp before any launch");
    if (!(is >> warp.cta >> warp.warp >> warp.instructions))
      fail("expected 'warp <cta> <warp> <instructions>'");
    if (warp.cta >= launch.grid.count())
      fail("CTA " + std::to_string(warp.cta) + " is outside the launch's grid " +
           launch.grid.str());
    if (warp.warp >= (launch.block.count() + kWarpSize - 1) / kWarpSize)
      fail("warp " + std::to_string(warp.warp) + " is outside the launch's block " +
           launch.block.str());
    if (warp.instructions > limits::kMaxWarpInstructions)
      fail(std::to_string(warp.instructions) + " instructions" +
           limits::named("max_warp_instructions"));
    m_left = warp.instructions;
    return Kind::Warp;
  }
  fail("expected 'launch' or 'warp'");
}

}  // namespace gputlm::trace
