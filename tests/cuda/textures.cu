// Texture and surface objects end to end (CUDA programming guide, "Texture and Surface Memory",
// "Texture Fetching"), each checked on the host against a CPU reference of the guide's rules:
//   1. a 2D float array, linear filtering, normalised coordinates, wrap (weights in 1.8 fixed
//   point);
//   2. tex1Dfetch of linear memory (0 outside);
//   3. a 3D array filled by cudaMemcpy3D, point sampling, clamp;
//   4. a layered 2D uchar4 array read as normalised floats;
//   5. a cube map;
//   6. a surface written by one kernel and read by the next, and copied back with
//   cudaMemcpy2DFromArray;
//   7. tex2Dgather (tld4);
//   plus the descriptors read back and the errors of misuse.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

#include "cuda_check.h"

static int failures = 0;
static void expect(bool ok, const char* what, int i, double got, double want) {
  if (!ok && ++failures <= 10)
    std::printf("textures: %s [%d]: got %.7g want %.7g\n", what, i, got, want);
}

// ---- CPU reference of the sampling rules ----
static float weight(float frac) { return std::nearbyint(frac * 256.0f) / 256.0f; }
static int wrap(int i, int n) { return ((i % n) + n) % n; }
static float ref_linear_wrap_2d(const std::vector<float>& t, int w, int h, float u, float v) {
  const float x = u * w - 0.5f, y = v * h - 0.5f;
  const int i = (int)std::floor(x), j = (int)std::floor(y);
  const float a = weight(x - std::floor(x)), b = weight(y - std::floor(y));
  auto T = [&](int ii, int jj) { return t[wrap(jj, h) * w + wrap(ii, w)]; };
  return (1 - a) * (1 - b) * T(i, j) + a * (1 - b) * T(i + 1, j) + (1 - a) * b * T(i, j + 1) +
         a * b * T(i + 1, j + 1);
}

static cudaTextureObject_t make_texture(const cudaResourceDesc& res, cudaTextureAddressMode mode,
                                        cudaTextureFilterMode filter, cudaTextureReadMode read,
                                        int normalized) {
  cudaTextureDesc td;
  std::memset(&td, 0, sizeof td);
  td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = mode;
  td.filterMode = filter;
  td.readMode = read;
  td.normalizedCoords = normalized;
  cudaTextureObject_t t = 0;
  CUDA_CHECK(cudaCreateTextureObject(&t, &res, &td, nullptr));
  return t;
}
static cudaResourceDesc array_resource(cudaArray_t a) {
  cudaResourceDesc r;
  std::memset(&r, 0, sizeof r);
  r.resType = cudaResourceTypeArray;
  r.res.array.array = a;
  return r;
}

// ---- kernels ----
__global__ void sample_2d(cudaTextureObject_t t, const float2* uv, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex2D<float>(t, uv[i].x, uv[i].y);
}
__global__ void fetch_1d(cudaTextureObject_t t, int* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1Dfetch<int>(t, i);
}
__global__ void sample_3d(cudaTextureObject_t t, float* out, int w, int h, int d) {
  const int i = threadIdx.x, x = i % (w + 2) - 1, y = i / (w + 2) % h, z = i / ((w + 2) * h);
  if (z < d) out[i] = tex3D<float>(t, x + 0.5f, y + 0.5f, z + 0.5f);
}
__global__ void sample_layered(cudaTextureObject_t t, float4* out, int w, int h, int layers) {
  const int i = threadIdx.x, x = i % w, y = i / w % h, l = i / (w * h);
  if (l < layers) out[i] = tex2DLayered<float4>(t, x + 0.5f, y + 0.5f, l);
}
__global__ void sample_cube(cudaTextureObject_t t, const float4* dir, float* out, int n) {
  const int i = threadIdx.x;
  if (i < n) out[i] = texCubemap<float>(t, dir[i].x, dir[i].y, dir[i].z);
}
__global__ void surface_write(cudaSurfaceObject_t s, int w, int h) {
  const int x = threadIdx.x, y = blockIdx.x;
  if (x < w && y < h) surf2Dwrite(x * 100 + y, s, x * (int)sizeof(int), y);
}
__global__ void surface_read(cudaSurfaceObject_t s, int* out, int w, int h) {
  const int x = threadIdx.x, y = blockIdx.x;
  if (x < w && y < h) out[y * w + x] = surf2Dread<int>(s, x * (int)sizeof(int), y) + 1;
}
__global__ void gather_2d(cudaTextureObject_t t, float4* out) {
  out[0] = tex2Dgather<float4>(t, 2.0f, 1.0f, 0);
}

// ---- the checks ----
static void check_linear_wrap_2d() {
  const int w = 16, h = 8, n = 64;
  std::vector<float> texels(w * h);
  for (int i = 0; i < w * h; ++i) texels[i] = std::sin(0.37f * i) * 10.0f;
  cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
  cudaArray_t a;
  CUDA_CHECK(cudaMallocArray(&a, &fd, w, h));
  CUDA_CHECK(cudaMemcpy2DToArray(a, 0, 0, texels.data(), w * sizeof(float), w * sizeof(float), h,
                                 cudaMemcpyHostToDevice));
  const cudaTextureObject_t t = make_texture(array_resource(a), cudaAddressModeWrap,
                                             cudaFilterModeLinear, cudaReadModeElementType, 1);
  std::vector<float2> uv(n);
  for (int i = 0; i < n; ++i) uv[i] = make_float2(-1.3f + 0.071f * i, 2.2f - 0.053f * i);
  float2* d_uv;
  float* d_out;
  CUDA_CHECK(cudaMalloc(&d_uv, n * sizeof(float2)));
  CUDA_CHECK(cudaMalloc(&d_out, n * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(d_uv, uv.data(), n * sizeof(float2), cudaMemcpyHostToDevice));
  sample_2d<<<2, 32>>>(t, d_uv, d_out, n);
  std::vector<float> out(n);
  CUDA_CHECK(cudaMemcpy(out.data(), d_out, n * sizeof(float), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) {
    const float want = ref_linear_wrap_2d(texels, w, h, uv[i].x, uv[i].y);
    expect(std::fabs(out[i] - want) <= 1e-4f, "2D linear wrap", i, out[i], want);
  }
  cudaTextureDesc back;
  CUDA_CHECK(cudaGetTextureObjectTextureDesc(&back, t));
  expect(back.filterMode == cudaFilterModeLinear && back.normalizedCoords == 1,
         "texture desc read back", 0, back.filterMode, 1);
  cudaChannelFormatDesc got;
  CUDA_CHECK(cudaGetChannelDesc(&got, a));
  expect(got.x == 32 && got.f == cudaChannelFormatKindFloat, "channel desc", 0, got.x, 32);
  CUDA_CHECK(cudaDestroyTextureObject(t));
  CUDA_CHECK(cudaFreeArray(a));
  CUDA_CHECK(cudaFree(d_uv));
  CUDA_CHECK(cudaFree(d_out));
}

static void check_fetch_1d() {
  const int n = 100;
  std::vector<int> data(n);
  for (int i = 0; i < n; ++i) data[i] = i * 7 - 300;
  int *d_data, *d_out;
  CUDA_CHECK(cudaMalloc(&d_data, n * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_out, (n + 28) * sizeof(int)));
  CUDA_CHECK(cudaMemcpy(d_data, data.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  cudaResourceDesc r;
  std::memset(&r, 0, sizeof r);
  r.resType = cudaResourceTypeLinear;
  r.res.linear.devPtr = d_data;
  r.res.linear.desc = cudaCreateChannelDesc<int>();
  r.res.linear.sizeInBytes = n * sizeof(int);
  const cudaTextureObject_t t =
      make_texture(r, cudaAddressModeClamp, cudaFilterModePoint, cudaReadModeElementType, 0);
  fetch_1d<<<4, 32>>>(t, d_out, n + 28);
  std::vector<int> out(n + 28);
  CUDA_CHECK(cudaMemcpy(out.data(), d_out, out.size() * sizeof(int), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n + 28; ++i)
    expect(out[i] == (i < n ? data[i] : 0), "tex1Dfetch", i, out[i], i < n ? data[i] : 0);
  CUDA_CHECK(cudaDestroyTextureObject(t));
  CUDA_CHECK(cudaFree(d_data));
  CUDA_CHECK(cudaFree(d_out));
}

static void check_3d() {
  const int w = 5, h = 4, d = 3, n = (w + 2) * h * d;
  std::vector<float> v(w * h * d);
  for (int i = 0; i < w * h * d; ++i) v[i] = 0.5f * i;
  cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
  cudaArray_t a;
  CUDA_CHECK(cudaMalloc3DArray(&a, &fd, make_cudaExtent(w, h, d)));
  cudaMemcpy3DParms p;
  std::memset(&p, 0, sizeof p);
  p.srcPtr = make_cudaPitchedPtr(v.data(), w * sizeof(float), w, h);
  p.dstArray = a;
  p.extent = make_cudaExtent(w, h, d);
  p.kind = cudaMemcpyHostToDevice;
  CUDA_CHECK(cudaMemcpy3D(&p));
  const cudaTextureObject_t t = make_texture(array_resource(a), cudaAddressModeClamp,
                                             cudaFilterModePoint, cudaReadModeElementType, 0);
  float* d_out;
  CUDA_CHECK(cudaMalloc(&d_out, n * sizeof(float)));
  sample_3d<<<1, n>>>(t, d_out, w, h, d);
  std::vector<float> out(n);
  CUDA_CHECK(cudaMemcpy(out.data(), d_out, n * sizeof(float), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) {
    const int x = i % (w + 2) - 1, y = i / (w + 2) % h, z = i / ((w + 2) * h);
    const int cx = x < 0 ? 0 : x >= w ? w - 1 : x;
    expect(out[i] == v[(z * h + y) * w + cx], "tex3D clamp", i, out[i], v[(z * h + y) * w + cx]);
  }
  CUDA_CHECK(cudaDestroyTextureObject(t));
  CUDA_CHECK(cudaFreeArray(a));
  CUDA_CHECK(cudaFree(d_out));
}

static void check_layered() {
  const int w = 4, h = 3, layers = 2, n = w * h * layers;
  std::vector<uchar4> v(n);
  for (int i = 0; i < n; ++i) v[i] = make_uchar4(i * 10, 255 - i, i, 128);
  cudaChannelFormatDesc fd = cudaCreateChannelDesc<uchar4>();
  cudaArray_t a;
  CUDA_CHECK(cudaMalloc3DArray(&a, &fd, make_cudaExtent(w, h, layers), cudaArrayLayered));
  cudaMemcpy3DParms p;
  std::memset(&p, 0, sizeof p);
  p.srcPtr = make_cudaPitchedPtr(v.data(), w * sizeof(uchar4), w, h);
  p.dstArray = a;
  p.extent = make_cudaExtent(w, h, layers);
  p.kind = cudaMemcpyHostToDevice;
  CUDA_CHECK(cudaMemcpy3D(&p));
  const cudaTextureObject_t t = make_texture(array_resource(a), cudaAddressModeClamp,
                                             cudaFilterModePoint, cudaReadModeNormalizedFloat, 0);
  float4* d_out;
  CUDA_CHECK(cudaMalloc(&d_out, n * sizeof(float4)));
  sample_layered<<<1, n>>>(t, d_out, w, h, layers);
  std::vector<float4> out(n);
  CUDA_CHECK(cudaMemcpy(out.data(), d_out, n * sizeof(float4), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) {
    expect(out[i].x == v[i].x / 255.0f && out[i].y == v[i].y / 255.0f, "layered normalised read", i,
           out[i].y, v[i].y / 255.0f);
    expect(out[i].w == 128 / 255.0f, "layered alpha", i, out[i].w, 128 / 255.0f);
  }
  CUDA_CHECK(cudaDestroyTextureObject(t));
  CUDA_CHECK(cudaFreeArray(a));
  CUDA_CHECK(cudaFree(d_out));
}

// The face and texel a direction selects (programming guide, "Cubemap Textures").
static float ref_cube(const std::vector<float>& v, int w, float x, float y, float z) {
  const float ax = std::fabs(x), ay = std::fabs(y), az = std::fabs(z);
  int face;
  float m, s, t;
  if (ax >= ay && ax >= az)
    face = x >= 0 ? 0 : 1, m = ax, s = x >= 0 ? -z : z, t = -y;
  else if (ay >= az)
    face = y >= 0 ? 2 : 3, m = ay, s = x, t = y >= 0 ? z : -z;
  else
    face = z >= 0 ? 4 : 5, m = az, s = z >= 0 ? x : -x, t = -y;
  auto texel = [&](float c) {
    int i = (int)std::floor((c / m + 1) / 2 * w);
    return i < 0 ? 0 : i >= w ? w - 1 : i;
  };
  return v[(face * w + texel(t)) * w + texel(s)];
}

static void check_cube() {
  const int w = 4, n = 32;
  std::vector<float> v(6 * w * w);
  for (size_t i = 0; i < v.size(); ++i) v[i] = (float)i;
  cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
  cudaArray_t a;
  CUDA_CHECK(cudaMalloc3DArray(&a, &fd, make_cudaExtent(w, w, 6), cudaArrayCubemap));
  cudaMemcpy3DParms p;
  std::memset(&p, 0, sizeof p);
  p.srcPtr = make_cudaPitchedPtr(v.data(), w * sizeof(float), w, w);
  p.dstArray = a;
  p.extent = make_cudaExtent(w, w, 6);
  p.kind = cudaMemcpyHostToDevice;
  CUDA_CHECK(cudaMemcpy3D(&p));
  const cudaTextureObject_t t = make_texture(array_resource(a), cudaAddressModeClamp,
                                             cudaFilterModePoint, cudaReadModeElementType, 1);
  std::vector<float4> dir(n);
  for (int i = 0; i < n; ++i)
    dir[i] = make_float4(std::sin(1.3f * i), std::cos(0.7f * i), std::sin(0.9f * i + 1), 0);
  float4* d_dir;
  float* d_out;
  CUDA_CHECK(cudaMalloc(&d_dir, n * sizeof(float4)));
  CUDA_CHECK(cudaMalloc(&d_out, n * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(d_dir, dir.data(), n * sizeof(float4), cudaMemcpyHostToDevice));
  sample_cube<<<1, n>>>(t, d_dir, d_out, n);
  std::vector<float> out(n);
  CUDA_CHECK(cudaMemcpy(out.data(), d_out, n * sizeof(float), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) {
    const float want = ref_cube(v, w, dir[i].x, dir[i].y, dir[i].z);
    expect(out[i] == want, "texCubemap", i, out[i], want);
  }
  CUDA_CHECK(cudaDestroyTextureObject(t));
  CUDA_CHECK(cudaFreeArray(a));
  CUDA_CHECK(cudaFree(d_dir));
  CUDA_CHECK(cudaFree(d_out));
}

static void check_surface_and_gather() {
  const int w = 8, h = 6;
  cudaChannelFormatDesc fd = cudaCreateChannelDesc<int>();
  cudaArray_t a, plain;
  CUDA_CHECK(cudaMallocArray(&a, &fd, w, h, cudaArraySurfaceLoadStore));
  CUDA_CHECK(cudaMallocArray(&plain, &fd, w, h));
  cudaResourceDesc r = array_resource(a);
  cudaSurfaceObject_t s;
  CUDA_CHECK(cudaCreateSurfaceObject(&s, &r));
  surface_write<<<h, w>>>(s, w, h);
  int* d_out;
  CUDA_CHECK(cudaMalloc(&d_out, w * h * sizeof(int)));
  surface_read<<<h, w>>>(s, d_out, w, h);
  std::vector<int> out(w * h), copied(w * h);
  CUDA_CHECK(cudaMemcpy(out.data(), d_out, out.size() * sizeof(int), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy2DFromArray(copied.data(), w * sizeof(int), a, 0, 0, w * sizeof(int), h,
                                   cudaMemcpyDeviceToHost));
  for (int i = 0; i < w * h; ++i) {
    const int want = (i % w) * 100 + i / w;
    expect(out[i] == want + 1, "surf2Dread", i, out[i], want + 1);
    expect(copied[i] == want, "cudaMemcpy2DFromArray", i, copied[i], want);
  }
  // Misuse: a surface of an array without cudaArraySurfaceLoadStore, a dead handle, a bad format.
  cudaResourceDesc rp = array_resource(plain);
  cudaSurfaceObject_t bad;
  expect(cudaCreateSurfaceObject(&bad, &rp) == cudaErrorInvalidValue, "surface without the flag", 0,
         0, 0);
  expect(cudaDestroyTextureObject(s) == cudaErrorInvalidValue, "destroying a surface as a texture",
         0, 0, 0);
  cudaChannelFormatDesc three = cudaCreateChannelDesc(32, 32, 32, 0, cudaChannelFormatKindFloat);
  cudaArray_t none;
  expect(cudaMallocArray(&none, &three, 4, 4) == cudaErrorInvalidValue, "three-channel array", 0, 0,
         0);
  cudaGetLastError();
  CUDA_CHECK(cudaDestroySurfaceObject(s));

  // tld4 on a 4x3 float texture of values 10*y + x at (2, 1): the footprint x 1..2, y 0..1.
  std::vector<float> g(4 * 3);
  for (int i = 0; i < 12; ++i) g[i] = 10.0f * (i / 4) + (i % 4);
  cudaChannelFormatDesc ff = cudaCreateChannelDesc<float>();
  cudaArray_t ga;
  CUDA_CHECK(cudaMallocArray(&ga, &ff, 4, 3, cudaArrayTextureGather));
  CUDA_CHECK(cudaMemcpy2DToArray(ga, 0, 0, g.data(), 4 * sizeof(float), 4 * sizeof(float), 3,
                                 cudaMemcpyHostToDevice));
  const cudaTextureObject_t t = make_texture(array_resource(ga), cudaAddressModeClamp,
                                             cudaFilterModePoint, cudaReadModeElementType, 0);
  float4* d_g;
  CUDA_CHECK(cudaMalloc(&d_g, sizeof(float4)));
  gather_2d<<<1, 1>>>(t, d_g);
  float4 got;
  CUDA_CHECK(cudaMemcpy(&got, d_g, sizeof got, cudaMemcpyDeviceToHost));
  expect(got.x == 11 && got.y == 12 && got.z == 2 && got.w == 1, "tex2Dgather order", 0,
         got.x * 1000 + got.y, 11012);
  CUDA_CHECK(cudaDestroyTextureObject(t));
  CUDA_CHECK(cudaFreeArray(a));
  CUDA_CHECK(cudaFreeArray(plain));
  CUDA_CHECK(cudaFreeArray(ga));
  cudaResourceDesc freed = array_resource(ga);
  cudaTextureDesc td;
  std::memset(&td, 0, sizeof td);
  cudaTextureObject_t dead;
  expect(cudaCreateTextureObject(&dead, &freed, &td, nullptr) == cudaErrorInvalidResourceHandle,
         "texture of a freed array", 0, 0, 0);
  cudaGetLastError();
  CUDA_CHECK(cudaFree(d_out));
  CUDA_CHECK(cudaFree(d_g));
}

int main() {
  check_linear_wrap_2d();
  check_fetch_1d();
  check_3d();
  check_layered();
  check_cube();
  check_surface_and_gather();
  CUDA_CHECK(cudaDeviceSynchronize());
  if (failures) {
    std::printf("textures: FAILED (%d)\n", failures);
    return 1;
  }
  std::printf("textures: PASSED\n");
  return 0;
}
