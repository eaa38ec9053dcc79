// CUDA arrays, copies and texture/surface objects through the driver API, as
// 0_Introduction/simpleTextureDrv uses them: kernels compiled by NVRTC and loaded with
// cuModuleLoadData sample arrays filled by cuMemcpy2D, cuMemcpyHtoA and cuMemcpy3D through
// cuTexObjectCreate objects (point and linear filtering, clamping, 8-bit texels promoted to
// normalised floats as the driver does without CU_TRSF_READ_AS_INTEGER), write one through a
// surface object, and the host reads them back with cuMemcpy2D, cuMemcpy3D, cuMemcpyAtoH and
// cuMemcpyAtoD/DtoA. Every value is checked against the host's, and misuses against the
// CUresult cuda.h documents.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

static const char* kProgram = "driver_arrays";
#include "driver_check.h"

const char* kSource = R"(
extern "C" __global__ void sample(float* out, cudaTextureObject_t tex, int w, int h, float dx) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  if (x < w && y < h) out[y * w + x] = tex2D<float>(tex, x + dx, y + 0.5f);
}
extern "C" __global__ void sample4(float4* out, cudaTextureObject_t tex, int w, int h) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  if (x < w && y < h) out[y * w + x] = tex2D<float4>(tex, x + 0.5f, y + 0.5f);
}
extern "C" __global__ void fill_surface(cudaSurfaceObject_t surf, int w, int h) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  if (x < w && y < h) surf2Dwrite(float(3 * x + y), surf, x * 4, y);
}
)";

namespace {

void fail(const char* what, int i, double got, double want) {
  std::printf("%s: FAILED (%s [%d] = %g, expected %g)\n", kProgram, what, i, got, want);
  std::exit(1);
}

CUDA_TEXTURE_DESC texture_desc(CUfilter_mode filter, unsigned flags) {
  CUDA_TEXTURE_DESC t;
  std::memset(&t, 0, sizeof t);
  t.addressMode[0] = t.addressMode[1] = CU_TR_ADDRESS_MODE_CLAMP;
  t.filterMode = filter;
  t.flags = flags;
  return t;
}

CUDA_RESOURCE_DESC array_resource(CUarray a) {
  CUDA_RESOURCE_DESC r;
  std::memset(&r, 0, sizeof r);
  r.resType = CU_RESOURCE_TYPE_ARRAY;
  r.res.array.hArray = a;
  return r;
}

void launch(CUfunction f, int w, int h, void** params) {
  CU_CHECK(cuLaunchKernel(f, (w + 31) / 32, h, 1, 32, 1, 1, 0, nullptr, params, nullptr));
  CU_CHECK(cuCtxSynchronize());
}

}  // namespace

int main() {
  const std::vector<char> ptx = ptx_of(kProgram, kSource);
  CUdevice device;
  CUcontext context;
  CUmodule module;
  CUfunction sample, sample4, fill_surface;
  CU_CHECK(cuInit(0));
  CU_CHECK(cuDeviceGet(&device, 0));
  CU_CHECK(cuCtxCreate(&context, nullptr, 0, device));
  CU_CHECK(cuModuleLoadData(&module, ptx.data()));
  CU_CHECK(cuModuleGetFunction(&sample, module, "sample"));
  CU_CHECK(cuModuleGetFunction(&sample4, module, "sample4"));
  CU_CHECK(cuModuleGetFunction(&fill_surface, module, "fill_surface"));

  // A 40 x 24 float array filled by cuMemcpy2D from a host image of pitch 48 floats.
  const int W = 40, H = 24, HP = 48;
  std::vector<float> image(HP * H, -1.0f);
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x) image[y * HP + x] = float(y * 100 + x);
  CUDA_ARRAY_DESCRIPTOR ad = {W, H, CU_AD_FORMAT_FLOAT, 1};
  CUarray arr;
  CU_CHECK(cuArrayCreate(&arr, &ad));
  CUDA_MEMCPY2D c;
  std::memset(&c, 0, sizeof c);
  c.srcMemoryType = CU_MEMORYTYPE_HOST;
  c.srcHost = image.data();
  c.srcPitch = HP * sizeof(float);
  c.dstMemoryType = CU_MEMORYTYPE_ARRAY;
  c.dstArray = arr;
  c.WidthInBytes = W * sizeof(float);
  c.Height = H;
  CU_CHECK(cuMemcpy2D(&c));
  CUDA_MEMCPY2D bad = c;
  bad.dstY = H - 1;
  bad.Height = 2;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpy2D(&bad));  // rows past the array's end

  CUDA_ARRAY_DESCRIPTOR got;
  CU_CHECK(cuArrayGetDescriptor(&got, arr));
  if (got.Width != size_t(W) || got.Height != size_t(H) || got.Format != CU_AD_FORMAT_FLOAT ||
      got.NumChannels != 1)
    fail("cuArrayGetDescriptor", 0, double(got.Width), W);

  // Point sampling at texel centres, three columns past the right edge clamped; linear filtering
  // halfway between texels (weight 1/2: exact in the 8-bit fixed point of the filter).
  CUDA_RESOURCE_DESC rd = array_resource(arr);
  CUDA_TEXTURE_DESC point = texture_desc(CU_TR_FILTER_MODE_POINT, 0),
                    linear = texture_desc(CU_TR_FILTER_MODE_LINEAR, 0);
  CUtexObject tex_point, tex_linear;
  CU_CHECK(cuTexObjectCreate(&tex_point, &rd, &point, nullptr));
  CU_CHECK(cuTexObjectCreate(&tex_linear, &rd, &linear, nullptr));
  CUDA_RESOURCE_DESC back;
  CU_CHECK(cuTexObjectGetResourceDesc(&back, tex_linear));
  if (back.resType != CU_RESOURCE_TYPE_ARRAY || back.res.array.hArray != arr)
    fail("cuTexObjectGetResourceDesc", 0, back.resType, 0);
  const int WO = W + 3;
  CUdeviceptr d_out;
  CU_CHECK(cuMemAlloc(&d_out, WO * H * 4 * sizeof(float)));
  std::vector<float> out(WO * H * 4);
  int w = WO, h = H;
  float half = 0.5f, one = 1.0f;
  void* point_params[] = {&d_out, &tex_point, &w, &h, &half};
  launch(sample, WO, H, point_params);
  CU_CHECK(cuMemcpyDtoH(out.data(), d_out, WO * H * sizeof(float)));
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < WO; ++x)
      if (out[y * WO + x] != image[y * HP + std::min(x, W - 1)])
        fail("point sample", y * WO + x, out[y * WO + x], image[y * HP + std::min(x, W - 1)]);
  w = W;
  void* linear_params[] = {&d_out, &tex_linear, &w, &h, &one};
  launch(sample, W, H, linear_params);
  CU_CHECK(cuMemcpyDtoH(out.data(), d_out, W * H * sizeof(float)));
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x) {
      const float want = (image[y * HP + x] + image[y * HP + std::min(x + 1, W - 1)]) / 2;
      if (out[y * W + x] != want) fail("linear sample", y * W + x, out[y * W + x], want);
    }

  // Read back: a 10 x 6 window at (5, 3) by cuMemcpy2D, the whole array by cuMemcpyAtoH.
  std::vector<float> window(10 * 6);
  std::memset(&c, 0, sizeof c);
  c.srcMemoryType = CU_MEMORYTYPE_ARRAY;
  c.srcArray = arr;
  c.srcXInBytes = 5 * sizeof(float);
  c.srcY = 3;
  c.dstMemoryType = CU_MEMORYTYPE_HOST;
  c.dstHost = window.data();
  c.dstPitch = 10 * sizeof(float);
  c.WidthInBytes = 10 * sizeof(float);
  c.Height = 6;
  CU_CHECK(cuMemcpy2D(&c));
  for (int i = 0; i < 60; ++i)
    if (window[i] != image[(3 + i / 10) * HP + 5 + i % 10])
      fail("cuMemcpy2D from the array", i, window[i], image[(3 + i / 10) * HP + 5 + i % 10]);
  std::vector<float> whole(W * H);
  CU_CHECK(cuMemcpyAtoH(whole.data(), arr, 0, W * H * sizeof(float)));
  for (int i = 0; i < W * H; ++i)
    if (whole[i] != image[i / W * HP + i % W])
      fail("cuMemcpyAtoH", i, whole[i], image[i / W * HP + i % W]);
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuMemcpyAtoH(whole.data(), arr, 4, W * H * sizeof(float)));  // one float past the end

  // Array to device to a second array (cuMemcpyAtoD, cuMemcpyDtoA), then to pitched device memory
  // by cuMemcpy2D and to the host.
  CUarray arr2;
  CU_CHECK(cuArrayCreate(&arr2, &ad));
  CUdeviceptr d_lin, d_pitched;
  const size_t pitch = W * sizeof(float) + 64;
  CU_CHECK(cuMemAlloc(&d_lin, W * H * sizeof(float)));
  CU_CHECK(cuMemAlloc(&d_pitched, pitch * H));
  CU_CHECK(cuMemcpyAtoD(d_lin, arr, 0, W * H * sizeof(float)));
  CU_CHECK(cuMemcpyDtoA(arr2, 0, d_lin, W * H * sizeof(float)));
  std::memset(&c, 0, sizeof c);
  c.srcMemoryType = CU_MEMORYTYPE_ARRAY;
  c.srcArray = arr2;
  c.dstMemoryType = CU_MEMORYTYPE_DEVICE;
  c.dstDevice = d_pitched;
  c.dstPitch = pitch;
  c.WidthInBytes = W * sizeof(float);
  c.Height = H;
  CU_CHECK(cuMemcpy2D(&c));
  std::vector<char> pitched(pitch * H);
  CU_CHECK(cuMemcpyDtoH(pitched.data(), d_pitched, pitch * H));
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x) {
      float v;
      std::memcpy(&v, pitched.data() + y * pitch + x * sizeof(float), sizeof v);
      if (v != image[y * HP + x])
        fail("array to array to pitched memory", y * W + x, v, image[y * HP + x]);
    }

  // 8-bit RGBA texels, filled by cuMemcpyHtoA, read as normalised floats (value / 255).
  const int W4 = 16, H4 = 8;
  CUDA_ARRAY_DESCRIPTOR ad4 = {W4, H4, CU_AD_FORMAT_UNSIGNED_INT8, 4};
  CUarray arr4;
  CU_CHECK(cuArrayCreate(&arr4, &ad4));
  std::vector<unsigned char> bytes(W4 * H4 * 4);
  for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<unsigned char>(i * 7);
  CU_CHECK(cuMemcpyHtoA(arr4, 0, bytes.data(), bytes.size()));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpyHtoA(arr4, 8, bytes.data(), bytes.size()));
  CUDA_RESOURCE_DESC rd4 = array_resource(arr4);
  CUtexObject tex4;
  CU_CHECK(cuTexObjectCreate(&tex4, &rd4, &point, nullptr));
  w = W4, h = H4;
  void* params4[] = {&d_out, &tex4, &w, &h};
  launch(sample4, W4, H4, params4);
  CU_CHECK(cuMemcpyDtoH(out.data(), d_out, W4 * H4 * 4 * sizeof(float)));
  for (int i = 0; i < W4 * H4 * 4; ++i)
    if (std::fabs(out[i] - bytes[i] / 255.0f) > 1e-6f)
      fail("normalised 8-bit texel", i, out[i], bytes[i] / 255.0);

  // A 3D array (8 x 4 x 3) written and read by cuMemcpy3D; a 6 x 2 x 2 box at (1, 1, 1) read back.
  const int X3 = 8, Y3 = 4, Z3 = 3;
  CUDA_ARRAY3D_DESCRIPTOR ad3 = {X3, Y3, Z3, CU_AD_FORMAT_FLOAT, 1, 0};
  CUarray arr3;
  CU_CHECK(cuArray3DCreate(&arr3, &ad3));
  CUDA_ARRAY3D_DESCRIPTOR got3;
  CU_CHECK(cuArray3DGetDescriptor(&got3, arr3));
  if (got3.Depth != size_t(Z3) || got3.Flags != 0 || got3.NumChannels != 1)
    fail("cuArray3DGetDescriptor", 0, double(got3.Depth), Z3);
  std::vector<float> volume(X3 * Y3 * Z3), box(6 * 2 * 2);
  for (int i = 0; i < X3 * Y3 * Z3; ++i) volume[i] = float(i) * 0.25f;
  CUDA_MEMCPY3D c3;
  std::memset(&c3, 0, sizeof c3);
  c3.srcMemoryType = CU_MEMORYTYPE_HOST;
  c3.srcHost = volume.data();
  c3.srcPitch = X3 * sizeof(float);
  c3.srcHeight = Y3;
  c3.dstMemoryType = CU_MEMORYTYPE_ARRAY;
  c3.dstArray = arr3;
  c3.WidthInBytes = X3 * sizeof(float);
  c3.Height = Y3;
  c3.Depth = Z3;
  CU_CHECK(cuMemcpy3D(&c3));
  std::memset(&c3, 0, sizeof c3);
  c3.srcMemoryType = CU_MEMORYTYPE_ARRAY;
  c3.srcArray = arr3;
  c3.srcXInBytes = sizeof(float);
  c3.srcY = c3.srcZ = 1;
  c3.dstMemoryType = CU_MEMORYTYPE_HOST;
  c3.dstHost = box.data();
  c3.dstPitch = 6 * sizeof(float);
  c3.dstHeight = 2;
  c3.WidthInBytes = 6 * sizeof(float);
  c3.Height = c3.Depth = 2;
  CU_CHECK(cuMemcpy3D(&c3));
  for (int i = 0; i < 24; ++i) {
    const float want = volume[(1 + i / 12) * X3 * Y3 + (1 + i / 6 % 2) * X3 + 1 + i % 6];
    if (box[i] != want) fail("cuMemcpy3D box", i, box[i], want);
  }
  c3.Depth = 3;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpy3D(&c3));  // slices past the array's depth

  // A surface: only on an array made with CUDA_ARRAY3D_SURFACE_LDST.
  CUDA_ARRAY3D_DESCRIPTOR ads = {16, 8, 0, CU_AD_FORMAT_FLOAT, 1, CUDA_ARRAY3D_SURFACE_LDST};
  CUarray arrs;
  CU_CHECK(cuArray3DCreate(&arrs, &ads));
  CUDA_RESOURCE_DESC rds = array_resource(arrs);
  CUsurfObject surf;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuSurfObjectCreate(&surf, &rd));
  CU_CHECK(cuSurfObjectCreate(&surf, &rds));
  w = 16, h = 8;
  void* surf_params[] = {&surf, &w, &h};
  launch(fill_surface, 16, 8, surf_params);
  CU_CHECK(cuMemcpyAtoH(whole.data(), arrs, 0, 16 * 8 * sizeof(float)));
  for (int i = 0; i < 16 * 8; ++i)
    if (whole[i] != float(3 * (i % 16) + i / 16))
      fail("surface write", i, whole[i], 3 * (i % 16) + i / 16);

  // Misuse: three channels; a destroyed array (destroyed again, sampled).
  CUDA_ARRAY_DESCRIPTOR three = {4, 4, CU_AD_FORMAT_FLOAT, 3};
  CUarray tmp;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuArrayCreate(&tmp, &three));
  CU_CHECK(cuArrayCreate(&tmp, &ad));
  CU_CHECK(cuArrayDestroy(tmp));
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuArrayDestroy(tmp));
  CUDA_RESOURCE_DESC dead = array_resource(tmp);
  CUtexObject tex_dead;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuTexObjectCreate(&tex_dead, &dead, &point, nullptr));

  CU_CHECK(cuSurfObjectDestroy(surf));
  CU_CHECK(cuTexObjectDestroy(tex_point));
  CU_CHECK(cuTexObjectDestroy(tex_linear));
  CU_CHECK(cuTexObjectDestroy(tex4));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuTexObjectDestroy(tex4));
  for (CUarray a : {arr, arr2, arr3, arr4, arrs}) CU_CHECK(cuArrayDestroy(a));
  CU_CHECK(cuMemFree(d_out));
  CU_CHECK(cuMemFree(d_lin));
  CU_CHECK(cuMemFree(d_pitched));
  CU_CHECK(cuCtxDestroy(context));
  std::printf("%s: PASSED\n", kProgram);
  return 0;
}
