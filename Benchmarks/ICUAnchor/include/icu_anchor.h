#ifndef ICU_ANCHOR_H
#define ICU_ANCHOR_H
/* Bench-only: the same operations as the Strings library, done with raw ICU C++ in a tight C++ loop, so
 * lookd-bench can print the library's cost beside ICU's own in the same run. No ICU type in this header. */
#include <stdint.h>
#ifdef __cplusplus
extern "C" {
#endif

/** ns per icu::MessageFormat::format of a pre-parsed pattern with one pre-built int64 argument `name`,
 *  over `iterations` calls (after a warm-up). `mode`: 0 format only (result in a reused UnicodeString);
 *  1 format + toUTF8String (what a caller receiving UTF-8 pays); 2 lock a std::mutex around format;
 *  3 clone the MessageFormat per call (the alternative to locking for thread safety).
 *  Negative on a parse or format error. */
double icu_anchor_message_format_ns(const char *pattern, const char *locale, const char *name, int64_t value,
                                    int32_t mode, int64_t iterations);

/** ns per lookd_message_format (the CICU shim, no Swift) for the same message and argument, output UTF-8 into a
 *  256-byte buffer: separates the shim's cost from Swift's in the `strings` suite. */
double icu_anchor_shim_format_ns(const char *pattern, const char *locale, const char *name, int64_t value,
                                 int64_t iterations);

/** ns per icu::LocaleMatcher::getBestMatchResult for `desired` against the given supported tags (matcher
 *  built once, default = supported[default_index]). `parse_each_time`: 1 parses the tag with
 *  Locale::forLanguageTag on every call (what a caller holding a string pays), 0 uses a pre-parsed Locale.
 *  `best_index` receives the supported index of the answer. */
double icu_anchor_matcher_ns(const char *const *supported, int32_t count, int32_t default_index, const char *desired,
                             int32_t parse_each_time, int64_t iterations, int32_t *best_index);

#ifdef __cplusplus
}
#endif
#endif
