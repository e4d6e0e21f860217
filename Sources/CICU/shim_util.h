// Internal helpers shared by the shim's .cpp files. Not part of the public header (it includes ICU).
#ifndef LOOKD_SHIM_UTIL_H
#define LOOKD_SHIM_UTIL_H
#include <unicode/locid.h>
#include <unicode/stringpiece.h>
#include <unicode/unistr.h>
#include <unicode/bytestream.h>
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

/// Writes a UnicodeString as UTF-8 into buffer; returns the UTF-8 length it needs.
inline int32_t copy_out(const icu::UnicodeString &text, char *buffer, int32_t capacity) {
    // Fast path: convert straight into the caller's buffer when it is big enough (the usual case).
    icu::CheckedArrayByteSink sink(buffer, capacity > 0 ? capacity : 0);
    text.toUTF8(sink);
    if (!sink.Overflowed()) return sink.NumberOfBytesWritten();
    return sink.NumberOfBytesAppended();
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
