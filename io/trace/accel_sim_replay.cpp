#include "io/trace/accel_sim_replay.h"

#include <sstream>
#include <string_view>

#include "models/common/error.h"
#include "models/func/cta_state.h"
#include "models/isa/ptx_parser.h"

namespace gputlm::accelsim {

namespace {

enum class SassClass {
  IntAlu,
  IntMul,
  FloatAlu,
  Sfu,
  Convert,
  Load,
  Store,
  Atomic,
  Barrier,
  Branch,
  Exit
};
enum Role : uint8_t { kPlain, kMemory, kExit, kBarrier };

struct Classified {
  SassClass cls = SassClass::IntAlu;
  const char* space = "global";
  bool known = true;
};

// The SASS opcode (its first word, before the modifiers) as a class the timing model knows.
// Sources: NVIDIA's CUDA binary utilities instruction set reference (Volta to Ampere opcodes).
Classified classify(std::string_view opcode) {
  const std::string_view base = opcode.substr(0, opcode.find('.'));
  struct Entry {
    std::string_view name;
    SassClass cls;
    const char* space;
  };
  static const Entry kTable[] = {
      {"LDG", SassClass::Load, "global"},     {"LD", SassClass::Load, "global"},
      {"LDS", SassClass::Load, "shared"},     {"LDSM", SassClass::Load, "shared"},
      {"LDL", SassClass::Load, "local"},      {"STG", SassClass::Store, "global"},
      {"ST", SassClass::Store, "global"},     {"STS", SassClass::Store, "shared"},
      {"STL", SassClass::Store, "local"},     {"ATOM", SassClass::Atomic, "global"},
      {"ATOMG", SassClass::Atomic, "global"}, {"RED", SassClass::Atomic, "global"},
      {"REDG", SassClass::Atomic, "global"},  {"ATOMS", SassClass::Atomic, "shared"},
      {"BAR", SassClass::Barrier, ""},        {"BRA", SassClass::Branch, ""},
      {"BRX", SassClass::Branch, ""},         {"JMP", SassClass::Branch, ""},
      {"JMX", SassClass::Branch, ""},         {"CALL", SassClass::Branch, ""},
      {"RET", SassClass::Branch, ""},         {"BREAK", SassClass::Branch, ""},
      {"EXIT", SassClass::Exit, ""},          {"KILL", SassClass::Exit, ""},
      {"MUFU", SassClass::Sfu, ""},           {"I2F", SassClass::Convert, ""},
      {"F2I", SassClass::Convert, ""},        {"F2F", SassClass::Convert, ""},
      {"I2I", SassClass::Convert, ""},        {"F2FP", SassClass::Convert, ""},
      {"I2FP", SassClass::Convert, ""},       {"IMAD", SassClass::IntMul, ""},
      {"IMUL", SassClass::IntMul, ""},        {"IMADSP", SassClass::IntMul, ""},
      {"XMAD", SassClass::IntMul, ""},        {"IDP", SassClass::IntMul, ""},
      {"IMAD32I", SassClass::IntMul, ""},     {"IMUL32I", SassClass::IntMul, ""},
  };
  static const std::string_view kFloat[] = {
      "FADD",    "FMUL",    "FFMA",    "FMNMX",   "FSETP", "FSEL",  "FSET",  "FCHK",   "FRND",
      "FSWZADD", "FADD32I", "FMUL32I", "FFMA32I", "HADD2", "HMUL2", "HFMA2", "HSETP2", "HMNMX2",
      "HSET2",   "DADD",    "DMUL",    "DFMA",    "DSETP", "DMNMX", "HMMA",  "DMMA"};
  static const std::string_view kInt[] = {
      "IADD3",  "IADD",  "IADD32I", "ISETP", "ISCADD",    "LOP3",  "LOP",      "LOP32I", "SHF",
      "SHL",    "SHR",   "LEA",     "MOV",   "MOV32I",    "S2R",   "S2UR",     "CS2R",   "SEL",
      "IABS",   "IMNMX", "PRMT",    "POPC",  "FLO",       "BREV",  "P2R",      "R2P",    "PLOP3",
      "PSETP",  "UMOV",  "UIADD3",  "ULDC",  "LDC",       "ULOP3", "USHF",     "ULEA",   "UISETP",
      "USEL",   "UPRMT", "UFLO",    "UPOPC", "R2UR",      "VOTE",  "VOTEU",    "SHFL",   "BMSK",
      "SGXT",   "ICMP",  "NOP",     "YIELD", "BSSY",      "BSYNC", "WARPSYNC", "DEPBAR", "MEMBAR",
      "ERRBAR", "CCTL",  "BMOV",    "B2R",   "NANOSLEEP", "UCLEA", "IMMA"};
  for (const Entry& e : kTable)
    if (e.name == base) return {e.cls, e.space, true};
  for (std::string_view f : kFloat)
    if (f == base) return {SassClass::FloatAlu, "", true};
  for (std::string_view i : kInt)
    if (i == base) return {SassClass::IntAlu, "", true};
  return {SassClass::IntAlu, "", false};
}

bool is_zero_register(const std::string& r) {
  return r == "R255" || r == "RZ" || r == "URZ" || r == "PT" || r == "UPT";
}

std::string reg(const std::string& sass) {
  std::string out = "%x";
  for (char c : sass) out += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return out;
}

}  // namespace

AccelSimKernel::AccelSimKernel(const std::string& path) : m_path(path) {
  build_kernel(path);
  m_file.open(path);
  m_reader = std::make_unique<TracegReader>(m_file, path);
  m_pending = m_reader->next();
}

// The first pass: the SASS instructions by PC, written as PTX of the classes they time like.
void AccelSimKernel::build_kernel(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw InputError(path + ": cannot read the Accel-Sim kernel trace");
  TracegReader r(in, path);
  m_header = r.header();
  std::map<uint32_t, SassInstr> by_pc;
  for (auto k = r.next(); k != TracegReader::Kind::End; k = r.next())
    if (k == TracegReader::Kind::Instruction && !by_pc.count(r.instr.pc))
      by_pc.emplace(r.instr.pc, r.instr);
  if (by_pc.empty()) throw InputError(path + ": the trace has no instructions");
  std::set<std::string> regs{"dummy"};
  std::ostringstream body;
  uint32_t index = 0;
  for (const auto& [pc, in] : by_pc) {
    m_index[pc] = index;
    const Classified c = classify(in.opcode);
    if (!c.known) m_unclassified.insert(in.opcode.substr(0, in.opcode.find('.')));
    std::vector<std::string> srcs;
    for (const std::string& s : in.srcs)
      if (!is_zero_register(s)) srcs.push_back(reg(s)), regs.insert(s);
    std::string d = reg("dummy");
    for (const std::string& s : in.dests)
      if (!is_zero_register(s)) {
        d = reg(s);
        regs.insert(s);
        break;
      }
    auto src = [&](size_t i) { return i < srcs.size() ? srcs[i] : std::string("0"); };
    auto addr = [&] { return "[" + (srcs.empty() ? reg("dummy") : srcs[0]) + "]"; };
    body << "$I" << index << ":\n  ";
    switch (c.cls) {
      case SassClass::IntAlu:
        if (srcs.size() > 2)
          body << "lop3.b32 " << d << ", " << src(0) << ", " << src(1) << ", " << src(2)
               << ", 0xff;";
        else
          body << "add.u32 " << d << ", " << src(0) << ", " << src(1) << ";";
        break;
      case SassClass::IntMul:
        body << "mad.lo.u32 " << d << ", " << src(0) << ", " << src(1) << ", " << src(2) << ";";
        break;
      case SassClass::FloatAlu:
        body << "fma.rn.f32 " << d << ", " << src(0) << ", " << src(1) << ", " << src(2) << ";";
        break;
      case SassClass::Sfu:
        body << "sqrt.approx.f32 " << d << ", " << src(0) << ";";
        break;
      case SassClass::Convert:
        body << "cvt.rn.f32.s32 " << d << ", " << src(0) << ";";
        break;
      case SassClass::Load:
        body << "ld." << c.space << ".u32 " << d << ", " << addr() << ";";
        break;
      case SassClass::Store:
        body << "st." << c.space << ".u32 " << addr() << ", " << src(1) << ";";
        break;
      case SassClass::Atomic:
        body << "atom." << c.space << ".add.u32 " << d << ", " << addr() << ", " << src(1) << ";";
        break;
      case SassClass::Barrier:
        body << "bar.sync 0;";
        break;
      case SassClass::Branch:
        body << "bra $I" << index + 1 << ";";
        break;
      case SassClass::Exit:
        body << "ret;";
        break;
    }
    body << "  // " << std::hex << pc << std::dec << " " << in.opcode << "\n";
    const bool memory =
        c.cls == SassClass::Load || c.cls == SassClass::Store || c.cls == SassClass::Atomic;
    m_role.push_back(memory                        ? kMemory
                     : c.cls == SassClass::Exit    ? kExit
                     : c.cls == SassClass::Barrier ? kBarrier
                                                   : kPlain);
    ++index;
  }
  body << "$I" << index << ":\n  ret;\n";
  std::ostringstream ptx;
  ptx << ".version 7.0\n.target sm_70\n.address_size 64\n.visible .entry " << m_header.name
      << "()\n{\n";
  for (const std::string& r : regs) ptx << "  .reg .b32 " << reg(r) << ";\n";
  ptx << body.str() << "}\n";
  m_module = isa::parse_ptx(ptx.str(), path + " (as PTX)");
  const isa::Kernel* k = m_module->find(m_header.name);
  if (!k || m_module->kernels.size() != 1)
    throw InputError(path + ": '-kernel name = " + m_header.name +
                     "' is not a kernel name (letters, digits, _ and $)");
  m_bound = std::make_unique<func::BoundKernel>(*k, nullptr, m_code_layout.place(*k));
  m_launch.kernel = k;
  m_launch.grid = m_header.grid;
  m_launch.block = m_header.block;
  m_launch.dynamic_shared = m_header.shmem;
  m_launch.replay = this;
}

// The block with linear ID `linear`, read whole (blocks may come in any order); null when the
// trace has no such block.
AccelSimKernel::Block* AccelSimKernel::block(uint64_t linear) {
  for (;;) {
    auto it = m_blocks.find(linear);
    if (it != m_blocks.end()) return &it->second;
    if (m_pending != TracegReader::Kind::Block) return nullptr;
    const func::Dim3 b = m_reader->block;
    const uint64_t id =
        b.x + uint64_t{b.y} * m_header.grid.x + uint64_t{b.z} * m_header.grid.x * m_header.grid.y;
    Block& blk = m_blocks[id];
    const uint32_t threads = static_cast<uint32_t>(m_header.block.count());
    for (m_pending = m_reader->next(); m_pending == TracegReader::Kind::Warp;) {
      const uint32_t w = m_reader->warp;
      if (blk.size() <= w) blk.resize(w + 1);
      WarpSteps& ws = blk[w];
      const uint32_t first = w * kWarpSize;
      ws.live = first >= threads               ? 0
                : threads - first >= kWarpSize ? ~LaneMask{0}
                                               : (LaneMask{1} << (threads - first)) - 1;
      ws.steps.reserve(
          std::min<uint64_t>(m_reader->instructions, 4096));  // grows with the lines really read
      for (m_pending = m_reader->next(); m_pending == TracegReader::Kind::Instruction;
           m_pending = m_reader->next()) {
        const SassInstr& s = m_reader->instr;
        ws.steps.push_back({m_index.at(s.pc), s.mask, s.width});
        if (s.width)
          for (unsigned l = 0; l < kWarpSize; ++l)
            if (s.mask >> l & 1) ws.addresses.push_back(s.addr[l]);
      }
    }
  }
}

bool AccelSimKernel::next_issue(const func::CtaState& cta, uint32_t warp, uint32_t& pc,
                                uint32_t& lanes) {
  if (!error().empty()) return false;
  Block* b = nullptr;
  try {
    b = block(cta.linear_id);
  } catch (const InputError& e) {
    stop(e.what());
    return false;
  }
  if (!b || b->size() <= warp) return false;
  WarpSteps& w = (*b)[warp];
  if (w.fetched < w.steps.size() && m_role[w.steps[w.fetched].index] == kExit)
    w.live &= ~w.steps[w.fetched].mask;
  if (++w.fetched >= w.steps.size()) return false;
  const Step& s = w.steps[w.fetched];
  pc = s.index;
  lanes = s.mask ? s.mask : w.live;  // predicated off: the warp's live lanes issue it
  if (!lanes) lanes = 1;  // a warp whose lanes all exited yet issues more (the trace says so)
  return true;
}

void AccelSimKernel::next(const func::CtaState& cta, uint32_t warp, uint32_t pc, uint32_t lanes,
                          func::ExecResult& result) {
  result.clear();
  result.active = lanes;
  result.exit = true;  // on a failure the warp ends and the run stops
  if (!error().empty()) return;
  Block* b = nullptr;
  try {
    b = block(cta.linear_id);
  } catch (const InputError& e) {
    return stop(e.what());
  }
  auto where = [&] {
    return m_path + ": block " + std::to_string(cta.linear_id) + ", warp " + std::to_string(warp);
  };
  if (!b || b->size() <= warp || (*b)[warp].executed >= (*b)[warp].steps.size())
    return stop(where() + ": the trace has no more instructions for it");
  WarpSteps& w = (*b)[warp];
  const Step& s = w.steps[w.executed];
  if (s.index != pc)
    return stop(where() + ": the core issued stand-in pc " + std::to_string(pc) +
                ", the trace has " + std::to_string(s.index));
  result.exit = m_role[s.index] == kExit;
  result.active = s.mask;
  if (m_role[s.index] == kBarrier) {
    result.barrier = true;
    result.active = lanes;
  }
  if (m_role[s.index] == kMemory && s.width) {
    const isa::Instruction& in = m_launch.kernel->code[s.index];
    result.space = in.space;
    result.access_bytes = s.width;
    result.accessed = s.mask;
    // Local addresses are the tracer's generic ones: as offsets from the local window's base
    // they take the per-thread interleaving the memory stage gives local memory.
    const uint64_t local_base = in.space == isa::Space::Local ? m_header.local_base : 0;
    for (unsigned l = 0; l < kWarpSize; ++l)
      if (s.mask >> l & 1) {
        const uint64_t a = w.addresses[w.next_address++];
        result.addr[l] = a >= local_base ? a - local_base : a;
      }
  }
  ++w.executed;
  for (const WarpSteps& o : *b)
    if (o.executed < o.steps.size()) return;
  m_blocks.erase(cta.linear_id);
}

}  // namespace gputlm::accelsim
