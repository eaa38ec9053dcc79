#include <cstdint>

#include "io/workload/reference.h"
#include "models/func/semantics/small_float.h"

// Each 256-element tile: C[r][n] = sum over k of A[r][k] (row-major) x B[k][n] (column-major:
// element k + 16 n). The products of halves are exact in double and so is their sum; the engine
// rounds the sum to float once, as this does.
GPUTLM_REFERENCE("micro/tile_mma_async") {
  auto a = ctx.input<uint16_t>("a");
  auto b = ctx.input<uint16_t>("b");
  auto c = ctx.input<float>("c");
  using gputlm::func::sem::from_f16;
  for (size_t tile = 0; tile + 256 <= c.size(); tile += 256)
    for (unsigned r = 0; r < 16; ++r)
      for (unsigned n = 0; n < 16; ++n) {
        double sum = 0;
        for (unsigned k = 0; k < 16; ++k)
          sum += from_f16(a[tile + r * 16 + k]) * from_f16(b[tile + k + 16 * n]);
        c[tile + r * 16 + n] = static_cast<float>(sum);
      }
  ctx.expect("c", c);
}
