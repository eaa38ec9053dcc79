// The driver API with NVRTC, as programs that compile their kernels at run time use it: NVRTC
// (the toolkit's own, on the host) compiles a kernel to PTX, and the driver API loads it
// (cuModuleLoadData), finds its kernel and a module variable, and launches it twice: with an
// array of parameter pointers and with the parameters packed into one buffer (`extra`). The
// program reads the device through both APIs, which share one simulator. Then the JIT linker, as
// NVIDIA's ptxjit sample uses it: the PTX through cuLinkCreate/AddData/Complete into an image that
// cuModuleLoadData takes, and malformed PTX refused with CUDA_ERROR_INVALID_PTX and an error log.
#include <cuda.h>
#include <nvrtc.h>

#include <cstring>
#include <vector>

#include "cuda_check.h"
#include "driver_check.h"

const char* const kProgram = "driver_api";  // named by CU_CHECK

const char* kSource = R"(
__device__ int scale = 3;
extern "C" __global__ void axpb(int* out, const int* in, int b, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = scale * in[i] + b;
}
)";

int main() {
  int count = 0, major = 0;
  if (cuDeviceGetCount(&count) !=
      CUDA_ERROR_NOT_INITIALIZED) {  // before cuInit (NVRTC calls it while compiling)
    std::printf("driver_api: FAILED (the driver answered before cuInit)\n");
    return 1;
  }
  const std::vector<char> ptx = ptx_of(kProgram, kSource);

  CUdevice device;
  CUcontext context;
  CUmodule module;
  CUfunction kernel;
  CU_CHECK(cuInit(0));
  CU_CHECK(cuDeviceGetCount(&count));
  CU_CHECK(cuDeviceGet(&device, 0));
  CU_CHECK(cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device));
  CU_CHECK(cuCtxCreate(&context, nullptr, 0, device));
  CU_CHECK(cuModuleLoadData(&module, ptx.data()));
  CU_CHECK(cuModuleGetFunction(&kernel, module, "axpb"));
  if (cuModuleGetFunction(&kernel, module, "missing") != CUDA_ERROR_NOT_FOUND) {
    std::printf("driver_api: FAILED (a missing kernel was found)\n");
    return 1;
  }
  CU_CHECK(cuModuleGetFunction(&kernel, module, "axpb"));
  CUdeviceptr scale;
  size_t scale_bytes = 0;
  CU_CHECK(cuModuleGetGlobal(&scale, &scale_bytes, module, "scale"));

  const int n = 1000;
  std::vector<int> in(n), out(n);
  for (int i = 0; i < n; ++i) in[i] = i;
  CUdeviceptr d_in, d_out;
  CU_CHECK(cuMemAlloc(&d_in, n * sizeof(int)));
  CU_CHECK(cuMemAlloc(&d_out, n * sizeof(int)));
  CU_CHECK(cuMemcpyHtoD(d_in, in.data(), n * sizeof(int)));
  int b = 7, size = n;
  void* params[] = {&d_out, &d_in, &b, &size};
  CU_CHECK(cuLaunchKernel(kernel, (n + 127) / 128, 1, 1, 128, 1, 1, 0, nullptr, params, nullptr));
  CU_CHECK(cuCtxSynchronize());
  CU_CHECK(cuMemcpyDtoH(out.data(), d_out, n * sizeof(int)));
  for (int i = 0; i < n; ++i)
    if (out[i] != 3 * i + 7) {
      std::printf("driver_api: FAILED (out[%d] = %d)\n", i, out[i]);
      return 1;
    }

  const int four = 4;  // the module variable, written through the runtime API
  CUDA_CHECK(
      cudaMemcpy(reinterpret_cast<void*>(scale), &four, sizeof four, cudaMemcpyHostToDevice));
  struct {
    CUdeviceptr out, in;
    int b, n;
  } packed = {d_out, d_in, -1, n};
  size_t packed_size = sizeof packed;
  void* extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, &packed, CU_LAUNCH_PARAM_BUFFER_SIZE,
                   &packed_size, CU_LAUNCH_PARAM_END};
  CU_CHECK(cuLaunchKernel(kernel, (n + 127) / 128, 1, 1, 128, 1, 1, 0, nullptr, nullptr, extra));
  CUDA_CHECK(cudaMemcpy(out.data(), reinterpret_cast<void*>(d_out), n * sizeof(int),
                        cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i)
    if (out[i] != 4 * i - 1) {
      std::printf("driver_api: FAILED (packed launch: out[%d] = %d)\n", i, out[i]);
      return 1;
    }

  char info[512] = {}, errors[512] = {};
  CUjit_option options[] = {CU_JIT_WALL_TIME, CU_JIT_INFO_LOG_BUFFER,
                            CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES, CU_JIT_ERROR_LOG_BUFFER,
                            CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void* values[] = {nullptr, info, reinterpret_cast<void*>(uintptr_t{sizeof info}), errors,
                    reinterpret_cast<void*>(uintptr_t{sizeof errors})};
  CUlinkState link;
  CU_CHECK(cuLinkCreate(5, options, values, &link));
  const char bad[] =
      ".version 9.0\n.target sm_75\n.address_size 64\n.visible .entry k() { frobnicate; }\n";
  EXPECT_CU(CUDA_ERROR_INVALID_PTX, cuLinkAddData(link, CU_JIT_INPUT_PTX, const_cast<char*>(bad),
                                                  sizeof bad, "bad.ptx", 0, nullptr, nullptr));
  if (!std::strstr(errors, "bad.ptx")) {
    std::printf("driver_api: FAILED (the error log does not name the input: '%s')\n", errors);
    return 1;
  }
  CU_CHECK(cuLinkAddData(link, CU_JIT_INPUT_PTX, const_cast<char*>(ptx.data()), ptx.size(),
                         "axpb.ptx", 0, nullptr, nullptr));
  void* image = nullptr;
  size_t image_size = 0;
  CU_CHECK(cuLinkComplete(link, &image, &image_size));
  CUmodule linked;
  CUfunction linked_kernel;
  CU_CHECK(cuModuleLoadData(&linked, image));
  CU_CHECK(cuLinkDestroy(link));  // the module keeps what it loaded
  CU_CHECK(cuModuleGetFunction(&linked_kernel, linked, "axpb"));
  b = 11;
  CU_CHECK(
      cuLaunchKernel(linked_kernel, (n + 127) / 128, 1, 1, 128, 1, 1, 0, nullptr, params, nullptr));
  CU_CHECK(cuMemcpyDtoH(out.data(), d_out, n * sizeof(int)));
  for (int i = 0; i < n; ++i)
    if (out[i] != 3 * i + 11) {  // the linked module has its own `scale`, still 3
      std::printf("driver_api: FAILED (linked module: out[%d] = %d)\n", i, out[i]);
      return 1;
    }
  if (!image_size || !std::strstr(info, "linked")) {
    std::printf("driver_api: FAILED (link image of %zu bytes, info log '%s')\n", image_size, info);
    return 1;
  }

  CU_CHECK(cuMemFree(d_in));
  CU_CHECK(cuMemFree(d_out));
  CU_CHECK(cuModuleUnload(module));
  CU_CHECK(cuCtxDestroy(context));
  std::printf("driver_api: PASSED (%d device, compute %d.x, scale %zu bytes)\n", count, major,
              scale_bytes);
  return 0;
}
