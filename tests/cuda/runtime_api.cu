// The runtime API that today's CUDA programs call before and around their kernels (issue 40,
// part 2): every device attribute, function attributes and the occupancy calculator, memory errors
// as CUDA 13 documents them, freed memory handed out again, pitched and 3D memory, stream-ordered
// allocation and pools, pinned and registered host memory used by a kernel, pointer attributes,
// streams with priorities, host functions, cudaLaunchKernelEx and cooperative launches. Run on
// fermi-gtx480 (15 cores; 1536 threads, 8 CTAs, 32768 registers and 48 KB shared per core).
#include <cstdint>
#include <cstring>
#include <vector>

#include <cuda_profiler_api.h>

#include "cuda_check.h"

#define EXPECT(cond)                                                        \
  do {                                                                      \
    if (!(cond)) {                                                          \
      std::printf("runtime_api: FAILED at line %d: %s\n", __LINE__, #cond); \
      std::exit(1);                                                         \
    }                                                                       \
  } while (0)

__global__ void add_one(int* p, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] += 1;
}

__global__ void uses_shared(float* out) {
  __shared__ float tile[1024];  // 4 KB static
  tile[threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = tile[(threadIdx.x + 1) % blockDim.x];
}

int value(cudaDeviceAttr a) {
  int v = -1;
  CUDA_CHECK(cudaDeviceGetAttribute(&v, a, 0));
  return v;
}

void device_attributes() {
  int v = 0;
  // Every attribute CUDA 13 defines answers (the samples' device selection asks for the compute
  // mode).
  const int defined[] = {1, 2, 10, 13, 16, 20, 36, 37, 38, 75, 76, 81, 82, 95, 97, 106, 115, 147};
  for (int a : defined) CUDA_CHECK(cudaDeviceGetAttribute(&v, static_cast<cudaDeviceAttr>(a), 0));
  EXPECT(value(cudaDevAttrComputeMode) == cudaComputeModeDefault);
  EXPECT(value(cudaDevAttrMultiProcessorCount) == 15);
  EXPECT(value(cudaDevAttrMaxBlockDimZ) == 64);
  EXPECT(value(cudaDevAttrMaxRegistersPerMultiprocessor) == 32768);
  EXPECT(cudaDeviceGetAttribute(&v, static_cast<cudaDeviceAttr>(92), 0) ==
         cudaErrorInvalidValue);  // reserved
  EXPECT(cudaGetLastError() == cudaErrorInvalidValue);
  EXPECT(cudaDeviceGetAttribute(&v, cudaDevAttrWarpSize, 1) == cudaErrorInvalidDevice);
  cudaGetLastError();
  cudaDeviceProp p;
  CUDA_CHECK(cudaGetDeviceProperties(&p, 0));
  EXPECT(p.maxTexture2D[0] == value(cudaDevAttrMaxTexture2DWidth));
  EXPECT(p.memoryBusWidth == value(cudaDevAttrGlobalMemoryBusWidth) && p.memoryBusWidth > 0);
  EXPECT(p.l2CacheSize == value(cudaDevAttrL2CacheSize));
  EXPECT(p.cooperativeLaunch == 1 && p.concurrentManagedAccess == 1);
  EXPECT(p.persistingL2CacheMaxSize == p.l2CacheSize / 4 * 3);
}

void function_attributes() {
  cudaFuncAttributes a;
  CUDA_CHECK(cudaFuncGetAttributes(&a, uses_shared));
  EXPECT(a.sharedSizeBytes == 4096);
  EXPECT(a.ptxVersion == 75 && a.maxThreadsPerBlock == 1024);
  EXPECT(a.maxDynamicSharedSizeBytes == 49152 - 4096);
  CUDA_CHECK(cudaFuncSetAttribute(uses_shared, cudaFuncAttributeMaxDynamicSharedMemorySize, 8192));
  CUDA_CHECK(cudaFuncGetAttributes(&a, uses_shared));
  EXPECT(a.maxDynamicSharedSizeBytes == 8192);
  EXPECT(cudaFuncSetAttribute(uses_shared, cudaFuncAttributeMaxDynamicSharedMemorySize, 1 << 20) ==
         cudaErrorInvalidValue);
  cudaGetLastError();
  // Occupancy: 256 threads -> 6 CTAs by threads (1536 / 256); 1024 threads -> 1.
  int blocks = 0;
  CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, add_one, 256, 0));
  EXPECT(blocks == 6);
  CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, add_one, 1024, 0));
  EXPECT(blocks == 1);
  CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, uses_shared, 64,
                                                           20000));  // (48 KB) / (4 KB + 20000)
  EXPECT(blocks == 2);
  int min_grid = 0, block = 0;  // the header's template over the calls above
  CUDA_CHECK(cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, add_one));
  EXPECT(block > 0 && block <= 1024 && min_grid > 0);
  size_t smem = 0;
  CUDA_CHECK(cudaOccupancyAvailableDynamicSMemPerBlock(&smem, uses_shared, 2, 64));
  EXPECT(smem == 49152 / 2 - 4096);
}

void memory_errors_and_reuse() {
  void *a = nullptr, *b = nullptr;
  EXPECT(cudaMalloc(&a, size_t{1} << 50) == cudaErrorMemoryAllocation);  // 1 PB
  EXPECT(cudaGetLastError() == cudaErrorMemoryAllocation);
  CUDA_CHECK(cudaMalloc(&a, 1 << 20));
  std::vector<int> host(256, 7), back(256, 0);
  CUDA_CHECK(cudaMemcpy(a, host.data(), 1024, cudaMemcpyHostToDevice));
  EXPECT(cudaMalloc(&b, size_t{1} << 50) == cudaErrorMemoryAllocation);
  cudaGetLastError();
  CUDA_CHECK(cudaMemcpy(back.data(), a, 1024,
                        cudaMemcpyDeviceToHost));  // nothing already allocated is lost
  EXPECT(back == host);
  CUDA_CHECK(cudaFree(a));
  EXPECT(cudaFree(a) == cudaErrorInvalidValue);  // CUDA 13
  cudaGetLastError();
  CUDA_CHECK(cudaMalloc(&b, 1 << 20));
  EXPECT(b == a);  // freed memory is handed out again
  size_t free_bytes = 0, total = 0;
  CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total));
  EXPECT(total - free_bytes >= (1 << 20));
  CUDA_CHECK(cudaFree(b));
}

void pitched_and_3d() {
  int* p = nullptr;
  size_t pitch = 0;
  CUDA_CHECK(cudaMallocPitch(reinterpret_cast<void**>(&p), &pitch, 100 * sizeof(int), 8));
  EXPECT(pitch >= 400 && pitch % 256 == 0);
  std::vector<int> h(100 * 8), back(100 * 8);
  for (size_t i = 0; i < h.size(); ++i) h[i] = static_cast<int>(i);
  CUDA_CHECK(cudaMemcpy2D(p, pitch, h.data(), 400, 400, 8, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemset2D(p, pitch, 0, 4, 8));  // clears element 0 of each row
  CUDA_CHECK(cudaMemcpy2D(back.data(), 400, p, pitch, 400, 8, cudaMemcpyDeviceToHost));
  for (int r = 0; r < 8; ++r) EXPECT(back[r * 100] == 0 && back[r * 100 + 1] == r * 100 + 1);
  CUDA_CHECK(cudaFree(p));
  cudaPitchedPtr v;
  const cudaExtent e = make_cudaExtent(64, 4, 3);
  CUDA_CHECK(cudaMalloc3D(&v, e));
  CUDA_CHECK(cudaMemset3D(v, 5, e));
  std::vector<unsigned char> flat(64 * 4 * 3, 0);
  cudaMemcpy3DParms c = {};
  c.srcPtr = v;
  c.dstPtr = make_cudaPitchedPtr(flat.data(), 64, 64, 4);
  c.extent = e;
  c.kind = cudaMemcpyDeviceToHost;
  CUDA_CHECK(cudaMemcpy3D(&c));
  for (unsigned char x : flat) EXPECT(x == 5);
  CUDA_CHECK(cudaFree(v.ptr));
}

void stream_ordered_and_pools(cudaStream_t s) {
  int* p = nullptr;
  CUDA_CHECK(cudaMallocAsync(reinterpret_cast<void**>(&p), 64 * sizeof(int), s));
  CUDA_CHECK(cudaMemsetAsync(p, 0, 64 * sizeof(int), s));
  add_one<<<1, 64, 0, s>>>(p, 64);
  int h[64];
  CUDA_CHECK(cudaMemcpyAsync(h, p, sizeof h, cudaMemcpyDeviceToHost, s));
  CUDA_CHECK(cudaFreeAsync(p, s));
  CUDA_CHECK(cudaStreamSynchronize(s));
  for (int x : h) EXPECT(x == 1);
  cudaMemPool_t pool;
  CUDA_CHECK(cudaDeviceGetDefaultMemPool(&pool, 0));
  uint64_t threshold = 1 << 30, got = 0;
  CUDA_CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold));
  CUDA_CHECK(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &got));
  EXPECT(got == threshold);
  CUDA_CHECK(cudaMallocFromPoolAsync(reinterpret_cast<void**>(&p), 256, pool, s));
  CUDA_CHECK(cudaFreeAsync(p, s));
}

void host_memory() {
  int* pinned = nullptr;
  CUDA_CHECK(
      cudaHostAlloc(reinterpret_cast<void**>(&pinned), 32 * sizeof(int), cudaHostAllocMapped));
  for (int i = 0; i < 32; ++i) pinned[i] = i;
  int* dev = nullptr;
  CUDA_CHECK(cudaHostGetDevicePointer(reinterpret_cast<void**>(&dev), pinned, 0));
  add_one<<<1, 32>>>(dev, 32);  // zero copy: the kernel works on the host's memory
  CUDA_CHECK(cudaDeviceSynchronize());
  for (int i = 0; i < 32; ++i) EXPECT(pinned[i] == i + 1);
  cudaPointerAttributes a;
  CUDA_CHECK(cudaPointerGetAttributes(&a, pinned));
  EXPECT(a.type == cudaMemoryTypeHost && a.hostPointer == pinned);
  CUDA_CHECK(cudaFreeHost(pinned));

  std::vector<int> mine(48, 10);
  CUDA_CHECK(cudaHostRegister(mine.data(), mine.size() * sizeof(int), cudaHostRegisterMapped));
  EXPECT(cudaHostRegister(mine.data(), 4, 0) == cudaErrorHostMemoryAlreadyRegistered);
  cudaGetLastError();
  CUDA_CHECK(cudaHostGetDevicePointer(reinterpret_cast<void**>(&dev), mine.data(), 0));
  add_one<<<1, 64>>>(dev, 48);
  CUDA_CHECK(cudaDeviceSynchronize());
  for (int x : mine) EXPECT(x == 11);
  CUDA_CHECK(cudaHostUnregister(mine.data()));
  EXPECT(cudaHostUnregister(mine.data()) == cudaErrorHostMemoryNotRegistered);
  cudaGetLastError();

  void* d = nullptr;
  CUDA_CHECK(cudaMalloc(&d, 16));
  CUDA_CHECK(cudaPointerGetAttributes(&a, d));
  EXPECT(a.type == cudaMemoryTypeDevice && a.devicePointer == d);
  CUDA_CHECK(cudaPointerGetAttributes(&a, mine.data()));
  EXPECT(a.type == cudaMemoryTypeUnregistered);
  int* managed = nullptr;
  CUDA_CHECK(cudaMallocManaged(reinterpret_cast<void**>(&managed), 64));
  CUDA_CHECK(cudaPointerGetAttributes(&a, managed));
  EXPECT(a.type == cudaMemoryTypeManaged);
  cudaMemLocation device = {cudaMemLocationTypeDevice, 0};
  CUDA_CHECK(cudaMemAdvise(managed, 64, cudaMemAdviseSetReadMostly, device));
  CUDA_CHECK(cudaMemPrefetchAsync(managed, 64, device, 0, 0));
  CUDA_CHECK(cudaFree(managed));
  CUDA_CHECK(cudaFree(d));
}

void bump(void* counter) { ++*static_cast<int*>(counter); }

void streams_and_launches(cudaStream_t s) {
  int least = 1, greatest = 1, prio = 1;
  CUDA_CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
  EXPECT(least == 0 && greatest < 0);
  cudaStream_t high;
  CUDA_CHECK(cudaStreamCreateWithPriority(&high, cudaStreamNonBlocking, greatest));
  CUDA_CHECK(cudaStreamGetPriority(high, &prio));
  EXPECT(prio == greatest);
  unsigned flags = 0;
  CUDA_CHECK(cudaStreamGetFlags(high, &flags));
  EXPECT(flags == cudaStreamNonBlocking);
  int calls = 0;
  CUDA_CHECK(cudaLaunchHostFunc(high, bump, &calls));
  CUDA_CHECK(cudaStreamSynchronize(high));
  EXPECT(calls == 1);

  int* p = nullptr;
  CUDA_CHECK(cudaMalloc(&p, 128 * sizeof(int)));
  CUDA_CHECK(cudaMemset(p, 0, 128 * sizeof(int)));
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(2);
  config.blockDim = dim3(64);
  config.stream = s;
  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributePriority;
  attr[0].val.priority = 0;
  config.attrs = attr;
  config.numAttrs = 1;
  CUDA_CHECK(cudaProfilerStart());
  CUDA_CHECK(cudaLaunchKernelEx(&config, add_one, p, 128));
  CUDA_CHECK(cudaProfilerStop());
  int n = 128;
  void* args[] = {&p, &n};
  CUDA_CHECK(
      cudaLaunchCooperativeKernel(reinterpret_cast<void*>(add_one), dim3(2), dim3(64), args, 0, s));
  EXPECT(cudaLaunchCooperativeKernel(reinterpret_cast<void*>(add_one), dim3(15 * 8 + 1), dim3(64),
                                     args, 0, s) == cudaErrorCooperativeLaunchTooLarge);
  cudaGetLastError();
  int h[128];
  CUDA_CHECK(cudaMemcpy(h, p, sizeof h, cudaMemcpyDeviceToHost));
  for (int x : h) EXPECT(x == 2);
  CUDA_CHECK(cudaFree(p));
  cudaStreamAttrValue window = {};
  window.accessPolicyWindow.base_ptr = p;
  window.accessPolicyWindow.num_bytes = 512;
  window.accessPolicyWindow.hitRatio = 0.5f;
  window.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
  CUDA_CHECK(cudaStreamSetAttribute(high, cudaStreamAttributeAccessPolicyWindow, &window));
  cudaStreamAttrValue back = {};
  CUDA_CHECK(cudaStreamGetAttribute(high, cudaStreamAttributeAccessPolicyWindow, &back));
  EXPECT(back.accessPolicyWindow.num_bytes == 512 && back.accessPolicyWindow.hitRatio == 0.5f);
  CUDA_CHECK(cudaStreamDestroy(high));
  int can = 1;
  CUDA_CHECK(cudaDeviceCanAccessPeer(&can, 0, 0));
  EXPECT(can == 0);
}

int main() {
  cudaStream_t s;
  CUDA_CHECK(cudaStreamCreate(&s));
  device_attributes();
  function_attributes();
  memory_errors_and_reuse();
  pitched_and_3d();
  stream_ordered_and_pools(s);
  host_memory();
  streams_and_launches(s);
  CUDA_CHECK(cudaStreamDestroy(s));
  std::printf("runtime_api: PASSED\n");
  return 0;
}
