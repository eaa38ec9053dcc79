#include "io/workload/reference.h"

GPUTLM_REFERENCE("micro/vecadd") {
  auto a = ctx.input<float>("a");
  auto b = ctx.input<float>("b");
  std::vector<float> c(a.size());
  for (size_t i = 0; i < a.size(); ++i) c[i] = a[i] + b[i];
  ctx.expect("c", c);
}
