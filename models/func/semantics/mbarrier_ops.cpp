// mbarrier (PTX ISA 9.7.13.15): init, inval, arrive{.noComplete}{.expect_tx}, arrive_drop,
// expect_tx, complete_tx, test_wait/try_wait{.parity} and pending_count on the 64-bit object whose
// layout models/func/mbarrier.h gives. The lanes of a warp act on their objects one after the
// other in lane order, each as one atomic operation. .release/.acquire and the scopes order memory;
// the functional engine is sequentially consistent, so they change nothing here.
//
// try_wait is test_wait that may suspend the thread for a while (9.7.13.15.16); gputlm never
// suspends it (its time limit may be zero) and instead marks the result `yield`, so an engine
// that runs one warp at a time lets the warps that will complete the phase run.
#include <cstring>

#include "models/func/mbarrier.h"
#include "models/func/semantics/dispatch.h"
#include "models/func/semantics/semantics.h"

namespace gputlm::func::sem {
namespace {

using isa::AsyncOp;
namespace mb = mbarrier;

const char* op_name(AsyncOp op) {
  switch (op) {
    case AsyncOp::Init:
      return "mbarrier.init";
    case AsyncOp::Inval:
      return "mbarrier.inval";
    case AsyncOp::Arrive:
      return "mbarrier.arrive";
    case AsyncOp::ArriveDrop:
      return "mbarrier.arrive_drop";
    case AsyncOp::TestWait:
      return "mbarrier.test_wait";
    case AsyncOp::TryWait:
      return "mbarrier.try_wait";
    case AsyncOp::ExpectTx:
      return "mbarrier.expect_tx";
    case AsyncOp::CompleteTx:
      return "mbarrier.complete_tx";
    case AsyncOp::CopyArrive:
      return "cp.async.mbarrier.arrive";
    case AsyncOp::BulkCopy:
      return "cp.async.bulk";
    default:
      return "mbarrier";
  }
}

// One lane's mbarrier object: the address operand in .shared{::cta} (or generic, pointing into
// the shared window), 8-byte aligned (9.7.13.15.1), recorded in the result for the timing model.
uint8_t* mbarrier_object(ExecCtx& c, unsigned lane, uint32_t tid, const isa::Operand& a) {
  uint64_t addr = operand_address(c, tid, a);
  if (c.in->space == isa::Space::Generic && !(a.reg < 0 && a.sym_space == isa::Space::Shared)) {
    if (addr - kSharedWindow >= kWindowSize)
      c.fault(std::string(op_name(c.in->async.op)) + ": the object is not in shared memory", tid,
              addr);
    addr -= kSharedWindow;
  }
  ExecResult& r = *c.result;
  r.space = isa::Space::Shared;
  r.access_bytes = 8;
  r.accessed |= LaneMask{1} << lane;
  r.addr[lane] = addr;
  if (addr % 8 != 0)
    c.fault(std::string(op_name(c.in->async.op)) + ": the object is not 8-byte aligned", tid, addr);
  uint8_t* p =
      c.cta->shared_at(addr, 8);  // the CTA's, or another's of its cluster (.shared::cluster)
  if (!p)
    c.fault(std::string(op_name(c.in->async.op)) + ": the object: " + c.cta->shared_miss(addr), tid,
            addr);
  return p;
}

uint64_t load(const uint8_t* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}
void store(uint8_t* p, uint64_t v) { std::memcpy(p, &v, 8); }

// The object's fields; an object that mbarrier.init has not set up (or mbarrier.inval has
// invalidated) is undefined behaviour in the ISA and a kernel fault here.
// `lane`'s object, at p (mbarrier_object recorded its address).
mb::Fields valid_fields(ExecCtx& c, unsigned lane, uint32_t tid, const uint8_t* p) {
  mb::Fields f = mb::decode(load(p));
  if (!f.valid)
    c.fault(std::string(op_name(c.in->async.op)) +
                " on an mbarrier object that is not initialised (mbarrier.init)",
            tid, c.result->addr[lane]);
  return f;
}

uint32_t count_operand(ExecCtx& c, unsigned i, unsigned lane, uint32_t tid, uint32_t lo) {
  const uint64_t v = c.raw(c.in->ops[i], lane, tid) & 0xffffffffu;
  if (v < lo || v > mb::kMaxCount)
    c.fault(std::string(op_name(c.in->async.op)) + ": count " + std::to_string(v) + " outside [" +
                std::to_string(lo) + ", 2^20-1]",
            tid, 0, false);
  return static_cast<uint32_t>(v);
}

void add_tx(ExecCtx& c, uint32_t tid, mb::Fields& f, int64_t delta) {
  f.tx += delta;
  if (f.tx > mb::kMaxTx || f.tx < -mb::kMaxTx)
    c.fault(std::string(op_name(c.in->async.op)) + ": tx-count " + std::to_string(f.tx) +
                " outside its range +-(2^20-1)",
            tid, 0, false);
}

// complete-tx of `n` bytes on the object at p, whose fields are f: the tx-count drops (checked)
// and the phase may complete.
void complete_tx_at(ExecCtx& c, uint32_t tid, uint8_t* p, mb::Fields f, uint32_t n) {
  add_tx(c, tid, f, -int64_t{n});
  mb::complete_phase_if_done(f);
  store(p, mb::encode(f));
}

// The arrive-on operation (9.7.13.15.4): the pending count drops by `count`, then the phase
// completes if nothing is pending. .noComplete promises it does not complete the phase.
void arrive_on(ExecCtx& c, uint32_t tid, mb::Fields& f, uint32_t count, bool no_complete) {
  if (count > f.pending)
    c.fault(std::string(op_name(c.in->async.op)) + ": " + std::to_string(count) +
                " arrivals with only " + std::to_string(f.pending) + " pending",
            tid, 0, false);
  f.pending -= count;
  if (no_complete && f.pending == 0 && f.tx == 0)
    c.fault("mbarrier.arrive.noComplete would complete the current phase", tid, 0, false);
  mb::complete_phase_if_done(f);
}

// mbarrier.init [a], count (9.7.13.15.9): phase 0, pending = expected = count, tx-count 0.
void init(ExecCtx& c) {
  lanes(c, [&](unsigned lane, uint32_t tid) {
    uint8_t* p = mbarrier_object(c, lane, tid, c.in->ops[0]);
    mb::Fields f;
    f.pending = f.expected = count_operand(c, 1, lane, tid, 1);
    f.valid = true;
    store(p, mb::encode(f));
  });
}

// mbarrier.inval [a] (9.7.13.15.10): the object becomes invalid (here: all zero).
void inval(ExecCtx& c) {
  lanes(c, [&](unsigned lane, uint32_t tid) {
    store(mbarrier_object(c, lane, tid, c.in->ops[0]), 0);
  });
}

// mbarrier.arrive{.expect_tx} state, [a]{, count | txCount} and arrive_drop (9.7.13.15.13/14):
// expect-tx first (arrive.expect_tx), arrive_drop lowers the expected count for the phases to
// come, then the arrive-on. state is the object before the operation (mbarrier.h).
void arrive(ExecCtx& c) {
  const isa::Instruction& in = *c.in;
  const isa::AsyncForm& a = in.async;
  lanes(c, [&](unsigned lane, uint32_t tid) {
    uint8_t* p = mbarrier_object(c, lane, tid, in.ops[1]);
    const uint64_t before = load(p);
    mb::Fields f = valid_fields(c, lane, tid, p);
    uint32_t count = 1;
    if (a.expect_tx)
      add_tx(c, tid, f, count_operand(c, 2, lane, tid, 0));
    else if (in.nops >= 3)
      count = count_operand(c, 2, lane, tid, 1);
    if (a.op == AsyncOp::ArriveDrop) {
      if (count > f.expected)
        c.fault("mbarrier.arrive_drop: drops more arrivals than expected", tid, 0, false);
      f.expected -= count;
    }
    arrive_on(c, tid, f, count, a.no_complete);
    store(p, mb::encode(f));
    if (in.ops[0].kind == isa::OperandKind::Reg) c.reg(in.ops[0].reg, tid) = before;
  });
}

// mbarrier.test_wait/try_wait{.parity} waitComplete, [a], state | phaseParity (9.7.13.15.16).
void test_wait(ExecCtx& c) {
  const isa::Instruction& in = *c.in;
  lanes(c, [&](unsigned lane, uint32_t tid) {
    const mb::Fields f = valid_fields(c, lane, tid, mbarrier_object(c, lane, tid, in.ops[1]));
    const uint64_t token = c.raw(in.ops[2], lane, tid);
    const bool done = in.async.parity ? mb::parity_phase_completed(f, token)
                                      : mb::state_phase_completed(f, token);
    c.reg(in.ops[0].reg, tid) = done ? 1 : 0;
    if (!done) c.result->yield = true;
  });
}

// mbarrier.expect_tx [a], txCount (9.7.13.15.11) raises the tx-count; complete_tx [a], txCount
// (9.7.13.15.12) lowers it and may complete the phase.
void expect_or_complete_tx(ExecCtx& c) {
  const isa::Instruction& in = *c.in;
  const bool complete = in.async.op == AsyncOp::CompleteTx;
  lanes(c, [&](unsigned lane, uint32_t tid) {
    uint8_t* p = mbarrier_object(c, lane, tid, in.ops[0]);
    mb::Fields f = valid_fields(c, lane, tid, p);
    const uint32_t n = count_operand(c, 1, lane, tid, 0);
    if (complete) return complete_tx_at(c, tid, p, f, n);
    add_tx(c, tid, f, n);
    store(p, mb::encode(f));
  });
}

// mbarrier.pending_count.b64 count, state (9.7.13.15.15): the pending count the state carries.
void pending_count(ExecCtx& c) {
  lanes(c, [&](unsigned lane, uint32_t tid) {
    c.reg(c.in->ops[0].reg, tid) = mb::decode(c.raw(c.in->ops[1], lane, tid)).pending;
  });
}

bool is_addr(const isa::Instruction& in, unsigned i) {
  return in.nops > i && in.ops[i].kind == isa::OperandKind::Address;
}
bool is_reg(const isa::Instruction& in, unsigned i) {
  return in.nops > i && in.ops[i].kind == isa::OperandKind::Reg;
}

// cp.async.mbarrier.arrive{.noinc} [a] (9.7.9.25.4): an arrive-on triggered when the thread's
// earlier cp.async operations complete. gputlm completes each copy when it is issued, so the
// arrive-on happens now. Without .noinc the pending count is first raised by one for it, so the
// two cancel and the object is unchanged; with .noinc it is a plain arrive-on.
//
// The timing model (CtaState::defer_tx) waits for the copies: without .noinc the pending count
// rises now, and the arrive-ons of the lanes on the first lane's object are left to the memory
// stage (ExecResult::tx_mbar, tx_bytes: how many), which performs them once the warp's cp.async
// groups up to the open one are complete. Lanes on another object arrive now.
void copy_arrive(ExecCtx& c) {
  ExecResult& r = *c.result;
  uint32_t deferred = 0;
  lanes(c, [&](unsigned lane, uint32_t tid) {
    uint8_t* p = mbarrier_object(c, lane, tid, c.in->ops[0]);
    mb::Fields f = valid_fields(c, lane, tid, p);
    if (c.cta->defer_tx && (r.tx_mbar < 0 || r.tx_mbar == static_cast<int64_t>(r.addr[lane]))) {
      r.tx_mbar = static_cast<int64_t>(r.addr[lane]);
      ++deferred;
      if (c.in->async.noinc) return;
      if (f.pending >= mb::kMaxCount)
        c.fault("cp.async.mbarrier.arrive: the pending count would exceed 2^20-1", tid, 0, false);
      ++f.pending;
      return store(p, mb::encode(f));
    }
    if (!c.in->async.noinc) return;
    arrive_on(c, tid, f, 1, false);
    store(p, mb::encode(f));
  });
  if (deferred) r.tx_bytes = deferred;
}

}  // namespace

void mbarrier_complete_tx(ExecCtx& c, unsigned lane, uint32_t tid, const isa::Operand& a,
                          uint32_t bytes, bool now) {
  uint8_t* p = mbarrier_object(c, lane, tid, a);
  mb::Fields f = valid_fields(c, lane, tid, p);
  if (!now) {
    c.result->tx_mbar = static_cast<int64_t>(c.result->addr[lane]);
    c.result->tx_bytes = bytes;
    return;
  }
  complete_tx_at(c, tid, p, f, bytes);
}

ExecFn bind_mbarrier(const isa::Instruction& in) {
  const bool b64 = in.type == isa::DType::B64;
  if (in.space != isa::Space::Shared && in.space != isa::Space::Generic) return nullptr;
  switch (in.async.op) {
    case AsyncOp::CopyArrive:
      return b64 && in.nops == 1 && is_addr(in, 0) ? ExecFn(copy_arrive) : nullptr;
    case AsyncOp::Init:
      return b64 && in.nops == 2 && is_addr(in, 0) ? ExecFn(init) : nullptr;
    case AsyncOp::Inval:
      return b64 && in.nops == 1 && is_addr(in, 0) ? ExecFn(inval) : nullptr;
    case AsyncOp::Arrive:
    case AsyncOp::ArriveDrop:
      if (!b64 || !is_addr(in, 1) ||
          (in.ops[0].kind != isa::OperandKind::Reg && in.ops[0].kind != isa::OperandKind::None))
        return nullptr;
      return in.nops == 2 + (in.async.expect_tx ? 1 : 0) || (in.nops == 3 && !in.async.expect_tx)
                 ? ExecFn(arrive)
                 : nullptr;
    case AsyncOp::TestWait:
    case AsyncOp::TryWait:
      if (!b64 || !is_reg(in, 0) || !is_addr(in, 1) || in.nops < 3) return nullptr;
      return in.nops == 3 || (in.nops == 4 && in.async.op == AsyncOp::TryWait) ? ExecFn(test_wait)
                                                                               : nullptr;
    case AsyncOp::ExpectTx:
    case AsyncOp::CompleteTx:
      return b64 && in.nops == 2 && is_addr(in, 0) ? ExecFn(expect_or_complete_tx) : nullptr;
    case AsyncOp::PendingCount:
      return b64 && in.nops == 2 && is_reg(in, 0) ? ExecFn(pending_count) : nullptr;
    default:
      return nullptr;
  }
}

}  // namespace gputlm::func::sem
