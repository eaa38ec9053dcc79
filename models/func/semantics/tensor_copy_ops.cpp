// cp.async.bulk.tensor (PTX ISA 9.7.9.25.5, sm_90), tile and im2col modes, through a tensor map
// (func/tensor_map.h, made by cuTensorMapEncodeTiled or cuTensorMapEncodeIm2col):
//
//   cp.async.bulk.tensor.Nd.shared::cluster.global{.tile}.mbarrier::complete_tx::bytes{.L2::cache_hint}
//       [dst], [tensorMap, {c0, ..., cN-1}], [mbar]{, policy}
//   cp.async.bulk.tensor.Nd.shared::cluster.global.im2col.mbarrier::complete_tx::bytes{.L2::cache_hint}
//       [dst], [tensorMap, {c0, ..., cN-1}], [mbar], {o0, ..., oN-3}{, policy}   (N = 3..5; o:
//       16-bit im2col offsets)
//   cp.async.bulk.tensor.Nd.global.shared::cta{.tile, .im2col_no_offs}.bulk_group{.L2::cache_hint}
//   [tensorMap, {c0, ...}], [src]{, policy}
//   cp.async.bulk.prefetch.tensor.Nd.L2.global{.tile}{.L2::cache_hint} [tensorMap, {c0, ...}]{,
//   policy} cp.async.bulk.prefetch.tensor.Nd.L2.global.im2col{.L2::cache_hint} [tensorMap, {c0,
//   ...}], {o0, ...}{, policy} cp.reduce.async.bulk.tensor.Nd.global.shared::cta.redOp{.tile,
//   .im2col_no_offs}.bulk_group{.L2::cache_hint}
//       [tensorMap, {c0, ...}], [src]{, policy}
//     (PTX ISA 9.7.9.25.5.2: redOp .add .min .max .inc .dec .and .or .xor on the map's element
//     type, the pairs cp.reduce.async.bulk's global form allows: bulk_reduce.h; a reduction
//     combines each element inside the tensor into global memory as a store would write it)
//
// The elements moved are the box's (tile mode) or the pixels' (im2col; the .im2col_no_offs forms
// with offsets of zero) as tensor_box.h walks them; in shared memory they are dense from dst
// (128-byte aligned), each at its swizzled address (TensorMap::swizzled). A map of the other mode
// than the instruction's, or an im2col filter base outside the bounding box, is a fault. Elements
// outside the tensor read as zero (NaN with the NaN fill) and are not written by a store; the
// complete-tx counts the whole box. The tensor map is read at its generic address: a kernel
// parameter
// (__grid_constant__, cvta.param) or global memory. As for cp.async.bulk (bulk_copy_ops.cpp) the
// copy happens when the instruction executes; the timing model sees the box's rows (im2col: its
// pixels; up to 32 runs of them; of the last lane, when several lanes copy) as the global side, and
// a load's mbarrier transaction completes when they return.
// Not modelled, named at load time: .tile::gather4/scatter4 and .im2col::w (sm_100),
// .multicast::cluster (sm_90a).
#include <array>
#include <cstring>
#include <string>

#include "models/func/semantics/bulk_reduce.h"
#include "models/func/semantics/dispatch.h"
#include "models/func/semantics/semantics.h"
#include "models/func/tensor_box.h"
#include "models/func/tensor_map.h"

namespace gputlm::func::sem {
namespace {

using isa::Space;

// The tensor map operand `a` names for a lane: its generic address in the parameter window or in
// global memory.
TensorMap tensor_map(ExecCtx& c, uint32_t tid, const isa::Operand& a) {
  const uint64_t at = operand_address(c, tid, a);
  std::array<uint8_t, sizeof(TensorMap)> bytes{};
  if (at - kParamWindow < kWindowSize) {
    const std::vector<uint8_t>& params = c.launch().params;
    if (at - kParamWindow + bytes.size() > params.size())
      c.fault("cp.async.bulk.tensor: the tensor map is beyond the kernel's parameters", tid, at);
    std::memcpy(bytes.data(), params.data() + (at - kParamWindow), bytes.size());
  } else {
    c.check_global(at, bytes.size(), tid, "cp.async.bulk.tensor: tensor map");
    c.launch().memory->read(at, bytes.data(), bytes.size());
  }
  const TensorMap m = read_tensor_map(bytes.data());
  if (m.magic != TensorMap::kMagic)
    c.fault("cp.async.bulk.tensor: no tensor map made by cuTensorMapEncodeTiled at this address",
            tid, at);
  if (m.rank != c.in->async.tensor_dim)
    c.fault("cp.async.bulk.tensor." + std::to_string(c.in->async.tensor_dim) +
                "d with a tensor map of rank " + std::to_string(m.rank),
            tid, at);
  if ((m.im2col != 0) != c.in->async.im2col)
    c.fault(std::string("cp.async.bulk.tensor in ") + (c.in->async.im2col ? "im2col" : "tile") +
                " mode with a tensor map made by " +
                (m.im2col ? "cuTensorMapEncodeIm2col" : "cuTensorMapEncodeTiled"),
            tid, at);
  return m;
}

// A copy's start: the signed 32-bit coordinates, and the im2col offsets (W, H, D; zero without
// them).
struct Start {
  int64_t coord[TensorMap::kMaxRank] = {};
  uint16_t offset[3] = {};
};

// What the timing model sees: the box's rows (runs along dimension 0; im2col: pixels) from their
// first element inside the tensor, as pseudo-lanes of a row's bytes each; more than 32 rows are
// seen as 32 runs of consecutive rows.
void record_rows(ExecCtx& c, const TensorMap& m, const Start& start) {
  ExecResult& r = *c.result;
  const uint64_t row_elements = m.row_elements(), rows = m.elements() / row_elements;
  const uint64_t per_slot = (rows + kWarpSize - 1) / kWarpSize;
  r.space = Space::Global;
  r.accessed = 0;
  r.access_bytes = static_cast<uint32_t>(row_elements * m.element_bytes * per_slot);
  for_each_box_element(
      m, start.coord, start.offset, [&](uint64_t offset, uint64_t addr, bool inside) {
        const unsigned slot =
            static_cast<unsigned>(offset / m.element_bytes / row_elements / per_slot);
        if (!inside || (r.accessed >> slot & 1)) return;
        r.accessed |= LaneMask{1} << slot;
        r.addr[slot] = addr;
      });
}

void fill_value(const TensorMap& m, uint8_t* out) {
  std::memset(out, 0, m.element_bytes);
  if (!m.nan_fill || !m.is_float) return;
  const uint64_t nan = m.element_bytes == 2   ? 0x7fffu
                       : m.element_bytes == 4 ? 0x7fffffffu
                                              : 0x7fffffffffffffffull;
  std::memcpy(out, &nan, m.element_bytes);
}

// The copy's start for a lane: the coordinates of `a` ([tensorMap, {...}]) and the im2col offsets
// of operand `offsets` (when the instruction has them); an im2col filter base outside the bounding
// box is a fault.
Start copy_start(ExecCtx& c, const TensorMap& m, const isa::Operand& a, const isa::Operand* offsets,
                 uint32_t tid) {
  Start s;
  for (unsigned d = 0; d < a.vec_n; ++d) s.coord[d] = static_cast<int32_t>(c.reg(a.vec[d], tid));
  if (offsets)
    for (unsigned d = 0; d < offsets->vec_n; ++d)
      s.offset[d] = static_cast<uint16_t>(c.reg(offsets->vec[d], tid));
  if (m.im2col) {
    const std::string why = im2col_start_error(m, s.coord);
    if (!why.empty()) c.fault("cp.async.bulk.tensor: " + why, tid, 0, false);
  }
  return s;
}

// The im2col offsets operand of a load (3) or prefetch (1), or none.
const isa::Operand* offsets_operand(const isa::Instruction& in, unsigned i) {
  return in.async.im2col && !in.async.no_offs ? &in.ops[i] : nullptr;
}

// global -> shared::cluster, completing the mbarrier's transaction.
void tensor_load(ExecCtx& c) {
  const isa::Instruction& in = *c.in;
  GlobalMemory& mem = *c.launch().memory;
  lanes(c, [&](unsigned lane, uint32_t tid) {
    const TensorMap m = tensor_map(c, tid, in.ops[1]);
    const Start start = copy_start(c, m, in.ops[1], offsets_operand(in, 3), tid);
    const uint64_t dst = operand_address(c, tid, in.ops[0]);
    if (dst % 128 != 0)
      c.fault("cp.async.bulk.tensor: shared destination not 128-byte aligned", tid, dst);
    uint8_t fill[8];
    fill_value(m, fill);
    bool any_inside = false;
    for_each_box_element(
        m, start.coord, start.offset, [&](uint64_t offset, uint64_t addr, bool inside) {
          const uint64_t at = m.swizzled(dst + offset);
          uint8_t* p = c.cta->shared_at(at, m.element_bytes);
          if (!p)
            c.fault("cp.async.bulk.tensor: shared destination: " + c.cta->shared_miss(at), tid, at);
          if (!inside) return void(std::memcpy(p, fill, m.element_bytes));
          any_inside = true;
          c.check_global(addr, m.element_bytes, tid, "cp.async.bulk.tensor: tensor element");
          mem.read(addr, p, m.element_bytes);
        });
    // A box wholly outside the tensor reads nothing: its transaction completes at once.
    const bool later = c.cta->defer_tx && any_inside && c.result->tx_mbar < 0;
    mbarrier_complete_tx(c, lane, tid, in.ops[2], static_cast<uint32_t>(m.box_bytes()), !later);
    record_rows(c, m, start);  // the memory system sees the global rows, not the mbarrier object
  });
}

// shared::cta -> global for each lane, the elements inside the tensor only: put(global address,
// shared element) for each, after the checks (`what`: the instruction, for the faults); `prepare`
// sees the lane's map first.
template <class Prepare, class Put>
void box_to_global(ExecCtx& c, const char* what, Prepare&& prepare, Put&& put) {
  const isa::Instruction& in = *c.in;
  const std::string element = std::string(what) + ": tensor element";
  lanes(c, [&](unsigned, uint32_t tid) {
    const TensorMap m = tensor_map(c, tid, in.ops[0]);
    prepare(m, tid);
    const Start start = copy_start(c, m, in.ops[0], nullptr, tid);
    const uint64_t src = operand_address(c, tid, in.ops[1]);
    if (src % 128 != 0)
      c.fault(std::string(what) + ": shared source not 128-byte aligned", tid, src);
    for_each_box_element(
        m, start.coord, start.offset, [&](uint64_t offset, uint64_t addr, bool inside) {
          if (!inside) return;
          const uint64_t at = m.swizzled(src + offset);
          const uint8_t* p = c.cta->shared_at(at, m.element_bytes);
          if (!p)
            c.fault(std::string(what) + ": shared source: " + c.cta->shared_miss(at), tid, at);
          c.check_global(addr, m.element_bytes, tid, element);
          put(addr, p, m.element_bytes);
        });
    record_rows(c, m, start);
  });
}

void tensor_store(ExecCtx& c) {
  GlobalMemory& mem = *c.launch().memory;
  box_to_global(
      c, "cp.async.bulk.tensor", [](const TensorMap&, uint32_t) {},
      [&](uint64_t addr, const uint8_t* p, unsigned bytes) { mem.write(addr, p, bytes); });
}

// The element type of a tensor map's CUtensorMapDataType for a reduction (cuda.h: UINT32 2,
// INT32 3, UINT64 4, INT64 5, FLOAT16 6, FLOAT32 7, FLOAT64 8, BFLOAT16 9, FLOAT32_FTZ 10), or
// None.
isa::DType reduce_type(const TensorMap& m) {
  using isa::DType;
  switch (m.data_type) {
    case 2:
      return DType::U32;
    case 3:
      return DType::S32;
    case 4:
      return DType::U64;
    case 5:
      return DType::S64;
    case 6:
      return DType::F16;
    case 7:
    case 10:
      return DType::F32;
    case 8:
      return DType::F64;
    case 9:
      return DType::BF16;
    default:
      return DType::None;
  }
}

constexpr const char* kRedOps[] = {"",    "add", "min", "max",  "inc", "dec",
                                   "and", "or",  "xor", "exch", "cas"};  // isa::AtomOp

// cp.reduce.async.bulk.tensor: each element inside the tensor combined into it (bulk_reduce.h; the
// element type is the tensor map's, and a redOp it does not allow is a fault here, the map being
// known only when the instruction runs).
void tensor_reduce(ExecCtx& c) {
  const isa::AtomOp op = c.in->atom;
  GlobalMemory& mem = *c.launch().memory;
  ReduceFn reduce = nullptr;
  auto prepare = [&](const TensorMap& m, uint32_t tid) {
    reduce = reduce_fn(reduce_type(m), op);
    if (!reduce)
      c.fault("cp.reduce.async.bulk.tensor: ." + std::string(kRedOps[static_cast<unsigned>(op)]) +
                  " is not defined for the tensor map's data type " + std::to_string(m.data_type) +
                  " (CUtensorMapDataType)",
              tid, 0, false);
  };
  box_to_global(c, "cp.reduce.async.bulk.tensor", prepare,
                [&](uint64_t addr, const uint8_t* p, unsigned bytes) {
                  uint8_t element[8];
                  mem.read(addr, element, bytes);
                  reduce(element, p, bytes, op);
                  mem.write(addr, element, bytes);
                });
}

// prefetch.tensor: a hint; the map and the start are checked.
void tensor_prefetch(ExecCtx& c) {
  lanes(c, [&](unsigned, uint32_t tid) {
    copy_start(c, tensor_map(c, tid, c.in->ops[0]), c.in->ops[0], offsets_operand(*c.in, 1), tid);
  });
}

bool is_address(const isa::Instruction& in, unsigned i) {
  return in.nops > i && in.ops[i].kind == isa::OperandKind::Address;
}
// [tensorMap, {coordinates}]: a register and one coordinate per dimension.
bool is_map(const isa::Instruction& in, unsigned i) {
  return is_address(in, i) && in.ops[i].reg >= 0 && in.ops[i].vec_n == in.async.tensor_dim;
}
// {o0, ...}: the im2col offsets, one register per spatial dimension.
bool is_offsets(const isa::Instruction& in, unsigned i) {
  if (in.nops <= i || in.ops[i].kind != isa::OperandKind::Vector ||
      in.ops[i].vec_n + 2u != in.async.tensor_dim)
    return false;
  for (unsigned d = 0; d < in.ops[i].vec_n; ++d)
    if (in.ops[i].vec[d] < 0) return false;
  return true;
}

}  // namespace

ExecFn bind_tensor_copy(const isa::Instruction& in) {
  const isa::AsyncForm& a = in.async;
  const unsigned hint = in.has(isa::kCacheHint) ? 1 : 0;
  if (a.tensor_dim < 1 || a.tensor_dim > TensorMap::kMaxRank) return nullptr;
  if (a.im2col && (a.tensor_dim < 3 || a.tensor_dim > 5))
    return nullptr;  // N, C and one to three spatial dimensions
  const bool reads = a.op == isa::AsyncOp::BulkPrefetch ||
                     a.complete_tx;  // .im2col with offsets, not .im2col_no_offs
  if (a.im2col && a.no_offs == reads) return nullptr;
  const unsigned offs = a.im2col && !a.no_offs ? 1 : 0;
  if (a.op == isa::AsyncOp::BulkPrefetch)
    return a.bulk_src == Space::Global && is_map(in, 0) && (!offs || is_offsets(in, 1)) &&
                   in.nops == 1 + offs + hint
               ? ExecFn(tensor_prefetch)
               : nullptr;
  if (a.bulk_dst == Space::Shared && a.bulk_src == Space::Global && a.complete_tx && !a.bulk_group)
    return is_address(in, 0) && is_map(in, 1) && is_address(in, 2) &&
                   (!offs || is_offsets(in, 3)) && in.nops == 3 + offs + hint
               ? ExecFn(tensor_load)
               : nullptr;
  const bool to_global = a.bulk_dst == Space::Global && a.bulk_src == Space::Shared &&
                         a.bulk_group && !a.complete_tx && is_map(in, 0) && is_address(in, 1) &&
                         in.nops == 2 + hint;
  if (a.op == isa::AsyncOp::BulkReduce)
    return to_global && in.type == isa::DType::None && !in.has(isa::kNoftz) &&
                   in.atom != isa::AtomOp::Exch && in.atom != isa::AtomOp::Cas &&
                   in.atom != isa::AtomOp::None
               ? ExecFn(tensor_reduce)
               : nullptr;
  if (to_global) return tensor_store;
  return nullptr;
}

}  // namespace gputlm::func::sem
