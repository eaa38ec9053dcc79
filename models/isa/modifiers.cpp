#include "models/isa/modifiers.h"

#include <array>
#include <utility>

namespace gputlm::isa {
namespace {

template <class E, size_t N>
bool lookup(const std::array<std::pair<std::string_view, E>, N>& table, std::string_view w, E& out) {
  for (const auto& [name, value] : table)
    if (name == w) {
      out = value;
      return true;
    }
  return false;
}

constexpr std::array<std::pair<std::string_view, CmpOp>, 18> kCmp = {{
    {"eq", CmpOp::Eq},   {"ne", CmpOp::Ne},   {"lt", CmpOp::Lt},   {"le", CmpOp::Le},
    {"gt", CmpOp::Gt},   {"ge", CmpOp::Ge},   {"lo", CmpOp::Lo},   {"ls", CmpOp::Ls},
    {"hi", CmpOp::Hi},   {"hs", CmpOp::Hs},   {"equ", CmpOp::Equ}, {"neu", CmpOp::Neu},
    {"ltu", CmpOp::Ltu}, {"leu", CmpOp::Leu}, {"gtu", CmpOp::Gtu}, {"geu", CmpOp::Geu},
    {"num", CmpOp::Num}, {"nan", CmpOp::Nan},
}};
constexpr std::array<std::pair<std::string_view, BoolOp>, 3> kBool = {{
    {"and", BoolOp::And}, {"or", BoolOp::Or}, {"xor", BoolOp::Xor}}};
constexpr std::array<std::pair<std::string_view, Round>, 8> kRound = {{
    {"rn", Round::Rn}, {"rz", Round::Rz}, {"rm", Round::Rm}, {"rp", Round::Rp},
    {"rni", Round::Rni}, {"rzi", Round::Rzi}, {"rmi", Round::Rmi}, {"rpi", Round::Rpi}}};
constexpr std::array<std::pair<std::string_view, MulMode>, 3> kMul = {{
    {"lo", MulMode::Lo}, {"hi", MulMode::Hi}, {"wide", MulMode::Wide}}};
constexpr std::array<std::pair<std::string_view, Space>, 7> kSpace = {{
    {"global", Space::Global}, {"shared", Space::Shared}, {"shared::cta", Space::Shared},
    {"local", Space::Local}, {"param", Space::Param}, {"const", Space::Const},
    {"generic", Space::Generic}}};
constexpr std::array<std::pair<std::string_view, AtomOp>, 10> kAtom = {{
    {"add", AtomOp::Add}, {"min", AtomOp::Min}, {"max", AtomOp::Max}, {"inc", AtomOp::Inc},
    {"dec", AtomOp::Dec}, {"and", AtomOp::And}, {"or", AtomOp::Or}, {"xor", AtomOp::Xor},
    {"exch", AtomOp::Exch}, {"cas", AtomOp::Cas}}};
constexpr std::array<std::pair<std::string_view, VoteMode>, 4> kVote = {{
    {"all", VoteMode::All}, {"any", VoteMode::Any}, {"uni", VoteMode::Uni}, {"ballot", VoteMode::Ballot}}};
constexpr std::array<std::pair<std::string_view, ShflMode>, 4> kShfl = {{
    {"up", ShflMode::Up}, {"down", ShflMode::Down}, {"bfly", ShflMode::Bfly}, {"idx", ShflMode::Idx}}};
constexpr std::array<std::pair<std::string_view, PrmtMode>, 6> kPrmt = {{
    {"f4e", PrmtMode::F4e}, {"b4e", PrmtMode::B4e}, {"rc8", PrmtMode::Rc8},
    {"ecl", PrmtMode::Ecl}, {"ecr", PrmtMode::Ecr}, {"rc16", PrmtMode::Rc16}}};
constexpr std::array<std::pair<std::string_view, TestpMode>, 6> kTestp = {{
    {"finite", TestpMode::Finite}, {"infinite", TestpMode::Infinite}, {"number", TestpMode::Number},
    {"notanumber", TestpMode::NotANumber}, {"normal", TestpMode::Normal},
    {"subnormal", TestpMode::Subnormal}}};
constexpr std::array<std::pair<std::string_view, InstrFlag>, 9> kFlags = {{
    {"ftz", kFtz}, {"sat", kSat}, {"approx", kApprox}, {"full", kFull}, {"nc", kNc},
    {"volatile", kVolatile}, {"aligned", kAligned}, {"sync", kSync}, {"rowhint", kRowHint}}};
// Cache operators, memory-ordering semantics and scopes change timing or coherence only; the
// functional engine is sequentially consistent, so they are accepted and not recorded.
constexpr std::array<std::string_view, 24> kIgnored = {
    "ca", "cg", "cs", "lu", "cv", "wb", "wt", "relaxed", "acquire", "release", "acq_rel", "sc",
    "weak", "mmio", "cta", "gpu", "sys", "cluster", "gl", "L1::no_allocate", "L1::evict_last",
    "L1::evict_first", "L2::128B", "L2::256B"};

bool opcode_specific(Instruction& in, std::string_view w) {
  switch (in.op) {
    case Opcode::Setp:
    case Opcode::Set:
      return lookup(kCmp, w, in.cmp) || lookup(kBool, w, in.boolop);
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
      return lookup(kAtom, w, in.atom);
    case Opcode::Vote: return lookup(kVote, w, in.vote);
    case Opcode::Shfl: return lookup(kShfl, w, in.shfl);
    case Opcode::Prmt: return lookup(kPrmt, w, in.prmt);
    case Opcode::Testp: return lookup(kTestp, w, in.testp);
    case Opcode::Bfind: return w == "shiftamt" && (in.flags |= kShiftAmt);
    case Opcode::Bra:
    case Opcode::Call:
    case Opcode::Ret:
      return w == "uni" && (in.flags |= kUni);
    case Opcode::Cvta: return w == "to" && (in.flags |= kTo);
    case Opcode::Shf:
      if (w == "l") return in.flags |= kShfLeft;
      if (w == "r") return true;
      if (w == "wrap") return in.flags |= kShfWrap;
      return w == "clamp";
    case Opcode::Bar:
    case Opcode::Barrier:
      if (w == "arrive") return in.flags |= kArrive;
      if (w == "warp") return in.flags |= kWarpSync;
      return w == "cta";
    default:
      return false;
  }
}

}  // namespace

bool apply_modifier(Instruction& in, std::string_view w) {
  if (opcode_specific(in, w)) return true;
  if (DType t = parse_dtype(w); t != DType::None) {
    if (in.type == DType::None) in.type = t;
    else if (in.type2 == DType::None) in.type2 = t;
    else return false;
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
  for (auto ignored : kIgnored)
    if (ignored == w) return true;
  return false;
}

}  // namespace gputlm::isa
