#include <cstdint>

#include "io/workload/reference.h"

// CTA b sums the elements i with (i / 256) % ctas == b (its grid-stride slice); u32 wraps.
GPUTLM_REFERENCE("micro/shared_reduction") {
  constexpr size_t kBlock = 256;  // the kernel's BLOCK
  auto in = ctx.input<uint32_t>("in");
  const size_t ctas = ctx.count("out");
  std::vector<uint32_t> out(ctas, 0);
  for (size_t i = 0; i < in.size(); ++i) out[(i / kBlock) % ctas] += in[i];
  ctx.expect("out", out);
}
