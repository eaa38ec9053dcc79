// The video instructions' words and operand selectors (PTX ISA 9.7.18 "Video Instructions"):
// scalar vadd vsub vabsdiff vmin vmax vshl vshr vmad vset, SIMD vadd2 ... vset2 (two half-words)
// and vadd4 ... vset4 (four bytes).
//
// A selector follows a register: ".b0".."b3", ".h0", ".h1" on scalar operands (the byte or
// half-word taken, or written into by the destination's data merge); ".hxy" (x, y in 0..3) and
// ".bxyzw" (0..7) on SIMD sources (element i taken from the half-word or byte named by the i-th
// digit from the right, of the pair {b, a}); ".h0", ".h1", ".h10", ".b0" ... ".b3210" as a SIMD
// destination's mask (the elements written). Operand::vsel holds it: bits 3i..3i+2 the digit of
// element i (the rightmost digit is element 0), bits 12-14 how many digits, bit 15 set for 'h';
// 0 when there is none.
#pragma once

#include <cstdint>
#include <string_view>

#include "models/isa/instruction.h"

namespace gputlm::isa {

bool is_video(Opcode op);
// vadd2 ... vset2 (2) and vadd4 ... vset4 (4); 1 for the scalar ones.
unsigned video_lanes(Opcode op);
// A word of a video instruction's opcode (its types, .sat, the secondary operation, ...).
bool video_modifier(Instruction& in, std::string_view w);
// Parses a selector suffix without its dot ("b0", "h10", "b7654") into Operand::vsel's encoding;
// false if it is not one.
bool parse_video_selector(std::string_view s, uint16_t& out);

constexpr unsigned vsel_count(uint16_t v) { return (v >> 12) & 7u; }
constexpr bool vsel_half(uint16_t v) { return (v & 0x8000u) != 0; }
constexpr unsigned vsel_digit(uint16_t v, unsigned i) { return (v >> (3 * i)) & 7u; }

}  // namespace gputlm::isa
