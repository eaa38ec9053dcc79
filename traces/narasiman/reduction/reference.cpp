// CPU reference for narasiman/reduction: the number of true values (bytes equal to 1; the input
// holds only 0 and 1) in the boolean vector, as the kernel's single u32 result.
#include "io/workload/reference.h"

GPUTLM_REFERENCE("narasiman/reduction") {
  const auto values = ctx.input<uint8_t>("values");
  uint32_t total = 0;
  for (uint8_t v : values) total += v;
  ctx.expect("sum", std::vector<uint32_t>{total});
}
