#include "models/sm/execute/execute_stage.h"

#include <algorithm>

#include "models/func/kernel_fault.h"
#include "models/isa/modifiers.h"

namespace gputlm::sm {

ExecuteStage::ExecuteStage(sc_core::sc_module_name name, CoreContext& core)
    : Stage(name, core, true, true) {
  for (size_t c = 0; c < CoreSpec::kClasses; ++c) {
    m_units_of[c] = static_cast<uint32_t>(m_unit_free.size());
    m_unit_free.insert(m_unit_free.end(), core.spec.units[c].count, 0);
  }
  m_units_of[CoreSpec::kClasses] = static_cast<uint32_t>(m_unit_free.size());
}

size_t ExecuteStage::first_free_unit(isa::InstrClass c) const {
  const size_t k = static_cast<size_t>(c);
  const auto begin = m_unit_free.begin();
  return static_cast<size_t>(std::min_element(begin + m_units_of[k], begin + m_units_of[k + 1]) -
                             begin);
}

Cycle ExecuteStage::unit_free(isa::InstrClass c) const { return m_unit_free[first_free_unit(c)]; }

namespace {
// Passes of a warp instruction on its unit: 32/width, or a tensor product's multiply-adds over
// the unit's (the shape of wmma.mma and mma, four of them for mma.m8n8k4 with .f16 inputs, which
// computes one per quad pair: PTX ISA 9.7.14.5.1; half of them for mma.sp, whose zeros the
// sparse tensor core skips: "2x the math throughput", NVIDIA A100 Tensor Core GPU Architecture
// whitepaper, 2020; 1 for any other instruction of the class).
uint32_t passes(const UnitSpec& u, const WarpInstr& w) {
  if (!u.macs) return kWarpSize / u.width;
  const isa::TensorForm& t = w.in->tensor;
  const bool quad_pairs = w.in->op == isa::Opcode::Mma && t.m == 8 && t.n == 8 && t.k == 4 &&
                          t.types[1] == isa::MmaType::F16;
  const uint64_t macs = uint64_t{t.m} * t.n * t.k * (quad_pairs ? 4 : 1) / (t.sparse ? 2 : 1);
  // The unit's multiply-adds a pass at this input type (UnitSpec::rates), at least one.
  const double rate = u.rates[static_cast<size_t>(isa::mma_input_type(t))];
  const uint64_t per_pass = std::max<uint64_t>(1, static_cast<uint64_t>(u.macs * rate));
  return macs ? static_cast<uint32_t>((macs + per_pass - 1) / per_pass) : 1;
}

// An int_alu instruction that ptxas can write as an IMAD (IMAD.IADD, IMAD.MOV, IMAD.SHL): a
// 32-bit add or sub, a mov of a register or an immediate (not of a special register: S2R), a shl
// by an immediate (CoreSpec::fma_pipe_integers).
bool imad_form(const isa::Instruction& in) {
  using O = isa::Opcode;
  if (in.op != O::Add && in.op != O::Sub && in.op != O::Mov && in.op != O::Shl) return false;
  if (isa::dtype_bits(in.type) > 32 || isa::dtype_bits(in.type) < 16) return false;
  if (in.op == O::Mov)
    return in.ops[1].kind == isa::OperandKind::Reg || in.ops[1].kind == isa::OperandKind::Imm;
  if (in.op == O::Shl) return in.ops[2].kind == isa::OperandKind::Imm;
  return true;
}

// Classes whose result the execute stage makes (the rest wait for memory, a barrier or the PC).
bool releases_at_latency(isa::InstrClass c) {
  using C = isa::InstrClass;
  return c != C::Memory && c != C::Atomic && c != C::Barrier && c != C::Control;
}

}  // namespace

isa::InstrClass ExecuteStage::pipe_of(const WarpInstr& w) const {
  using C = isa::InstrClass;
  if (!m_core.spec.fma_pipe_integers) return w.cls;
  if (w.cls == C::IntMul) return C::FloatAlu;
  if (w.cls != C::IntAlu || !imad_form(*w.in)) return w.cls;
  return unit_free(C::FloatAlu) < unit_free(C::IntAlu) ? C::FloatAlu : C::IntAlu;
}

void ExecuteStage::release(WarpInstr& w) {
  WarpSlot& slot = m_core.warps[w.slot];
  for (int32_t d : m_core.kernel_of(slot).registers(w.pc).defs) slot.set_register_pending(d, false);
  w.released = true;
  m_core.touch(w.slot);
}

Cycle ExecuteStage::cycle(Cycle now) {
  while (!m_releases.empty() && m_releases.top().done <= now) {
    release(*m_releases.top().instr);
    m_releases.pop();
  }
  while (!m_busy.empty() && m_busy.top().done <= now && out->can_send()) {
    WarpInstr* w = m_busy.top().instr;
    m_busy.pop();
    out->send(*w);
  }
  if (WarpInstr* w = in->peek(); w && m_next_issue <= now) {
    const isa::InstrClass pipe = pipe_of(*w);
    if (unit_free(pipe) <= now) {
      if (!issue(*w, pipe, now)) return kNever;  // the kernel faulted; the simulation is stopping
      in->take();
    }
  }
  show(m_busy.size(), m_busy.empty() ? nullptr : m_busy.top().instr);
  Cycle next = kNever;
  if (!m_busy.empty() && m_busy.top().done > now) next = m_busy.top().done;
  if (!m_releases.empty()) next = std::min(next, m_releases.top().done);
  if (WarpInstr* w = in->peek())
    next = std::min(next, std::max({now + 1, m_next_issue, unit_free(pipe_of(*w))}));
  return next;
}

bool ExecuteStage::issue(WarpInstr& w, isa::InstrClass pipe, Cycle now) {
  WarpSlot& slot = m_core.warps[w.slot];
  try {
    func::CtaState& cta = m_core.cta_of(slot);
    if (cta.launch->replay)
      cta.launch->replay->next(cta, slot.index_in_cta, w.pc, w.lanes, w.result);
    else
      m_core.kernel_of(slot).execute(w.pc, cta, w.group, w.lanes, now, w.result);
  } catch (const func::KernelFault& f) {
    m_core.report_fault(f.what());
    return false;
  }
  const UnitSpec& u = m_core.spec.unit(w.cls);
  const uint32_t n = passes(u, w);
  if (pipe != w.cls && w.cls == isa::InstrClass::IntAlu)
    ++m_core.counters.simt.integer_fma_pipe_instructions;
  m_unit_free[first_free_unit(pipe)] = now + uint64_t{n} * u.interval;
  const Cycle done = now + uint64_t{n - 1} * u.interval + u.latency;
  m_busy.push({done, m_seq, &w});
  if (m_core.scoreboard && m_core.spec.release_at_latency && releases_at_latency(w.cls)) {
    // A dependent fetched at `done - front` reaches this stage at `done`.
    const Cycle front =
        m_core.spec.fetch_cycles + m_core.spec.decode_cycles + m_core.spec.read_cycles;
    if (done <= now + front)
      release(w);
    else
      m_releases.push({done - front, m_seq, &w});
  }
  ++m_seq;
  m_next_issue = now + m_core.spec.issue_interval;
  // A cycle counts once however many processing blocks started an instruction in it.
  if (m_core.issued_in != now && m_core.counters.simt.issue_cycles++ == 0)
    m_core.counters.first_issue_ns =
        static_cast<uint64_t>(m_core.clock.time().to_seconds() * 1e9 + 0.5);
  m_core.issued_in = now;
  ++m_core.counters.simt.simd_histogram[popcount(w.lanes)];
  return true;
}

}  // namespace gputlm::sm
