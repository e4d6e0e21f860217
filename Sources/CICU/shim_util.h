// Internal helpers shared by the shim's .cpp files. Not part of the public header (it includes ICU).
#ifndef LOOKD_SHIM_UTIL_H
#define LOOKD_SHIM_UTIL_H
#include <unicode/locid.h>
#include <unicode/stringpiece.h>
#include <unicode/unistr.h>
#include <unicode/ustring.h>
#include <cstring>
#include <string>

namespace lookd_shim {

/// Copies `length` bytes into buffer (as many as fit) and returns `length`.
inline int32_t copy_out(const char *bytes, int32_t length, char *buffer, int32_t capacity) {
    if (buffer != nullptr && capacity > 0) {
        std::memcpy(buffer, bytes, static_cast<size_t>(length < capacity ? length : capacity));
    }
    return length;
}

inline int32_t copy_out(const std::string &text, char *buffer, int32_t capacity) {
    return copy_out(text.data(), static_cast<int32_t>(text.size()), buffer, capacity);
}

/// Writes UTF-16 `units[0, count)` as UTF-8 into buffer with ICU's converter (unpaired surrogates become U+FFFD);
/// returns the UTF-8 length it needs. When that is more than `capacity`, the buffer holds a prefix.
inline int32_t copy_out(const char16_t *units, int32_t count, char *buffer, int32_t capacity) {
    if (units == nullptr || count <= 0) return 0;
    UErrorCode status = U_ZERO_ERROR;
    int32_t needed = 0;
    u_strToUTF8WithSub(capacity > 0 ? buffer : nullptr, capacity > 0 ? capacity : 0, &needed, units, count, 0xFFFD,
                       nullptr, &status);
    if (U_FAILURE(status) && status != U_BUFFER_OVERFLOW_ERROR) return -static_cast<int32_t>(status);
    return needed;
}

inline int32_t copy_out(const icu::UnicodeString &text, char *buffer, int32_t capacity) {
    return copy_out(text.getBuffer(), text.length(), buffer, capacity);
}

/// UTF-16 `units[0, count)` as a UTF-8 string (unpaired surrogates become U+FFFD).
inline std::string utf8(const char16_t *units, int32_t count) {
    std::string result;
    int32_t needed = copy_out(units, count, nullptr, 0);
    if (needed <= 0) return result;
    result.resize(static_cast<size_t>(needed));
    copy_out(units, count, &result[0], needed);
    return result;
}

/// Parses a BCP 47 tag. Returns a bogus Locale when ICU cannot parse all of it.
inline icu::Locale locale_from_tag(const char *tag, int32_t length) {
    UErrorCode status = U_ZERO_ERROR;
    icu::Locale locale = icu::Locale::forLanguageTag(icu::StringPiece(tag, length), status);
    if (U_FAILURE(status)) {
        icu::Locale bogus;
        bogus.setToBogus();
        return bogus;
    }
    return locale;
}

} // namespace lookd_shim
#endif
