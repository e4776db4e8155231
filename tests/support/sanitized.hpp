// Whether this translation unit is built under a sanitizer (GCC's __SANITIZE_*__ macros, clang's
// __has_feature). Stress tests that repeat one check many times run fewer rounds there: the
// sanitizer slows each round 5-20 times, and the code each round covers is the same.
#pragma once

namespace gpu500::test {

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
inline constexpr bool sanitized_build = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
inline constexpr bool sanitized_build = true;
#else
inline constexpr bool sanitized_build = false;
#endif
#else
inline constexpr bool sanitized_build = false;
#endif

}  // namespace gpu500::test
