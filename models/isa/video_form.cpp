#include "models/isa/video_form.h"

#include "models/isa/types.h"

namespace gputlm::isa {

bool is_video(Opcode op) { return op >= Opcode::Vadd && op <= Opcode::Vset4; }

unsigned video_lanes(Opcode op) {
  if (op >= Opcode::Vadd2 && op <= Opcode::Vset2) return 2;
  if (op >= Opcode::Vadd4 && op <= Opcode::Vset4) return 4;
  return 1;
}

bool video_modifier(Instruction& in, std::string_view w) {
  if (!is_video(in.op)) return false;
  VideoForm& v = in.video;
  if (w == "add" || w == "min" || w == "max") {
    if (in.atom != AtomOp::None || in.op == Opcode::Vmad) return false;
    in.atom = w == "add" ? AtomOp::Add : w == "min" ? AtomOp::Min : AtomOp::Max;
    return video_lanes(in.op) == 1 || in.atom == AtomOp::Add;  // SIMD: .add only
  }
  if ((in.op == Opcode::Vshl || in.op == Opcode::Vshr) && (w == "clamp" || w == "wrap")) {
    if (v.wrap || v.clamp) return false;
    (w == "wrap" ? v.wrap : v.clamp) = true;
    return true;
  }
  if (in.op == Opcode::Vmad && (w == "shr7" || w == "shr15"))
    return v.scale == 0 && ((v.scale = w == "shr7" ? 7 : 15), true);
  if (in.op == Opcode::Vmad && w == "po") return !v.po && (v.po = true);
  // The types as written: dtype.atype.btype (vset, vset2, vset4: atype.btype), each .u32 or .s32.
  const DType t = parse_dtype(w);
  if (t != DType::U32 && t != DType::S32) return false;
  const bool is_set = in.op == Opcode::Vset || in.op == Opcode::Vset2 || in.op == Opcode::Vset4;
  if (is_set && in.type == DType::None)
    in.type = DType::U32;  // the comparison's result is unsigned
  if (in.type == DType::None) return (in.type = t), true;
  if (in.type2 == DType::None) return (in.type2 = t), true;
  if (v.btype == DType::None) return (v.btype = t), true;
  return false;
}

bool parse_video_selector(std::string_view s, uint16_t& out) {
  if (s.size() < 2 || s.size() > 5 || (s[0] != 'b' && s[0] != 'h')) return false;
  const unsigned n = static_cast<unsigned>(s.size() - 1);
  uint16_t v = static_cast<uint16_t>((n << 12) | (s[0] == 'h' ? 0x8000u : 0u));
  for (unsigned i = 0; i < n; ++i) {
    const char c = s[s.size() - 1 - i];  // the rightmost digit is element 0
    if (c < '0' || c > '7') return false;
    v = static_cast<uint16_t>(v | (c - '0') << (3 * i));
  }
  out = v;
  return true;
}

}  // namespace gputlm::isa
