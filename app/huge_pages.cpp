#include "app/huge_pages.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>

#if defined(__linux__) && defined(__GLIBC__)
#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace gputlm::app {

size_t prefer_huge_pages() {
#if defined(__linux__) && defined(__GLIBC__) && defined(MADV_HUGEPAGE)
  if (const char* v = std::getenv("GPUTLM_HUGE_PAGES"); v && std::strcmp(v, "0") == 0) return 0;
  constexpr size_t kHuge = size_t{2} << 20;  // x86-64's and arm64's (4-KB granule) huge page
  // The heap grows by this much beyond what is asked each time it grows, and gives nothing back
  // (a trim would return huge pages only to fault them in again); blocks up to glibc's largest
  // mmap threshold (32 MB) come from it rather than from a mapping of their own.
  constexpr size_t kPad = size_t{1} << 30;
  if (mallopt(M_TOP_PAD, static_cast<int>(kPad)) == 0 ||
      mallopt(M_TRIM_THRESHOLD, static_cast<int>(kPad)) == 0 ||
      mallopt(M_MMAP_THRESHOLD, 32 << 20) == 0)
    return 0;
  const auto begin = reinterpret_cast<uintptr_t>(sbrk(0));
  // Grow the heap now: a block too large for the top chunk makes malloc extend it by the pad.
  void* grow = std::malloc(kHuge);
  if (grow == nullptr) return 0;
  std::free(grow);
  const auto end = reinterpret_cast<uintptr_t>(sbrk(0));
  const uintptr_t first = (begin + kHuge - 1) & ~(kHuge - 1);
  const uintptr_t last = end & ~(kHuge - 1);
  if (last <= first) return 0;  // the heap did not grow (sbrk refused: malloc fell back to mmap)
  if (madvise(reinterpret_cast<void*>(first), last - first, MADV_HUGEPAGE) != 0) return 0;
  return last - first;
#else
  return 0;
#endif
}

}  // namespace gputlm::app
