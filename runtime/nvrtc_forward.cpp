// libnvrtc.so.13 for programs run under `gputlm cuda`: NVIDIA's NVRTC (the toolkit's own library,
// which runs on the host) does the compiling, and this library, first on the program's library
// path beside libcudart.so.13, forwards every call to it with one change: gputlm runs PTX, so where
// a program asks for machine code of a GPU (`--gpu-architecture=sm_XX`, then nvrtcGetCUBIN, as
// NVIDIA's samples do for the device they find), NVRTC is asked for the PTX of the same
// architecture (compute_XX), and nvrtcGetCUBINSize/nvrtcGetCUBIN hand that PTX out.
// cuModuleLoadData takes it as it takes any PTX. Programs that ask for PTX get exactly NVRTC's
// answer.
//
// The real library is GPUTLM_REAL_NVRTC (the toolkit's, found when gputlm was configured), or the
// file $GPUTLM_NVRTC names. When neither loads, every call answers NVRTC_ERROR_INTERNAL_ERROR and
// nvrtcGetErrorString says why.
#include <dlfcn.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

using Result = int;                    // nvrtcResult
constexpr Result kInternalError = 11;  // NVRTC_ERROR_INTERNAL_ERROR

void* real_library() {
  static void* const handle = [] {
    const char* path = std::getenv("GPUTLM_NVRTC");
    return dlopen(path && *path ? path : GPUTLM_REAL_NVRTC, RTLD_NOW | RTLD_LOCAL);
  }();
  return handle;
}

// The real library's function `name` as type F, or nullptr.
template <typename F>
F real(const char* name) {
  void* lib = real_library();
  return lib ? reinterpret_cast<F>(dlsym(lib, name)) : nullptr;
}

// Calls the real function of the same name with the same arguments.
#define GPUTLM_FORWARD(name, params, args)               \
  Result name params {                                   \
    static const auto f = real<Result(*) params>(#name); \
    return f ? f args : kInternalError;                  \
  }

// "sm_86" -> "compute_86" in an architecture option, in its one- or two-word form.
std::string as_virtual(const std::string& option) {
  const size_t at = option.find("sm_");
  if (at == std::string::npos) return option;
  return option.substr(0, at) + "compute_" + option.substr(at + 3);
}

bool is_arch_option(const std::string& o) {
  return o.rfind("--gpu-architecture", 0) == 0 || o.rfind("-arch", 0) == 0;
}

}  // namespace

extern "C" {

const char* nvrtcGetErrorString(Result r) {
  static const auto f = real<const char* (*)(Result)>("nvrtcGetErrorString");
  if (f) return f(r);
  return "gputlm could not load NVIDIA's NVRTC (set GPUTLM_NVRTC to the toolkit's libnvrtc.so.13)";
}

GPUTLM_FORWARD(nvrtcVersion, (int* major, int* minor), (major, minor))
GPUTLM_FORWARD(nvrtcGetNumSupportedArchs, (int* n), (n))
GPUTLM_FORWARD(nvrtcGetSupportedArchs, (int* archs), (archs))
GPUTLM_FORWARD(nvrtcCreateProgram,
               (void** prog, const char* src, const char* name, int n, const char* const* headers,
                const char* const* names),
               (prog, src, name, n, headers, names))
GPUTLM_FORWARD(nvrtcDestroyProgram, (void** prog), (prog))
GPUTLM_FORWARD(nvrtcGetPTXSize, (void* prog, size_t* size), (prog, size))
GPUTLM_FORWARD(nvrtcGetPTX, (void* prog, char* ptx), (prog, ptx))
GPUTLM_FORWARD(nvrtcGetLTOIRSize, (void* prog, size_t* size), (prog, size))
GPUTLM_FORWARD(nvrtcGetLTOIR, (void* prog, char* ir), (prog, ir))
GPUTLM_FORWARD(nvrtcGetOptiXIRSize, (void* prog, size_t* size), (prog, size))
GPUTLM_FORWARD(nvrtcGetOptiXIR, (void* prog, char* ir), (prog, ir))
GPUTLM_FORWARD(nvrtcGetProgramLogSize, (void* prog, size_t* size), (prog, size))
GPUTLM_FORWARD(nvrtcGetProgramLog, (void* prog, char* log), (prog, log))
GPUTLM_FORWARD(nvrtcAddNameExpression, (void* prog, const char* expr), (prog, expr))
GPUTLM_FORWARD(nvrtcGetLoweredName, (void* prog, const char* expr, const char** lowered),
               (prog, expr, lowered))
GPUTLM_FORWARD(nvrtcGetPCHHeapSize, (size_t * size), (size))
GPUTLM_FORWARD(nvrtcSetPCHHeapSize, (size_t size), (size))
GPUTLM_FORWARD(nvrtcGetPCHCreateStatus, (void* prog), (prog))
GPUTLM_FORWARD(nvrtcGetPCHHeapSizeRequired, (void* prog, size_t* size), (prog, size))
GPUTLM_FORWARD(nvrtcSetFlowCallback, (void* prog, int (*cb)(void*, void*), void* payload),
               (prog, cb, payload))

// Machine code is asked for: PTX of the same architecture is compiled instead.
Result nvrtcCompileProgram(void* prog, int n, const char* const* options) {
  static const auto f = real<Result (*)(void*, int, const char* const*)>("nvrtcCompileProgram");
  if (!f) return kInternalError;
  std::vector<std::string> rewritten;
  for (int i = 0; i < n; ++i) {
    const std::string o = options[i];
    const bool arch_value = i > 0 && (std::strcmp(options[i - 1], "--gpu-architecture") == 0 ||
                                      std::strcmp(options[i - 1], "-arch") == 0);
    rewritten.push_back(is_arch_option(o) || arch_value ? as_virtual(o) : o);
  }
  std::vector<const char*> pointers;
  for (const std::string& o : rewritten) pointers.push_back(o.c_str());
  return f(prog, n, pointers.data());
}

Result nvrtcGetCUBINSize(void* prog, size_t* size) { return nvrtcGetPTXSize(prog, size); }
Result nvrtcGetCUBIN(void* prog, char* cubin) { return nvrtcGetPTX(prog, cubin); }

}  // extern "C"
