#include "models/isa/types.h"

#include <array>

namespace gputlm::isa {
namespace {
struct TypeInfo {
  DType type;
  std::string_view name;
  unsigned bits;
  bool is_signed;
  bool is_float;
};
// Indexed by DType value.
constexpr std::array<TypeInfo, 25> kTypes = {{
    {DType::None, "", 0, false, false},         {DType::B8, "b8", 8, false, false},
    {DType::B16, "b16", 16, false, false},      {DType::B32, "b32", 32, false, false},
    {DType::B64, "b64", 64, false, false},      {DType::U8, "u8", 8, false, false},
    {DType::U16, "u16", 16, false, false},      {DType::U32, "u32", 32, false, false},
    {DType::U64, "u64", 64, false, false},      {DType::S8, "s8", 8, true, false},
    {DType::S16, "s16", 16, true, false},       {DType::S32, "s32", 32, true, false},
    {DType::S64, "s64", 64, true, false},       {DType::F16, "f16", 16, false, true},
    {DType::F32, "f32", 32, false, true},       {DType::F64, "f64", 64, false, true},
    {DType::Pred, "pred", 1, false, false},     {DType::F16x2, "f16x2", 32, false, true},
    {DType::BF16, "bf16", 16, false, true},     {DType::BF16x2, "bf16x2", 32, false, true},
    {DType::TF32, "tf32", 32, false, true},     {DType::E4M3, "e4m3", 8, false, true},
    {DType::E5M2, "e5m2", 8, false, true},      {DType::E4M3x2, "e4m3x2", 16, false, true},
    {DType::E5M2x2, "e5m2x2", 16, false, true},
}};
constexpr bool in_enum_order() {
  for (size_t i = 0; i < kTypes.size(); ++i)
    if (static_cast<size_t>(kTypes[i].type) != i) return false;
  return kTypes.back().type == DType::E5M2x2;
}
static_assert(in_enum_order(), "kTypes must list every DType in enum order");
const TypeInfo& info(DType t) { return kTypes[static_cast<size_t>(t)]; }
}  // namespace

unsigned dtype_bits(DType t) { return info(t).bits; }
bool dtype_is_signed(DType t) { return info(t).is_signed; }
bool dtype_is_float(DType t) { return info(t).is_float; }
bool dtype_is_packed(DType t) {
  return t == DType::F16x2 || t == DType::BF16x2 || t == DType::E4M3x2 || t == DType::E5M2x2;
}
std::string_view dtype_name(DType t) { return info(t).name; }

DType parse_dtype(std::string_view s) {
  for (const auto& t : kTypes)
    if (t.type != DType::None && t.name == s) return t.type;
  return DType::None;
}

std::string_view space_name(Space s) {
  switch (s) {
    case Space::Generic:
      return "generic";
    case Space::Global:
      return "global";
    case Space::Shared:
      return "shared";
    case Space::Local:
      return "local";
    case Space::Param:
      return "param";
    case Space::Const:
      return "const";
  }
  return "?";
}

}  // namespace gputlm::isa
