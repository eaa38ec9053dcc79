// Backs the process's heap with transparent huge pages where Linux offers them on request
// (/sys/kernel/mm/transparent_hugepage/enabled set to "madvise", Debian's default): a timed run
// of a large GPU touches hundreds of megabytes of model state (132 SMs' pipelines, caches and warp
// slots, 160 DRAM channels), and with 4-KB pages each of its first touches is a page fault and
// each cycle's scattered accesses a TLB miss. The same as glibc's tunable
// GLIBC_TUNABLES=glibc.malloc.hugetlb=1, done from inside the process: the heap is grown once by
// a large pad (virtual memory; only what is touched becomes resident) and that range marked
// MADV_HUGEPAGE. Statistics do not depend on it (nothing a model decides depends on an address).
// GPUTLM_HUGE_PAGES=0 in the environment turns it off.
#pragma once

#include <cstddef>

namespace gputlm::app {

// Call once at the start of main, before the models allocate. Returns the bytes of heap marked
// for huge pages (0: off, not Linux, or the kernel refused).
size_t prefer_huge_pages();

}  // namespace gputlm::app
