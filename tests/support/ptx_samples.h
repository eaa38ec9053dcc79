// PTX modules more than one test file parses (without the .version/.target/.address_size lines,
// which each test's parse helper adds).
#pragma once

namespace gputlm::test {

// A kernel `k` that calls a device function `twice`, defined after it (a prototype first).
inline constexpr const char* kKernelCallingTwice = R"(
.func (.param .b32 func_retval0) twice(.param .b32 twice_param_0);
.visible .entry k(.param .u64 out)
{
  .reg .b32 %r<3>;
  mov.u32 %r1, 21;
  { // callseq 0, 0
  .param .b32 param0;
  st.param.b32 [param0+0], %r1;
  .param .b32 retval0;
  call.uni (retval0),
  twice,
  (
  param0
  );
  ld.param.b32 %r2, [retval0+0];
  }
  ret;
}
.func (.param .b32 func_retval0) twice(.param .b32 twice_param_0)
{
  .reg .b32 %r<3>;
  ld.param.u32 %r1, [twice_param_0];
  add.s32 %r2, %r1, %r1;
  st.param.b32 [func_retval0+0], %r2;
  ret;
}
)";

}  // namespace gputlm::test
