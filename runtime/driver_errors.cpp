#include "runtime/driver_abi.h"

namespace gputlm::runtime {
namespace {

struct DriverError {
  int code;
  const char* name;
  const char* text;
};
// The CUresult codes this stand-in returns, with cuda.h's names and texts.
constexpr DriverError kErrors[] = {
    {0, "CUDA_SUCCESS", "no error"},
    {1, "CUDA_ERROR_INVALID_VALUE", "invalid argument"},
    {2, "CUDA_ERROR_OUT_OF_MEMORY", "out of memory"},
    {3, "CUDA_ERROR_NOT_INITIALIZED", "initialization error"},
    {9, "CUDA_ERROR_INVALID_CONFIGURATION",
     "invalid configuration argument"},  // not in cuda.h: the runtime's code passes through
    {101, "CUDA_ERROR_INVALID_DEVICE", "invalid device ordinal"},
    {200, "CUDA_ERROR_INVALID_IMAGE", "device kernel image is invalid"},
    {201, "CUDA_ERROR_INVALID_CONTEXT", "invalid device context"},
    {400, "CUDA_ERROR_INVALID_HANDLE", "invalid resource handle"},
    {500, "CUDA_ERROR_NOT_FOUND", "named symbol not found"},
    {600, "CUDA_ERROR_NOT_READY", "device not ready"},
    {701, "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES", "too many resources requested for launch"},
    {710, "CUDA_ERROR_ASSERT", "device-side assert triggered"},
    {719, "CUDA_ERROR_LAUNCH_FAILED", "unspecified launch failure"},
};

const DriverError* find(int code) {
  for (const DriverError& e : kErrors)
    if (e.code == code) return &e;
  return nullptr;
}

}  // namespace

const char* driver_error_name(int code) {
  const DriverError* e = find(code);
  return e ? e->name : nullptr;
}

const char* driver_error_string(int code) {
  const DriverError* e = find(code);
  return e ? e->text : nullptr;
}

}  // namespace gputlm::runtime
