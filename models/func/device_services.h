// The services CUDA gives kernels as functions (kernel.h Builtin) and their host side, for one
// device: the printf FIFO, the malloc heap and the failed assertions (CUDA programming guide,
// "Formatted Output", "Dynamic Global Memory Allocation and Operations", "Assertion"). One per
// program (the CUDA runtime stand-in) or per run (gputlm run); kernels reach it through their
// func::Launch. Device side: each thread's printf is one record, appended in execution order
// (warp instruction by warp instruction, lanes in order) while the FIFO has room, dropped when it
// is full; malloc and free work on a DeviceHeap in global memory; a failed assert is recorded
// before the launch stops. Host side: the owner drains the FIFO where CUDA does (synchronisation)
// and reads the assertions after a launch that stopped.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "models/func/device_heap.h"
#include "models/func/device_launches.h"
#include "models/func/global_memory.h"
#include "models/isa/kernel.h"

namespace gputlm::func {

class DeviceServices {
 public:
  static constexpr uint64_t kDefaultPrintfFifoBytes = uint64_t{1}
                                                      << 20;  // 1 MB ("Formatted Output")
  static constexpr uint64_t kDefaultHeapBytes = uint64_t{8}
                                                << 20;  // 8 MB ("Heap Memory Allocation")

  // Before each launch of `kernel` on `memory`: a kernel that calls malloc or free gets the heap
  // (reserved in global memory at the first such launch); one that calls printf fixes the FIFO's
  // size. After that the limit cannot change (cudaDeviceSetLimit, CUDA runtime API).
  void begin_launch(const isa::Kernel& kernel, GlobalMemory& memory);

  // The limits (cudaLimitPrintfFifoSize, cudaLimitMallocHeapSize); a setter returns false, changing
  // nothing, once a launch has used what the limit sizes.
  bool set_printf_fifo_bytes(uint64_t bytes);
  uint64_t printf_fifo_bytes() const { return m_fifo_bytes; }
  bool set_heap_bytes(uint64_t bytes);
  uint64_t heap_bytes() const { return m_heap_bytes; }

  // A printf record of `record_bytes` in the FIFO; false when it does not fit in what is left (the
  // record is dropped, as a GPU drops output beyond its FIFO).
  bool print(std::string text, uint64_t record_bytes);
  // The text of the records since the last call, in order; the FIFO is empty after.
  std::string take_output();
  uint64_t dropped_records() const { return m_dropped; }

  // Device malloc: a block of the heap (reserved in `memory` now if no launch reserved it), or 0.
  uint64_t malloc(GlobalMemory& memory, uint64_t bytes, uint64_t align = DeviceHeap::kAlignment);
  // Device free of a nonzero address; false when no heap block starts there.
  bool free(uint64_t address);
  const DeviceHeap* heap() const { return m_heap.get(); }

  // Grids launched from the device (CUDA dynamic parallelism, device_launches.h).
  DeviceLaunches& launches() { return m_launches; }

  // A failed assertion's message (one per thread that failed); the launch stops after it.
  void assertion_failed(std::string message) { m_assertions.push_back(std::move(message)); }
  bool has_failed_assertion() const { return !m_assertions.empty(); }
  // The messages recorded since the last call.
  std::vector<std::string> take_assertions();

 private:
  void reserve_heap(GlobalMemory& memory);

  uint64_t m_fifo_bytes = kDefaultPrintfFifoBytes, m_heap_bytes = kDefaultHeapBytes;
  bool m_fifo_fixed = false;
  std::vector<std::string> m_records;
  uint64_t m_fifo_used = 0, m_dropped = 0;
  std::unique_ptr<DeviceHeap> m_heap;  // reserved by the first launch that uses it
  std::vector<std::string> m_assertions;
  DeviceLaunches m_launches;
};

}  // namespace gputlm::func
