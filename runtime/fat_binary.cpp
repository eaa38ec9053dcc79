#include "runtime/fat_binary.h"

#include <lz4.h>
#include <zstd.h>
#include <cstring>

#include "models/common/error.h"

namespace gputlm::runtime {

namespace {

template <typename T>
T load(const uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

std::string hex(uint64_t v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

std::string decompress(const uint8_t* src, size_t compressed, size_t size, uint64_t flags,
                       const std::string& where) {
  std::string out(size, '\0');
  if (flags & kFlagZstd) {
    const size_t n = ZSTD_decompress(out.data(), size, src, compressed);
    if (ZSTD_isError(n) || n != size)
      throw InputError(
          where + ": the zstd-compressed entry does not decompress (" +
          (ZSTD_isError(n) ? std::string(ZSTD_getErrorName(n)) : "size " + std::to_string(n)) +
          "); rebuild the program with nvcc -no-compress");
  } else {
    const int n = LZ4_decompress_safe(reinterpret_cast<const char*>(src), out.data(),
                                      static_cast<int>(compressed), static_cast<int>(size));
    if (n < 0 || static_cast<size_t>(n) != size)
      throw InputError(where +
                       ": the LZ4-compressed entry does not decompress; rebuild the program with "
                       "nvcc -no-compress");
  }
  return out;
}

}  // namespace

std::vector<FatBinaryEntry> read_container(const uint8_t* data, size_t limit,
                                           const std::string& where) {
  if (limit < 16 || load<uint32_t>(data) != kContainerMagic)
    throw InputError(where + ": not a fat binary container (magic " +
                     (limit < 4 ? std::string("missing") : hex(load<uint32_t>(data))) +
                     ", expected 0xba55ed50)");
  const uint16_t header = load<uint16_t>(data + 6);
  const uint64_t size = load<uint64_t>(data + 8);
  if (header < 16 || header + size > limit)
    throw InputError(where + ": fat binary container of " + std::to_string(size) +
                     " bytes is truncated");
  std::vector<FatBinaryEntry> entries;
  for (uint64_t at = header; at < header + size;) {
    const std::string here = where + ": fat binary entry at offset " + std::to_string(at);
    if (at + 64 > header + size) throw InputError(here + ": truncated header");
    const uint8_t* e = data + at;
    const uint32_t entry_header = load<uint32_t>(e + 4);
    const uint64_t payload_size = load<uint64_t>(e + 8);
    if (entry_header < 64 || at + entry_header + payload_size > header + size)
      throw InputError(here + ": truncated payload");
    FatBinaryEntry entry;
    entry.kind = load<uint16_t>(e);
    entry.arch = load<uint32_t>(e + 28);
    entry.flags = load<uint64_t>(e + 40);
    const uint8_t* payload = e + entry_header;
    if (entry.flags & (kFlagLz4 | kFlagZstd)) {
      const uint32_t compressed = load<uint32_t>(e + 16);
      const uint64_t uncompressed = load<uint64_t>(e + 56);
      if (compressed > payload_size || uncompressed > (1ull << 31))
        throw InputError(here + ": bad compressed sizes");
      if (entry.kind == FatBinaryEntry::kPtx)
        entry.payload = decompress(payload, compressed, uncompressed, entry.flags, here);
    } else if (entry.kind == FatBinaryEntry::kPtx) {
      entry.payload.assign(reinterpret_cast<const char*>(payload), payload_size);
    }
    while (!entry.payload.empty() && entry.payload.back() == '\0') entry.payload.pop_back();
    entries.push_back(std::move(entry));
    at += entry_header + payload_size;
  }
  return entries;
}

namespace {
// A container in a program's memory, of unknown length: its own header says how long it is (a
// bad magic reads only the header, which read_container then refuses).
std::vector<FatBinaryEntry> read_in_memory(const uint8_t* data, const std::string& where) {
  const uint64_t size = load<uint64_t>(data + 8) + load<uint16_t>(data + 6);
  return read_container(data, load<uint32_t>(data) == kContainerMagic ? size : 16, where);
}
}  // namespace

std::vector<FatBinaryEntry> read_wrapper(const void* wrapper, const std::string& where) {
  const auto* w = static_cast<const uint8_t*>(wrapper);
  if (!w || load<uint32_t>(w) != kWrapperMagic)
    throw InputError(where + ": __cudaRegisterFatBinary got no fat binary wrapper (magic " +
                     (w ? hex(load<uint32_t>(w)) : "null") + ", expected 0x466243b1)");
  const auto* data = load<const uint8_t*>(w + 8);
  if (!data) throw InputError(where + ": the fat binary wrapper points nowhere");
  return read_in_memory(data, where);
}

std::vector<std::string> prelinked_ptx(const void* wrapper, const std::string& where) {
  const auto* w = static_cast<const uint8_t*>(wrapper);
  std::vector<std::string> out;
  if (!w || load<uint32_t>(w) != kWrapperMagic || load<uint32_t>(w + 4) != 2) return out;
  const auto* objects = load<const uint8_t* const*>(w + 16);
  for (size_t i = 0; objects && objects[i]; ++i) {
    const uint8_t* data = objects[i];
    const std::string at = where + ", object " + std::to_string(i);
    out.push_back(select_ptx(read_in_memory(data, at), at).payload);
  }
  return out;
}

const FatBinaryEntry& select_ptx(const std::vector<FatBinaryEntry>& entries,
                                 const std::string& where) {
  const FatBinaryEntry* best = nullptr;
  for (const FatBinaryEntry& e : entries)
    if (e.kind == FatBinaryEntry::kPtx && (!best || e.arch < best->arch)) best = &e;
  if (!best) {
    std::string archs;
    for (const FatBinaryEntry& e : entries)
      archs += (archs.empty() ? "" : ", ") + std::string("sm_") + std::to_string(e.arch);
    throw InputError(
        where + " holds no PTX (only machine code for " + (archs.empty() ? "nothing" : archs) +
        "); gputlm runs PTX: build with nvcc -arch=sm_75 (embeds compute_75 PTX) or add "
        "-gencode arch=compute_75,code=compute_75 (and without -rdc=true: a program built with it "
        "registers only "
        "device-linked machine code)");
  }
  return *best;
}

}  // namespace gputlm::runtime
