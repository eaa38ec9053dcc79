// GPUTLM_ASAN is defined when the test is built with AddressSanitizer (clang's __has_feature or
// gcc's __SANITIZE_ADDRESS__): its allocator and shadow memory rule out what a test of the heap or
// of large mappings checks.
#pragma once

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define GPUTLM_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) && !defined(GPUTLM_ASAN)
#define GPUTLM_ASAN 1
#endif
