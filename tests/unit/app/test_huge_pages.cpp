// app::prefer_huge_pages: the heap it grows is marked for transparent huge pages (VmFlags "hg" in
// /proc/self/smaps), where the kernel offers them on request; GPUTLM_HUGE_PAGES=0 turns it off.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "app/huge_pages.h"
#include "support/asan.h"

namespace {

std::string thp_mode() {
  std::ifstream f("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string s;
  std::getline(f, s);
  return s;
}

// The VmFlags of the mapping that holds `address` ("" if none).
std::string vm_flags_of(uintptr_t address) {
  std::ifstream smaps("/proc/self/smaps");
  bool inside = false;
  for (std::string line; std::getline(smaps, line);) {
    uintptr_t lo = 0, hi = 0;
    char dash = 0;
    std::istringstream head(line);
    if (head >> std::hex >> lo >> dash >> hi && dash == '-') {
      inside = lo <= address && address < hi;
      continue;
    }
    if (inside && line.rfind("VmFlags:", 0) == 0) return line;
  }
  return "";
}

TEST(HugePages, TheGrownHeapIsMarkedForHugePagesUnlessTurnedOff) {
#ifdef GPUTLM_ASAN
  GTEST_SKIP() << "AddressSanitizer's allocator is not glibc's heap";
#endif
  const std::string mode = thp_mode();
  if (mode.empty() || mode.find("[never]") != std::string::npos)
    GTEST_SKIP() << "no transparent huge pages on this kernel: " << mode;
  setenv("GPUTLM_HUGE_PAGES", "0", 1);
  EXPECT_EQ(gputlm::app::prefer_huge_pages(), 0u);
  unsetenv("GPUTLM_HUGE_PAGES");
  const size_t marked = gputlm::app::prefer_huge_pages();
  ASSERT_GE(marked, size_t{512} << 20) << "the heap grew by less than its pad";
  // A block allocated now lies in the marked range.
  void* block = std::malloc(size_t{8} << 20);
  ASSERT_NE(block, nullptr);
  const std::string flags = vm_flags_of(reinterpret_cast<uintptr_t>(block) + (size_t{4} << 20));
  EXPECT_NE(flags.find(" hg"), std::string::npos) << flags;
  std::free(block);
}

}  // namespace
