// NVIDIA's fat binary as nvcc embeds it in a host program, read far enough to take the PTX out.
//
// Host code registers each translation unit's device code with __cudaRegisterFatBinary(wrapper):
//   wrapper (__fatBinC_Wrapper_t, section .nvFatBinSegment): u32 magic 0x466243b1, u32 version,
//     pointer to the fat binary container, pointer (unused here);
//   container (section .nv_fatbin): u32 magic 0xBA55ED50, u16 version, u16 header size, u64 size
//     of the entries that follow;
//   entry: u16 kind (1 PTX, 2 ELF cubin), u16 version, u32 header size, u64 payload size (padded),
//     u32 compressed size, ..., u32 virtual architecture at 28 (75 for compute_75), u64 flags at
//     40, u64 uncompressed size at 56; the payload follows the entry header.
// Flags seen with nvcc 13.0 (checked with -compress-mode=none/speed/balance/size): 0x2000 the
// payload is an LZ4 block (mode speed), 0x8000 a zstd frame (the default, balance and size).
// Both are decompressed (liblz4, libzstd). The layout was worked out from nvcc 13's own output;
// fields not named above are not used.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace gputlm::runtime {

struct FatBinaryEntry {
  enum Kind : uint16_t { kPtx = 1, kElf = 2 };
  uint16_t kind = 0;
  uint32_t arch = 0;  // e.g. 75
  uint64_t flags = 0;
  std::string payload;  // decompressed; PTX text without its trailing NULs
};

constexpr uint32_t kWrapperMagic = 0x466243b1;
constexpr uint32_t kContainerMagic = 0xBA55ED50;
constexpr uint64_t kFlagLz4 = 0x2000;
constexpr uint64_t kFlagZstd = 0x8000;

// The entries of the container at `data` (at most `limit` bytes are read when the caller knows
// the size; a program's container is trusted to hold what its header says). InputError naming
// `where` and the offset for a bad magic, a truncated entry or a payload that does not decompress.
std::vector<FatBinaryEntry> read_container(const uint8_t* data, size_t limit,
                                           const std::string& where);
// The container a wrapper (the argument of __cudaRegisterFatBinary) points to.
std::vector<FatBinaryEntry> read_wrapper(const void* wrapper, const std::string& where);
// A program built with -rdc=true registers a wrapper of version 2: its container holds the
// device-linked machine code, and its last pointer is a NULL-terminated array of its objects' own
// containers (crt/link.stub, __cudaRegisterLinkedBinary: __cudaPrelinkedFatbins), which hold their
// PTX. The PTX of each object (select_ptx of each); empty for a wrapper of another version.
std::vector<std::string> prelinked_ptx(const void* wrapper, const std::string& where);
// The PTX to run: of the PTX entries, the one of the lowest architecture (the fewest features
// for the PTX front end to know). InputError naming the nvcc flags that embed PTX when there is
// none.
const FatBinaryEntry& select_ptx(const std::vector<FatBinaryEntry>& entries,
                                 const std::string& where);

}  // namespace gputlm::runtime
