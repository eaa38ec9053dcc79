// Virtual memory management through the driver API, as 0_Introduction/vectorAddMMAP and
// 3_CUDA_Features/cudaCompressibleMemory use it: an address range is reserved, two physical
// allocations are made and mapped back to back, read-write access is granted over the whole
// range, and a kernel (NVRTC, cuModuleLoadData) runs over it, its loads and stores crossing from
// one allocation into the next, as do the copies in and out. Also: the 2 MB granularity, a handle
// retained from an address, properties (compression as the device reports it: from compute
// capability 8.0), an allocation unmapped while held keeping its data when mapped again elsewhere,
// the memory returned when the last mapping of a released allocation goes, and misuses against the
// CUresult cuda.h documents.
#include <cstring>
#include <vector>

static const char* kProgram = "driver_vmm";
#include "driver_check.h"

const char* kSource = R"(
extern "C" __global__ void twice_plus_one(unsigned* data, unsigned n) {
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) data[i] = 2 * data[i] + 1;
}
)";

namespace {

void fail(const char* what, size_t i, unsigned got, unsigned want) {
  std::printf("%s: FAILED (%s [%zu] = %u, expected %u)\n", kProgram, what, i, got, want);
  std::exit(1);
}

CUmemAllocationProp pinned_on(int device) {
  CUmemAllocationProp p;
  std::memset(&p, 0, sizeof p);
  p.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  p.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  p.location.id = device;
  return p;
}

CUmemAccessDesc read_write() {
  CUmemAccessDesc a;
  a.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  a.location.id = 0;
  a.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
  return a;
}

}  // namespace

int main() {
  const std::vector<char> ptx = ptx_of(kProgram, kSource);
  CUdevice device;
  CUcontext context;
  CUmodule module;
  CUfunction kernel;
  CU_CHECK(cuInit(0));
  CU_CHECK(cuDeviceGet(&device, 0));
  CU_CHECK(cuCtxCreate(&context, nullptr, 0, device));
  CU_CHECK(cuModuleLoadData(&module, ptx.data()));
  CU_CHECK(cuModuleGetFunction(&kernel, module, "twice_plus_one"));
  int vmm = 0, compression = -1, major = 0;
  CU_CHECK(cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device));
  const int compressible = major >= 8 ? 1 : 0;
  CU_CHECK(
      cuDeviceGetAttribute(&vmm, CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED, device));
  CU_CHECK(cuDeviceGetAttribute(&compression, CU_DEVICE_ATTRIBUTE_GENERIC_COMPRESSION_SUPPORTED,
                                device));
  if (vmm != 1 || compression != compressible)
    fail("VMM and compression attributes", 0, unsigned(vmm + 2 * compression),
         unsigned(1 + 2 * compressible));

  CUmemAllocationProp prop = pinned_on(0);
  size_t granularity = 0, recommended = 0;
  CU_CHECK(cuMemGetAllocationGranularity(&granularity, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM));
  CU_CHECK(
      cuMemGetAllocationGranularity(&recommended, &prop, CU_MEM_ALLOC_GRANULARITY_RECOMMENDED));
  if (granularity != (2u << 20) || recommended != granularity)
    fail("granularity", 0, unsigned(granularity), 2u << 20);
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuMemGetAllocationGranularity(&granularity, nullptr, CU_MEM_ALLOC_GRANULARITY_MINIMUM));
  size_t free_before = 0, total = 0;
  CU_CHECK(cuMemGetInfo(&free_before, &total));

  // Two granules reserved; one allocation of a granule mapped at each.
  const size_t G = granularity, bytes = 2 * G, n = bytes / sizeof(unsigned);
  CUdeviceptr base;
  CU_CHECK(cuMemAddressReserve(&base, bytes, 0, 0, 0));
  CUmemGenericAllocationHandle first, second;
  CU_CHECK(cuMemCreate(&first, G, &prop, 0));
  CU_CHECK(cuMemCreate(&second, G, &prop, 0));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuMemCreate(&first, G / 2, &prop, 0));  // not a multiple of the granularity
  CUmemAllocationProp other = pinned_on(1);
  CUmemGenericAllocationHandle none;
  EXPECT_CU(CUDA_ERROR_INVALID_DEVICE, cuMemCreate(&none, G, &other, 0));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemMap(base + G / 2, G, 0, first, 0));  // not on a granule
  CU_CHECK(cuMemMap(base, G, 0, first, 0));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemMap(base, G, 0, second, 0));  // already mapped
  CU_CHECK(cuMemMap(base + G, G, 0, second, 0));
  // The mappings hold the allocations: the handles go.
  CU_CHECK(cuMemRelease(first));
  CU_CHECK(cuMemRelease(second));
  CUmemAccessDesc access = read_write();
  CU_CHECK(cuMemSetAccess(base, bytes, &access, 1));
  unsigned long long flags = 0;
  CU_CHECK(cuMemGetAccess(&flags, &access.location, base + G + 4096));
  if (flags != CU_MEM_ACCESS_FLAGS_PROT_READWRITE) fail("cuMemGetAccess", 0, unsigned(flags), 3);

  // The kernel over the whole range; copies across the two allocations.
  std::vector<unsigned> host(n), back(n);
  for (size_t i = 0; i < n; ++i) host[i] = static_cast<unsigned>(i * 2654435761u);
  CU_CHECK(cuMemcpyHtoD(base, host.data(), bytes));
  unsigned count = static_cast<unsigned>(n);
  void* params[] = {&base, &count};
  CU_CHECK(cuLaunchKernel(kernel, 64, 1, 1, 256, 1, 1, 0, nullptr, params, nullptr));
  CU_CHECK(cuCtxSynchronize());
  CU_CHECK(cuMemcpyDtoH(back.data(), base, bytes));
  for (size_t i = 0; i < n; ++i)
    if (back[i] != 2 * host[i] + 1)
      fail("kernel over the mapped range", i, back[i], 2 * host[i] + 1);

  // A handle from an address inside the second mapping, and its properties.
  CUmemGenericAllocationHandle retained;
  CU_CHECK(cuMemRetainAllocationHandle(&retained, reinterpret_cast<void*>(base + G + 100)));
  CUmemAllocationProp got;
  CU_CHECK(cuMemGetAllocationPropertiesFromHandle(&got, retained));
  if (got.type != CU_MEM_ALLOCATION_TYPE_PINNED ||
      got.location.type != CU_MEM_LOCATION_TYPE_DEVICE || got.location.id != 0)
    fail("cuMemGetAllocationPropertiesFromHandle", 0, unsigned(got.type), 1);
  CU_CHECK(cuMemRelease(retained));

  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemFree(base));                // not cuMemAlloc's
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemUnmap(base, G / 2));        // part of a mapping
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemAddressFree(base, bytes));  // still mapped
  CU_CHECK(cuMemUnmap(base, bytes));                                   // both mappings at once
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemGetAccess(&flags, &access.location, base));
  size_t free_after = 0;
  CU_CHECK(cuMemGetInfo(&free_after, &total));
  if (free_after != free_before)
    fail("free memory after the last unmap", 0, unsigned(free_after >> 20),
         unsigned(free_before >> 20));

  // An allocation unmapped while its handle is held keeps its data; mapped again at the other
  // granule, it holds what the kernel wrote. Compression asked for is given where the device has
  // it.
  prop.allocFlags.compressionType = CU_MEM_ALLOCATION_COMP_GENERIC;
  CUmemGenericAllocationHandle kept;
  CU_CHECK(cuMemCreate(&kept, G, &prop, 0));
  CU_CHECK(cuMemGetAllocationPropertiesFromHandle(&got, kept));
  const unsigned want_type =
      compressible ? CU_MEM_ALLOCATION_COMP_GENERIC : CU_MEM_ALLOCATION_COMP_NONE;
  if (got.allocFlags.compressionType != want_type)
    fail("compression type", 0, got.allocFlags.compressionType, want_type);
  CU_CHECK(cuMemMap(base, G, 0, kept, 0));
  CU_CHECK(cuMemSetAccess(base, G, &access, 1));
  CU_CHECK(cuMemcpyHtoD(base, host.data(), G));
  count = static_cast<unsigned>(G / sizeof(unsigned));
  CU_CHECK(cuLaunchKernel(kernel, 64, 1, 1, 256, 1, 1, 0, nullptr, params, nullptr));
  CU_CHECK(cuMemUnmap(base, G));
  CU_CHECK(cuMemMap(base + G, G, 0, kept, 0));
  CU_CHECK(cuMemSetAccess(base + G, G, &access, 1));
  std::fill(back.begin(), back.end(), 0u);
  CU_CHECK(cuMemcpyDtoH(back.data(), base + G, G));
  for (size_t i = 0; i < G / sizeof(unsigned); ++i)
    if (back[i] != 2 * host[i] + 1)
      fail("data kept across unmap and map", i, back[i], 2 * host[i] + 1);
  CU_CHECK(cuMemUnmap(base + G, G));
  CU_CHECK(cuMemRelease(kept));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemAddressFree(base, G));  // not the reservation's size
  CU_CHECK(cuMemAddressFree(base, bytes));
  CU_CHECK(cuMemGetInfo(&free_after, &total));
  if (free_after != free_before)
    fail("free memory at the end", 0, unsigned(free_after >> 20), unsigned(free_before >> 20));
  CU_CHECK(cuCtxDestroy(context));
  std::printf("%s: PASSED (granularity %zu MB)\n", kProgram, granularity >> 20);
  return 0;
}
