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
constexpr std::array<TypeInfo, 17> kTypes = {{
    {DType::None, "", 0, false, false},     {DType::B8, "b8", 8, false, false},
    {DType::B16, "b16", 16, false, false},  {DType::B32, "b32", 32, false, false},
    {DType::B64, "b64", 64, false, false},  {DType::U8, "u8", 8, false, false},
    {DType::U16, "u16", 16, false, false},  {DType::U32, "u32", 32, false, false},
    {DType::U64, "u64", 64, false, false},  {DType::S8, "s8", 8, true, false},
    {DType::S16, "s16", 16, true, false},   {DType::S32, "s32", 32, true, false},
    {DType::S64, "s64", 64, true, false},   {DType::F16, "f16", 16, false, true},
    {DType::F32, "f32", 32, false, true},   {DType::F64, "f64", 64, false, true},
    {DType::Pred, "pred", 1, false, false},
}};
const TypeInfo& info(DType t) { return kTypes[static_cast<size_t>(t)]; }
}  // namespace

unsigned dtype_bits(DType t) { return info(t).bits; }
bool dtype_is_signed(DType t) { return info(t).is_signed; }
bool dtype_is_float(DType t) { return info(t).is_float; }
std::string_view dtype_name(DType t) { return info(t).name; }

DType parse_dtype(std::string_view s) {
  for (const auto& t : kTypes)
    if (t.type != DType::None && t.name == s) return t.type;
  return DType::None;
}

std::string_view space_name(Space s) {
  switch (s) {
    case Space::Generic: return "generic";
    case Space::Global: return "global";
    case Space::Shared: return "shared";
    case Space::Local: return "local";
    case Space::Param: return "param";
    case Space::Const: return "const";
  }
  return "?";
}

}  // namespace gputlm::isa
