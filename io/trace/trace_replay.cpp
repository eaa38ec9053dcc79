#include "io/trace/trace_replay.h"

#include <algorithm>
#include <sstream>

#include "models/common/error.h"
#include "models/func/cta_state.h"
#include "models/isa/ptx_parser.h"

namespace gputlm::trace {

namespace {
std::string hex(uint64_t v) {
  std::ostringstream os;
  os << std::hex << v;
  return os.str();
}
// Why the targets of step `r` are not ones its instruction can reach (brx.idx: its list; a call
// through a pointer: a linked function's first pc), or empty when they are.
std::string bad_targets(const isa::Kernel& k, const InstrRecord& r) {
  if (r.pc >= k.code.size()) return {};  // the core issues no such pc: next() reports the mismatch
  const isa::Instruction& in = k.code[r.pc];
  if (!k.has_lane_targets(in)) return {};
  const bool brx = in.is_indexed_branch();
  if (!r.targets) return "field 'j' (the taken lanes' target pcs) is missing";
  std::string bad;
  for_each_lane(r.result.taken, [&](unsigned lane) {
    const uint64_t t = r.result.addr[lane];
    bool ok = false;
    if (brx) {
      const std::vector<uint32_t>& list = k.branch_targets[static_cast<size_t>(in.ops[1].imm)];
      ok = std::count(list.begin(), list.end(), t) > 0;
    } else {
      ok = std::any_of(k.functions.begin(), k.functions.end(),
                       [&](const isa::FunctionInfo& f) { return f.entry_pc == t; });
    }
    if (!ok && bad.empty())
      bad = "target pc " + std::to_string(t) + " of lane " + std::to_string(lane) +
            " is not one '" + k.text[r.pc] + "' can reach";
  });
  return bad;
}
}  // namespace

TraceReplay::TraceReplay(TraceReader& reader) : m_reader(reader) {
  m_reader.keep_registers = false;
  // PTX errors name the trace file; their line is the module's (the module starts at ptx_line()).
  m_module = isa::parse_ptx(reader.ptx(), reader.name() + " (module from line " +
                                              std::to_string(reader.ptx_line()) + ")");
  func::GlobalMemory
      scratch;  // a replay takes addresses from the trace: module variables only need some address
  const func::ModuleImage image = func::load_module_variables(*m_module, scratch);
  func::CodeLayout code;  // the module's kernels one after another
  for (const auto& k : m_module->kernels)
    m_bound.emplace(k->name, std::make_unique<func::BoundKernel>(*k, &image, code.place(*k)));
}

bool TraceReplay::next_launch() {
  if (!error().empty()) return false;
  m_ctas.clear();
  m_loaded = -1;
  if (!m_started) {
    m_started = true;
    m_pending = m_reader.next();
  }
  while (m_pending != TraceReader::Kind::Launch && m_pending != TraceReader::Kind::End)
    m_pending = m_reader.next();  // a launch's unrun rest
  if (m_pending == TraceReader::Kind::End) return false;
  m_header = m_reader.launch;
  const isa::Kernel* k = m_module->find(m_header.kernel);
  if (!k)
    throw InputError(m_reader.name() + ": launch " + std::to_string(m_header.index) +
                     ": no kernel '" + m_header.kernel + "' in the trace's module");
  m_launch = func::Launch{};
  m_launch.kernel = k;
  m_launch.grid = m_header.grid;
  m_launch.block = m_header.block;
  m_launch.params.assign(k->param_bytes, 0);
  if (m_header.shared_bytes < k->dynamic_shared_offset)
    throw InputError(m_reader.name() + ": launch " + std::to_string(m_header.index) + ": shared " +
                     std::to_string(m_header.shared_bytes) +
                     " is less than the kernel's static shared memory (" +
                     std::to_string(k->dynamic_shared_offset) + ")");
  m_launch.dynamic_shared = m_header.shared_bytes - k->dynamic_shared_offset;
  m_launch.replay = this;
  m_pending = TraceReader::Kind::Warp;  // consumed: the launch's warps follow
  return true;
}

// Reads warps (whole) until every warp of CTA `cta` is loaded: until a warp of a later CTA has
// been read, or the launch ends.
void TraceReplay::load_through(uint64_t cta) {
  while (m_loaded <= static_cast<int64_t>(cta) && m_pending == TraceReader::Kind::Warp) {
    const TraceReader::Kind k = m_reader.next();
    if (k != TraceReader::Kind::Warp) {
      m_pending = k;
      break;
    }
    const WarpHeader h = m_reader.warp;
    if (static_cast<int64_t>(h.cta) < m_loaded)
      throw InputError(m_reader.name() + ": warp " + std::to_string(h.warp) + " of CTA " +
                       std::to_string(h.cta) + " comes after CTA " + std::to_string(m_loaded) +
                       " (CTAs must come in order)");
    m_loaded = static_cast<int64_t>(h.cta);
    auto& warps = m_ctas[h.cta];
    if (warps.size() <= h.warp) warps.resize(h.warp + 1);
    WarpSteps& w = warps[h.warp];
    w.steps.reserve(std::min<uint64_t>(h.instructions, 4096));  // grows with the lines really read
    for (uint64_t i = 0; i < h.instructions; ++i) {
      m_reader.next();
      const InstrRecord& r = m_reader.instr;
      const func::ExecResult& x = r.result;
      if (const std::string bad = bad_targets(*m_launch.kernel, r); !bad.empty())
        throw InputError(m_reader.name() + ": launch " + std::to_string(m_header.index) + ", CTA " +
                         std::to_string(h.cta) + ", warp " + std::to_string(h.warp) + ", pc " +
                         std::to_string(r.pc) + ": " + bad);
      const LaneMask addressed = r.targets ? x.taken : x.accessed;
      w.steps.push_back({r.pc, r.mask, x.active, x.taken, x.accessed, addressed, x.barrier_id,
                         x.barrier_count, x.access_bytes, x.space, x.exit, x.barrier});
      for (unsigned l = 0; l < kWarpSize; ++l)
        if (addressed >> l & 1) w.addresses.push_back(x.addr[l]);
    }
  }
}

void TraceReplay::fail(const std::string& message, func::ExecResult& result, uint32_t lanes) {
  result.clear();
  result.active = lanes;
  result.exit = true;  // the warp ends; the run stops
  stop(message);
}

void TraceReplay::next(const func::CtaState& cta, uint32_t warp, uint32_t pc, uint32_t lanes,
                       func::ExecResult& result) {
  if (!error().empty()) return fail(error(), result, lanes);
  auto where = [&] {  // only on failure: the replay's hot path builds no strings
    return m_reader.name() + ": launch " + std::to_string(m_header.index) + ", CTA " +
           std::to_string(cta.linear_id) + ", warp " + std::to_string(warp);
  };
  try {
    if (m_loaded <= static_cast<int64_t>(cta.linear_id)) load_through(cta.linear_id);
  } catch (const InputError& e) {
    return fail(e.what(), result, lanes);
  }
  auto it = m_ctas.find(cta.linear_id);
  if (it == m_ctas.end() || it->second.size() <= warp || it->second[warp].done())
    return fail(
        where() + ": the trace has no more instructions, the core issued pc " + std::to_string(pc),
        result, lanes);
  WarpSteps& w = it->second[warp];
  const Step& s = w.steps[w.next];
  if (s.pc != pc || s.mask != lanes)
    return fail(
        where() + ": the trace has pc " + std::to_string(s.pc) + " lanes " + hex(s.mask) +
            ", the core issued pc " + std::to_string(pc) + " lanes " + hex(lanes) +
            " (a config that forms warps differently from static warps cannot replay this trace)",
        result, lanes);
  result.clear();
  result.active = s.active;
  result.taken = s.taken;
  result.exit = s.exit;
  result.barrier = s.barrier;
  result.barrier_id = s.barrier_id;
  result.barrier_count = s.barrier_count;
  result.space = s.space;
  result.access_bytes = s.access_bytes;
  result.accessed = s.accessed;
  for (unsigned l = 0; l < kWarpSize; ++l)
    if (s.addressed >> l & 1) result.addr[l] = w.addresses[w.next_address++];
  ++w.next;
  for (const WarpSteps& o : it->second)
    if (!o.done()) return;
  m_ctas.erase(it);
}

}  // namespace gputlm::trace
