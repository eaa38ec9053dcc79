#include "models/func/tensor_box.h"

namespace gputlm::func {

std::string im2col_start_error(const TensorMap& m, const int64_t* start) {
  static constexpr const char* kNames[] = {"W", "H", "D"};
  for (unsigned s = 0; s + 2 < m.rank; ++s) {
    const int64_t lo = m.lower[s], hi = static_cast<int64_t>(m.dim(1 + s)) - 1 + m.upper[s],
                  at = start[1 + s];
    if (at < lo || at > hi)
      return std::string("the filter base's ") + kNames[s] + " coordinate " + std::to_string(at) +
             " is outside the bounding box [" + std::to_string(lo) + ", " + std::to_string(hi) +
             "] (PTX ISA 5.5.4.1)";
  }
  return "";
}

}  // namespace gputlm::func
