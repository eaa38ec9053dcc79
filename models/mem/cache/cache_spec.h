// Configuration of a cache ("l1" and "l2" in a config). Defaults are a Fermi-like L1 (16KB,
// 4-way, 128 B lines, write-through/no-allocate); the papers' values come from the presets
// (Narasiman Table 5.1: 128KB 4-way 1-cycle D-cache; VGIW Table 1: 64KB 32-bank write-back L1).
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

namespace gputlm::mem {

struct CacheSpec {
  double clock_mhz = 1000.0;
  uint64_t size_bytes = 16 * 1024;
  uint32_t assoc = 4;
  uint32_t line_bytes = 128;
  uint32_t banks = 1;  // a bank starts one access a cycle
  // Bytes of one bank before the next (0: a whole line, lines interleave over banks). A cache
  // read per thread (the VGIW L1 and live value cache) interleaves 4-byte words, so the threads
  // of one line reach different banks, as in a GPU's shared-memory-style data banks (chosen).
  uint32_t bank_bytes = 0;
  // Cycles from taking a hit to the requester seeing its answer: the response is sent
  // hit_latency - 1 cycles after the take and the response link adds one (mem/tlm_ends.h).
  uint32_t hit_latency = 1;
  uint32_t mshrs = 32;      // chosen: outstanding line misses (the papers give none)
  uint32_t mshr_merge = 8;  // chosen: requests one MSHR can hold (the first included)
  std::string write_policy =
      "write-through";  // write-through (no-allocate) | write-back (write-allocate)
  // Write-back: a store that misses and writes the whole line "fetch"es it all the same, or
  // "install"s it at once (a write-back from the level above always installs); "lazy" installs
  // every store at once, a sector it writes in part then partial, fetched only when a load reads
  // it (GPGPU-Sim's LAZY_FETCH_ON_READ write allocation, the `L` of Accel-Sim's V100 dl2 config;
  // at line grain when the cache is not sectored).
  std::string full_line_stores = "fetch";
  // Write-back: a store that misses installs its line without fetching it, whatever its size (a
  // write-validate cache, with per-byte valid bits we do not model: loads only read what was
  // written). Chosen for the VGIW live value cache, whose lines are written before they are read.
  bool write_validate = false;
  // Upstream ports, each taking one request a cycle (a bank still starts one access a cycle): the
  // VGIW L1 and live value cache take one from each load/store or live-value unit (their
  // crossbar to the banks, Voitsechov & Etsion Sec. 3.5).
  uint32_t ports = 1;
  // Every access hits (GPGPU-Sim's perfect-memory idea, for one cache): answered after
  // hit_latency, nothing sent below; banks and ports still limit it. For attribution studies only.
  bool perfect = false;
  std::string replacement = "lru";  // a registered replacement policy
  // Bytes of a sector (0 or line_bytes: unsectored). A sectored line keeps a valid (and dirty)
  // bit per sector; a request hits only if every sector it needs is valid, and a miss fetches
  // only its missing sectors, one request of sector_bytes each (Volta and later: 128 B lines of
  // four 32 B sectors, CUDA C Programming Guide "Compute Capability 7.x: Global Memory";
  // Accel-Sim's sectored caches, Khairy et al. ISCA 2020 Sec. 3).
  uint32_t sector_bytes = 0;
  // A load marked ld.global.cg neither hits nor allocates here: it is sent on as it is and
  // answered when the level below answers (Volta's L1: .cg caches in the L2 only).
  bool bypass_cg = false;
  // An instruction fetch's read miss (AccessKind::Fetch) that takes an MSHR of its own also fetches
  // the next `prefetch_lines` lines that are neither present nor on their way (a stream buffer's
  // next-line prefetch), each into an MSHR that no request waits on; the fill installs the line,
  // and a request for a line still on its way merges into its MSHR (other reads, such as the
  // constant lines an I-cache with a second port reads for the constant cache, start none). At most
  // `prefetch_lines` prefetches are in flight (the stream buffer's entries), in MSHRs beyond
  // `mshrs`. Huerta et al., "Analyzing Modern NVIDIA GPU cores" (arXiv 2503.20481, 2025), Sec. 5.2:
  // the instruction caches of recent NVIDIA cores are prefetched, most likely by a stream buffer of
  // 16 entries that fetches the blocks after a miss; here the lines go into the cache itself rather
  // than into a buffer beside it (chosen). 0: none.
  uint32_t prefetch_lines = 0;
  // An instruction fetch (AccessKind::Fetch) that misses installs its sectors at once and is
  // answered as a hit: the kernel's code is resident here, as if the module's load had left it in
  // the cache (only for the L2; chosen). Measured on the V100 (data/hw-v100), every kernel's DRAM
  // reads exceed the sectors of the data it reads by 0 to 32 (dct8x8's CUDAkernel2DCT: 32,773 for
  // 32,768 of input) although its code spans kilobytes: its code was not read from DRAM. The
  // lines still take their place in the cache and evict others.
  bool resident_fetches = false;
  // Write-back: at most this many lines of a set are dirty (0: no limit). A store that makes one
  // more line dirty writes back the set's line that became dirty first (not the store's own),
  // which stays valid and clean: an eager write-back that leaves the cache with at most
  // max_dirty_ways / assoc of its lines dirty. A fitted parameter: see
  // docs/models/modern-presets.md (volta-v100's L2).
  uint32_t max_dirty_ways = 0;
  // What picks a line's set: "address", the line number's low bits, or "slice", the line number
  // within its L2 slice (the address with the bits that chose the slice taken out, as GPGPU-Sim's
  // L2 indexes sets by the partition address), so that every set of a slice is used. With
  // "address" and interleaving of one or two lines, a slice's lines share their low bits and use
  // a fraction of its sets. Only for the L2; the GPU sets `slices` and `slice_run_bytes` from
  // "partitions" and xbar.interleave_bytes.
  std::string set_index = "address";
  uint32_t slices = 1;
  uint32_t slice_run_bytes = 0;

  uint32_t sets() const {
    return static_cast<uint32_t>(size_bytes / (uint64_t{assoc} * line_bytes));
  }
  bool write_back() const { return write_policy == "write-back"; }
  bool sectored() const { return sector_bytes != 0 && sector_bytes < line_bytes; }

  static CacheSpec from_json(const nlohmann::json& j, const std::string& where,
                             const std::string& path);
  // The keys of `j` over `base`.
  static CacheSpec from_json(const nlohmann::json& j, const std::string& where,
                             const std::string& path, const CacheSpec& base);
};

}  // namespace gputlm::mem
