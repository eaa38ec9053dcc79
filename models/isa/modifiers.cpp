#include "models/isa/modifiers.h"

#include <array>
#include <utility>

#include "models/isa/video_form.h"

namespace gputlm::isa {
namespace {

template <class E, size_t N>
bool lookup(const std::array<std::pair<std::string_view, E>, N>& table, std::string_view w,
            E& out) {
  for (const auto& [name, value] : table)
    if (name == w) {
      out = value;
      return true;
    }
  return false;
}

constexpr std::array<std::pair<std::string_view, CmpOp>, 18> kCmp = {{
    {"eq", CmpOp::Eq},
    {"ne", CmpOp::Ne},
    {"lt", CmpOp::Lt},
    {"le", CmpOp::Le},
    {"gt", CmpOp::Gt},
    {"ge", CmpOp::Ge},
    {"lo", CmpOp::Lo},
    {"ls", CmpOp::Ls},
    {"hi", CmpOp::Hi},
    {"hs", CmpOp::Hs},
    {"equ", CmpOp::Equ},
    {"neu", CmpOp::Neu},
    {"ltu", CmpOp::Ltu},
    {"leu", CmpOp::Leu},
    {"gtu", CmpOp::Gtu},
    {"geu", CmpOp::Geu},
    {"num", CmpOp::Num},
    {"nan", CmpOp::Nan},
}};
constexpr std::array<std::pair<std::string_view, BoolOp>, 3> kBool = {
    {{"and", BoolOp::And}, {"or", BoolOp::Or}, {"xor", BoolOp::Xor}}};
constexpr std::array<std::pair<std::string_view, Round>, 9> kRound = {{{"rn", Round::Rn},
                                                                       {"rz", Round::Rz},
                                                                       {"rm", Round::Rm},
                                                                       {"rp", Round::Rp},
                                                                       {"rni", Round::Rni},
                                                                       {"rzi", Round::Rzi},
                                                                       {"rmi", Round::Rmi},
                                                                       {"rpi", Round::Rpi},
                                                                       {"rna", Round::Rna}}};
constexpr std::array<std::pair<std::string_view, MulMode>, 3> kMul = {
    {{"lo", MulMode::Lo}, {"hi", MulMode::Hi}, {"wide", MulMode::Wide}}};
// A launch without clusters has one CTA per cluster, so .shared::cluster names the CTA's own
// shared memory (PTX ISA 5.1.5); .param::entry/::func are the kernel's and a function's params.
constexpr std::array<std::pair<std::string_view, Space>, 10> kSpace = {
    {{"global", Space::Global},
     {"shared", Space::Shared},
     {"shared::cta", Space::Shared},
     {"shared::cluster", Space::Shared},
     {"local", Space::Local},
     {"param", Space::Param},
     {"param::entry", Space::Param},
     {"param::func", Space::Param},
     {"const", Space::Const},
     {"generic", Space::Generic}}};
constexpr std::array<std::pair<std::string_view, AtomOp>, 10> kAtom = {{{"add", AtomOp::Add},
                                                                        {"min", AtomOp::Min},
                                                                        {"max", AtomOp::Max},
                                                                        {"inc", AtomOp::Inc},
                                                                        {"dec", AtomOp::Dec},
                                                                        {"and", AtomOp::And},
                                                                        {"or", AtomOp::Or},
                                                                        {"xor", AtomOp::Xor},
                                                                        {"exch", AtomOp::Exch},
                                                                        {"cas", AtomOp::Cas}}};
constexpr std::array<std::pair<std::string_view, VoteMode>, 4> kVote = {
    {{"all", VoteMode::All},
     {"any", VoteMode::Any},
     {"uni", VoteMode::Uni},
     {"ballot", VoteMode::Ballot}}};
constexpr std::array<std::pair<std::string_view, ShflMode>, 4> kShfl = {{{"up", ShflMode::Up},
                                                                         {"down", ShflMode::Down},
                                                                         {"bfly", ShflMode::Bfly},
                                                                         {"idx", ShflMode::Idx}}};
constexpr std::array<std::pair<std::string_view, PrmtMode>, 6> kPrmt = {{{"f4e", PrmtMode::F4e},
                                                                         {"b4e", PrmtMode::B4e},
                                                                         {"rc8", PrmtMode::Rc8},
                                                                         {"ecl", PrmtMode::Ecl},
                                                                         {"ecr", PrmtMode::Ecr},
                                                                         {"rc16", PrmtMode::Rc16}}};
constexpr std::array<std::pair<std::string_view, TestpMode>, 6> kTestp = {
    {{"finite", TestpMode::Finite},
     {"infinite", TestpMode::Infinite},
     {"number", TestpMode::Number},
     {"notanumber", TestpMode::NotANumber},
     {"normal", TestpMode::Normal},
     {"subnormal", TestpMode::Subnormal}}};
constexpr std::array<std::pair<std::string_view, InstrFlag>, 13> kFlags = {
    {{"ftz", kFtz},
     {"sat", kSat},
     {"approx", kApprox},
     {"full", kFull},
     {"nc", kNc},
     {"volatile", kVolatile},
     {"aligned", kAligned},
     {"sync", kSync},
     {"rowhint", kRowHint},
     {"relu", kRelu},
     {"satfinite", kSatFinite},
     {"noftz", kNoftz},
     {"L2::cache_hint", kCacheHint}}};
// Cache operators are recorded (Instruction::cache_op: an L1 may bypass .cg loads, CacheSpec).
constexpr std::array<std::pair<std::string_view, CacheOp>, 7> kCacheOps = {{{"ca", CacheOp::Ca},
                                                                            {"cg", CacheOp::Cg},
                                                                            {"cs", CacheOp::Cs},
                                                                            {"lu", CacheOp::Lu},
                                                                            {"cv", CacheOp::Cv},
                                                                            {"wb", CacheOp::Wb},
                                                                            {"wt", CacheOp::Wt}}};
// Memory-ordering semantics and scopes change timing or coherence only; the functional engine
// is sequentially consistent, so they are accepted and not recorded.
// So are eviction priorities and prefetch sizes (PTX ISA: ld, prefetch).
constexpr std::array<std::string_view, 27> kIgnored = {"relaxed",
                                                       "acquire",
                                                       "release",
                                                       "acq_rel",
                                                       "sc",
                                                       "weak",
                                                       "mmio",
                                                       "cta",
                                                       "gpu",
                                                       "sys",
                                                       "cluster",
                                                       "gl",
                                                       "L1::no_allocate",
                                                       "L1::evict_last",
                                                       "L1::evict_first",
                                                       "L1::evict_normal",
                                                       "L1::evict_unchanged",
                                                       "L2::evict_normal",
                                                       "L2::evict_first",
                                                       "L2::evict_last",
                                                       "L2::evict_unchanged",
                                                       "L2::64B",
                                                       "L2::128B",
                                                       "L2::256B",
                                                       "L1",
                                                       "L2",
                                                       "unified"};
// The eviction priority an L2::evict_* word names (PTX ISA, Data Movement and Conversion
// Instructions: createpolicy).
constexpr std::array<std::pair<std::string_view, EvictPriority>, 4> kEvict = {
    {{"L2::evict_normal", EvictPriority::Normal},
     {"L2::evict_first", EvictPriority::First},
     {"L2::evict_last", EvictPriority::Last},
     {"L2::evict_unchanged", EvictPriority::Unchanged}}};
// fence.proxy.<kind> and fence.op_restrict / mbarrier_init words (PTX ISA: fence).
constexpr std::array<std::string_view, 9> kFenceWords = {"proxy",
                                                         "alias",
                                                         "async",
                                                         "async::global",
                                                         "async::shared::cta",
                                                         "async::shared::cluster",
                                                         "tensormap::generic",
                                                         "op_restrict",
                                                         "mbarrier_init"};

bool packed_16x2(Instruction& in, std::string_view w) {
  if (w != "u16x2" && w != "s16x2") return false;
  in.type = w[0] == 'u' ? DType::U16 : DType::S16;
  return in.flags |= kPacked16x2;
}

// Words of the integer, warp, barrier and cache-policy instructions (PTX ISA 9.7.1, 9.7.13).
bool int_warp_specific(Instruction& in, std::string_view w) {
  switch (in.op) {
    case Opcode::Bmsk:
    case Opcode::Szext:
      if (w == "wrap") return in.flags |= kShfWrap;
      return w == "clamp";
    case Opcode::Dp2a:
      return (w == "lo" || w == "hi") && lookup(kMul, w, in.mul);
    case Opcode::Redux:
      return lookup(kAtom, w, in.atom);
    case Opcode::Match:
      return (w == "any" || w == "all") && lookup(kVote, w, in.vote);
    case Opcode::Add:
    case Opcode::Min:
    case Opcode::Max:
      return packed_16x2(in, w);
    case Opcode::Griddepcontrol:
      if (w == "wait") return in.flags |= kGridDepWait;
      if (w == "launch_dependents") return in.flags |= kGridDepLaunch;
      return false;
    case Opcode::Createpolicy:
      if (w == "fractional") return (in.policy_form = PolicyForm::Fractional), true;
      if (w == "range") return (in.policy_form = PolicyForm::Range), true;
      if (w == "cvt") return (in.policy_form = PolicyForm::Cvt), true;
      if (in.evict_primary == EvictPriority::None) return lookup(kEvict, w, in.evict_primary);
      return lookup(kEvict, w, in.evict_secondary);
    case Opcode::Fence:
      for (auto f : kFenceWords)
        if (f == w) return true;
      return false;
    default:
      return false;
  }
}

// Words of wmma, mma, ldmatrix, stmatrix and movmatrix (PTX ISA 9.7.14, 9.7.9.x ldmatrix): the
// shape .mMnNkK, layouts .row/.col (mma: A's then B's), wmma's .load.a/.b/.c .store.d .mma,
// .x1/.x2/.x4, .trans, b1's .xor/.and .popc, and the fragment types (recorded in order).
constexpr std::array<std::pair<std::string_view, MmaType>, 14> kMmaTypes = {
    {{"f16", MmaType::F16},
     {"bf16", MmaType::BF16},
     {"tf32", MmaType::TF32},
     {"f32", MmaType::F32},
     {"f64", MmaType::F64},
     {"s8", MmaType::S8},
     {"u8", MmaType::U8},
     {"s4", MmaType::S4},
     {"u4", MmaType::U4},
     {"b1", MmaType::B1},
     {"s32", MmaType::S32},
     {"b16", MmaType::B16},
     {"e4m3", MmaType::E4M3},
     {"e5m2", MmaType::E5M2}}};
bool matrix_shape(TensorForm& t, std::string_view w) {
  if (w.size() < 4 || w[0] != 'm') return false;
  unsigned v[3] = {0, 0, 0}, i = 0;
  const char keys[3] = {'m', 'n', 'k'};
  size_t p = 0;
  while (p < w.size() && i < 3 && w[p] == keys[i]) {
    ++p;
    if (p >= w.size() || w[p] < '0' || w[p] > '9') return false;
    while (p < w.size() && w[p] >= '0' && w[p] <= '9')
      v[i] = v[i] * 10 + static_cast<unsigned>(w[p++] - '0');
    ++i;
  }
  if (p != w.size() || i < 2 || v[0] > 255 || v[1] > 255) return false;
  t.m = static_cast<uint8_t>(v[0]), t.n = static_cast<uint8_t>(v[1]),
  t.k = static_cast<uint16_t>(v[2]);
  return true;
}
bool tensor_specific(Instruction& in, std::string_view w) {
  if (in.op != Opcode::Wmma && in.op != Opcode::Mma && in.op != Opcode::Ldmatrix &&
      in.op != Opcode::Stmatrix && in.op != Opcode::Movmatrix)
    return false;
  TensorForm& t = in.tensor;
  MmaType mt;
  if (lookup(kMmaTypes, w, mt)) {
    if (t.ntypes >= t.types.size()) return false;
    t.types[t.ntypes++] =
        mt;  // in.type stays None: a stride literal is an integer whatever the fragment type
    return true;
  }
  if (matrix_shape(t, w)) return true;
  if (w == "row" || w == "col") {
    if (t.nlayouts >= 2) return false;
    (t.nlayouts++ == 0 ? t.a_col : t.b_col) = w == "col";
    return true;
  }
  if (w == "trans") return t.trans = true;
  if (in.op == Opcode::Mma && (w == "sp" || w == "sp::ordered_metadata"))
    return t.sparse == 0 && ((t.sparse = w == "sp" ? 1 : 2), true);
  if (w == "x1" || w == "x2" || w == "x4")
    return (t.count = static_cast<uint8_t>(w[1] - '0')), true;
  if (in.op == Opcode::Wmma) {
    if (w == "load" || w == "store") return true;
    if (w == "a") return (t.part = MatrixPart::A), true;
    if (w == "b") return (t.part = MatrixPart::B), true;
    if (w == "c") return (t.part = MatrixPart::C), true;
    if (w == "d") return (t.part = MatrixPart::D), true;
    if (w == "mma") return (t.part = MatrixPart::Mma), true;
  }
  if (w == "xor" || w == "and") return (in.atom = w == "xor" ? AtomOp::Xor : AtomOp::And), true;
  return w == "popc";
}

bool is_bulk(AsyncOp op) {
  return op == AsyncOp::BulkCopy || op == AsyncOp::BulkCommit || op == AsyncOp::BulkWait ||
         op == AsyncOp::BulkPrefetch;
}

// Words of cp.async.bulk (PTX ISA 9.7.9.25.4, sm_90): the copy's two spaces in the order written
// (destination, then source; .shared::cluster is the CTA's own shared memory in a launch without
// clusters, as everywhere), its completion (.mbarrier::complete_tx::bytes or .bulk_group), and the
// commit_group, wait_group{.read} and prefetch.L2 forms. in.space is the source's space.
bool bulk_specific(Instruction& in, std::string_view w) {
  AsyncForm& a = in.async;
  if (w == "bulk") return (a.op = AsyncOp::BulkCopy), true;
  if (a.op == AsyncOp::BulkReduce && (w == "commit_group" || w == "wait_group" || w == "prefetch"))
    return false;
  if (w == "commit_group") return (a.op = AsyncOp::BulkCommit), true;
  if (w == "wait_group") return (a.op = AsyncOp::BulkWait), true;
  if (w == "read") return a.op == AsyncOp::BulkWait && (a.read = true);
  if (w == "prefetch") return (a.op = AsyncOp::BulkPrefetch), true;
  if (w == "L2") return a.op == AsyncOp::BulkPrefetch;
  if (w == "mbarrier::complete_tx::bytes") return a.complete_tx = true;
  if (w == "bulk_group") return a.bulk_group = true;
  // .tensor.Nd{.tile, .im2col, .im2col_no_offs} (PTX ISA 9.7.9.25.5; the operand [tensorMap,
  // {coordinates}]); the gather/scatter and im2col::w modes (sm_100) are not modelled.
  constexpr uint8_t kDimToCome =
      0xff;  // .tensor seen, .Nd not yet (a copy without it is refused when bound)
  if (w == "tensor")
    return a.tensor_dim == 0 &&
           (a.op == AsyncOp::BulkCopy || a.op == AsyncOp::BulkPrefetch ||
            a.op == AsyncOp::BulkReduce) &&
           ((a.tensor_dim = kDimToCome), true);
  if (a.tensor_dim == kDimToCome && w.size() == 2 && w[1] == 'd' && w[0] >= '1' && w[0] <= '5')
    return (a.tensor_dim = static_cast<uint8_t>(w[0] - '0')), true;
  if (w == "tile") return a.tensor_dim != 0 && !a.im2col;
  if (w == "im2col" || w == "im2col_no_offs")
    return a.tensor_dim != 0 && !a.im2col &&
           ((a.im2col = true), (a.no_offs = w == "im2col_no_offs"), true);
  if (w == "shared::cta" || w == "shared::cluster" || w == "global") {
    const Space s = w == "global" ? Space::Global : Space::Shared;
    if (a.bulk_dst == Space::Generic && a.op != AsyncOp::BulkPrefetch)
      a.bulk_dst = s;
    else if (a.bulk_src == Space::Generic)
      a.bulk_src = s;
    else
      return false;
    in.space = s;
    return true;
  }
  return false;
}

// Words of cp.async (PTX ISA 9.7.9.25) and mbarrier (9.7.13.15). cp.async's state spaces are
// fixed (destination .shared{::cta}, source .global; the mbarrier arrive form: .shared), so its
// space words are taken here rather than letting the last one win.
bool async_specific(Instruction& in, std::string_view w) {
  AsyncForm& a = in.async;
  if (in.op == Opcode::CpReduce) {  // cp.reduce.async.bulk (PTX ISA 9.7.9.25.4.2): the copy's
                                    // words, and the reduction
    if (w == "async") return a.op == AsyncOp::None;
    if (w == "bulk") return a.op == AsyncOp::None && ((a.op = AsyncOp::BulkReduce), true);
    if (a.op == AsyncOp::BulkReduce && lookup(kAtom, w, in.atom))
      return in.atom != AtomOp::Exch && in.atom != AtomOp::Cas;
    return a.op == AsyncOp::BulkReduce && w != "bulk" && bulk_specific(in, w);
  }
  if (in.op == Opcode::CpAsync && (w == "bulk" || is_bulk(a.op))) return bulk_specific(in, w);
  if (in.op == Opcode::CpAsync) {
    if (w == "ca" || w == "cg") {
      a.cg = w == "cg";
      return (a.op = AsyncOp::Copy), (in.space = Space::Global), true;
    }
    if (w == "commit_group") return (a.op = AsyncOp::CommitGroup), true;
    if (w == "wait_group") return (a.op = AsyncOp::WaitGroup), true;
    if (w == "wait_all") return (a.op = AsyncOp::WaitAll), true;
    if (w == "mbarrier") return (a.op = AsyncOp::CopyArrive), (in.space = Space::Shared), true;
    if (w == "arrive") return a.op == AsyncOp::CopyArrive;
    if (w == "noinc") return a.op == AsyncOp::CopyArrive && (a.noinc = true);
    return w == "shared" || w == "shared::cta" || w == "global";
  }
  if (in.op != Opcode::Mbarrier) return false;
  if (w == "init") return (a.op = AsyncOp::Init), true;
  if (w == "inval") return (a.op = AsyncOp::Inval), true;
  if (w == "arrive") return (a.op = AsyncOp::Arrive), true;
  if (w == "arrive_drop") return (a.op = AsyncOp::ArriveDrop), true;
  if (w == "test_wait") return (a.op = AsyncOp::TestWait), true;
  if (w == "try_wait") return (a.op = AsyncOp::TryWait), true;
  if (w == "complete_tx") return (a.op = AsyncOp::CompleteTx), true;
  if (w == "pending_count") return (a.op = AsyncOp::PendingCount), true;
  if (w == "expect_tx") {  // mbarrier.expect_tx, or .arrive{_drop}.expect_tx
    if (a.op == AsyncOp::Arrive || a.op == AsyncOp::ArriveDrop) return a.expect_tx = true;
    return a.op == AsyncOp::None && ((a.op = AsyncOp::ExpectTx), true);
  }
  if (w == "parity") return a.parity = true;
  if (w == "noComplete") return a.no_complete = true;
  return false;
}

// Words of tex, tld4, txq, suld and sust (PTX ISA 9.7.10, 9.7.11). Types (.v4.f32.s32: result,
// then coordinates) and .v2/.v4 are the common words.
constexpr std::array<std::pair<std::string_view, TexGeom>, 9> kTexGeoms = {
    {{"1d", TexGeom::D1},
     {"2d", TexGeom::D2},
     {"3d", TexGeom::D3},
     {"a1d", TexGeom::A1D},
     {"a2d", TexGeom::A2D},
     {"cube", TexGeom::Cube},
     {"acube", TexGeom::ACube},
     {"2dms", TexGeom::D2MS},
     {"a2dms", TexGeom::A2DMS}}};
constexpr std::array<std::pair<std::string_view, int8_t>, 13> kTxqQueries = {
    {{"width", 0},
     {"height", 1},
     {"depth", 2},
     {"channel_data_type", 3},
     {"channel_order", 4},
     {"normalized_coords", 5},
     {"filter_mode", 6},
     {"addr_mode_0", 7},
     {"addr_mode_1", 8},
     {"addr_mode_2", 9},
     {"num_mipmap_levels", 10},
     {"num_samples", 11},
     {"array_size", 12}}};
// suq (PTX ISA 9.7.11.4): txq's width, height, depth, channel_data_type, channel_order and
// array_size, and memory_layout.
constexpr std::array<std::pair<std::string_view, int8_t>, 7> kSuqQueries = {
    {{"width", 0},
     {"height", 1},
     {"depth", 2},
     {"channel_data_type", 3},
     {"channel_order", 4},
     {"array_size", 12},
     {"memory_layout", 13}}};
constexpr std::array<std::pair<std::string_view, int8_t>, 3> kRefs = {
    {{"texref", 0}, {"samplerref", 1}, {"surfref", 2}}};
constexpr std::array<std::pair<std::string_view, int8_t>, 4> kTld4Comps = {
    {{"r", 0}, {"g", 1}, {"b", 2}, {"a", 3}}};
bool texture_specific(Instruction& in, std::string_view w) {
  TexForm& t = in.tex;
  switch (in.op) {
    case Opcode::Tex:
      if (w == "base") return (t.mip = TexMip::Base), true;
      if (w == "level") return (t.mip = TexMip::Level), true;
      if (w == "grad") return (t.mip = TexMip::Grad), true;
      return lookup(kTexGeoms, w, t.geom);
    case Opcode::Tld4:
      return lookup(kTld4Comps, w, t.comp) || lookup(kTexGeoms, w, t.geom);
    case Opcode::Txq:
      return lookup(kTxqQueries, w, t.query);
    case Opcode::Suq:
      return lookup(kSuqQueries, w, t.query);
    case Opcode::Istypep:
      return lookup(kRefs, w, t.ref);
    case Opcode::Sured:  // sured.{b,p}.op.geom.ctype.clamp (PTX ISA 9.7.11.3): the op in
                         // Instruction::atom
      if (w == "add" || w == "min" || w == "max" || w == "and" || w == "or")
        return in.atom == AtomOp::None && lookup(kAtom, w, in.atom);
      [[fallthrough]];
    case Opcode::Suld:
    case Opcode::Sust:
      if (w == "b") return t.bulk = true;
      if (w == "p") return t.formatted = true;
      if (w == "trap") return (t.clamp = SurfClamp::Trap), true;
      if (w == "clamp") return (t.clamp = SurfClamp::Clamp), true;
      if (w == "zero") return (t.clamp = SurfClamp::Zero), true;
      return lookup(kTexGeoms, w, t.geom);
    default:
      return false;
  }
}

// st.async / red.async (PTX ISA 9.7.9.12, 9.7.13.6; sm_90): a store or reduction into a cluster
// peer's shared memory that completes a transaction on the peer's mbarrier. The completion word
// marks them (AsyncForm::complete_tx); .async alone is accepted.
bool async_store_word(Instruction& in, std::string_view w) {
  if (w == "async") return true;
  return w == "mbarrier::complete_tx::bytes" && (in.async.complete_tx = true);
}

bool opcode_specific(Instruction& in, std::string_view w) {
  switch (in.op) {
    case Opcode::Setp:
    case Opcode::Set:
      return lookup(kCmp, w, in.cmp) || lookup(kBool, w, in.boolop);
    case Opcode::Vset:  // vset{,2,4}.atype.btype.cmp (PTX ISA 9.7.18): eq ne lt le gt ge
    case Opcode::Vset2:
    case Opcode::Vset4:
      return in.cmp == CmpOp::None && lookup(kCmp, w, in.cmp) && in.cmp <= CmpOp::Ge;
    case Opcode::Mul:
    case Opcode::Mad:
    case Opcode::Mul24:
    case Opcode::Mad24:
    case Opcode::Madc:
      return lookup(kMul, w, in.mul) || (w == "cc" && (in.flags |= kCc));
    case Opcode::Add:
    case Opcode::Sub:
    case Opcode::Addc:
    case Opcode::Subc:
      return w == "cc" && (in.flags |= kCc);
    case Opcode::Atom:
    case Opcode::Red:
      if (in.op == Opcode::Red && (w == "async" || w == "mbarrier::complete_tx::bytes"))
        return async_store_word(in, w);
      return lookup(kAtom, w, in.atom);
    case Opcode::St:
      return async_store_word(in, w);
    case Opcode::Prefetch:  // prefetch{.const,.param}.tensormap [a] (PTX ISA 9.7.9.15, sm_90): a
                            // hint, as prefetch is
      return w == "tensormap";
    case Opcode::Min:  // min/max{.NaN}{.xorsign.abs}: PTX ISA 9.7.4.10/11 (half), 9.7.3 (f32)
    case Opcode::Max:
      if (w == "NaN") return in.flags |= kNaN;
      if (w == "xorsign" || w == "abs") return in.flags |= kXorsignAbs;
      return false;
    case Opcode::Vote:
      return lookup(kVote, w, in.vote);
    case Opcode::Shfl:
      return lookup(kShfl, w, in.shfl);
    case Opcode::Prmt:
      return lookup(kPrmt, w, in.prmt);
    case Opcode::Testp:
      return lookup(kTestp, w, in.testp);
    case Opcode::Bfind:
      return w == "shiftamt" && (in.flags |= kShiftAmt);
    case Opcode::Pmevent:
      return w == "mask";
    // tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.scope.sync.aligned
    // (PTX ISA 9.7.9.28, sm_90): one fixed form; .replace is sm_90a's (refused by the parser).
    case Opcode::Tensormap:
      return w == "cp_fenceproxy" || w == "global" || w == "shared::cta" ||
             w == "tensormap::generic" || w == "release" || w == "cta" || w == "cluster" ||
             w == "gpu" || w == "sys" || w == "sync" ||
             w == "aligned";  // pmevent.mask a: a 16-bit mask of events, else one event's number
    case Opcode::Bra:
    case Opcode::BrxIdx:
    case Opcode::Call:
    case Opcode::Ret:
      return w == "uni" && (in.flags |= kUni);
    case Opcode::Cvta:
      return w == "to" && (in.flags |= kTo);
    case Opcode::Cvt:  // cvt.pack.sat.{u16,s16}.s32, cvt.pack.sat.{u2,s2,u4,s4,u8,s8}.s32.b32 (PTX
                       // ISA 9.7.9.22)
      if (w == "pack") return in.type == DType::None && (in.flags |= kPack);
      if (!in.has(kPack)) return false;
      if (in.type == DType::None && w.size() == 2 && (w[0] == 'u' || w[0] == 's') &&
          (w[1] == '2' || w[1] == '4')) {
        in.type = w[0] == 'u' ? DType::U8 : DType::S8;
        return (in.pack_bits = static_cast<uint8_t>(w[1] - '0')), true;
      }
      if (in.type == DType::None && (w == "u8" || w == "s8" || w == "u16" || w == "s16")) {
        in.type = parse_dtype(w);
        return (in.pack_bits = static_cast<uint8_t>(dtype_bits(in.type))), true;
      }
      return w == "b32" && in.type2 != DType::None;  // cType: c's bits above the packed pair
    case Opcode::Shf:
      if (w == "l") return in.flags |= kShfLeft;
      if (w == "r") return true;
      if (w == "wrap") return in.flags |= kShfWrap;
      return w == "clamp";
    case Opcode::Bar:
    case Opcode::Barrier:
      if (w == "arrive") return in.flags |= kArrive;
      if (w == "warp") return in.flags |= kWarpSync;
      if (w == "red")
        return in.flags |= kRed;  // bar.red.{popc,and,or}: popc is recorded as AtomOp::Add
      if (w == "popc") return (in.atom = AtomOp::Add), true;
      if (w == "and" || w == "or") return lookup(kAtom, w, in.atom);
      if (w == "cluster") return in.flags |= kCluster;  // barrier.cluster.arrive / .wait (sm_90)
      if (w == "wait") return in.flags |= kClusterWait;
      return w == "cta";
    default:
      return false;
  }
}

}  // namespace

bool apply_modifier(Instruction& in, std::string_view w) {
  if (video_modifier(in, w) || opcode_specific(in, w) || int_warp_specific(in, w) ||
      tensor_specific(in, w) || async_specific(in, w) || texture_specific(in, w))
    return true;
  if (DType t = parse_dtype(w); t != DType::None) {
    if (in.type == DType::None)
      in.type = t;
    else if (in.type2 == DType::None)
      in.type2 = t;
    else
      return false;
    return true;
  }
  if (w == "v2" || w == "v4") {
    in.vec = static_cast<uint8_t>(w[1] - '0');
    return true;
  }
  if (lookup(kRound, w, in.rnd) || lookup(kSpace, w, in.space)) return true;
  InstrFlag f;
  if (lookup(kFlags, w, f)) {
    in.flags |= f;
    return true;
  }
  if (lookup(kCacheOps, w, in.cache_op)) return true;
  for (auto ignored : kIgnored)
    if (ignored == w) return true;
  return false;
}

bool parse_mma_type(std::string_view name, MmaType& type) { return lookup(kMmaTypes, name, type); }

MmaType mma_input_type(const TensorForm& t) {
  if (t.ntypes >= 4) return t.types[1];
  return t.ntypes == 2 ? MmaType::F16 : t.types[1];
}

}  // namespace gputlm::isa
