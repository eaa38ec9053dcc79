// CPU reference for db/scan_baseline and db/scan_condacc (the dissertation's full table scan):
// the row indices k with column[k] < max_value, in any order (the warps reserve output space with
// atomics), then zeros; and their count.
#include "io/workload/reference.h"

GPUTLM_REFERENCE("db/scan") {
  const auto column = ctx.input<uint32_t>("column");
  const uint32_t rows = static_cast<uint32_t>(ctx.var("rows"));
  const uint64_t max_value = (uint64_t{1} << 32) / static_cast<uint64_t>(ctx.var("sel"));
  if (rows % 1024 != 0)
    throw gputlm::InputError("db/scan: rows must be a multiple of 1024 (the CTA's threads)");
  std::vector<uint32_t> out(column.size(), 0);
  uint32_t n = 0;
  for (uint32_t k = 0; k < rows; ++k)
    if (column[k] < max_value) out[n++] = k;
  ctx.expect("out", out);
  ctx.expect("out_count", std::vector<uint32_t>{n});
}
