// Internal helpers shared by the shim's .cpp files. Not part of the public header (it includes ICU).
#ifndef LOOKD_SHIM_UTIL_H
#define LOOKD_SHIM_UTIL_H
#include <unicode/locid.h>
#include <unicode/stringpiece.h>
#include <unicode/unistr.h>
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

/// Writes a UnicodeString as UTF-8 into buffer; returns the UTF-8 length it needs. A direct loop (no ByteSink
/// virtual calls): most messages are short, and this runs on every format. Unpaired surrogates become U+FFFD.
inline int32_t copy_out(const icu::UnicodeString &text, char *buffer, int32_t capacity) {
    const char16_t *units = text.getBuffer();
    int32_t count = text.length();
    if (units == nullptr) return 0;
    // Fast path: the output surely fits (a UTF-16 unit never needs more than 3 UTF-8 bytes; a surrogate pair
    // needs 4 for 2 units), so no per-byte bounds checks.
    if (static_cast<int64_t>(count) * 3 <= capacity) {
        unsigned char *out = reinterpret_cast<unsigned char *>(buffer);
        int32_t at = 0;
        for (int32_t i = 0; i < count; i++) {
            uint32_t c = units[i];
            if (c < 0x80) {
                out[at++] = static_cast<unsigned char>(c);
            } else if (c < 0x800) {
                out[at++] = static_cast<unsigned char>(0xC0 | (c >> 6));
                out[at++] = static_cast<unsigned char>(0x80 | (c & 0x3F));
            } else if (c >= 0xD800 && c <= 0xDBFF && i + 1 < count && units[i + 1] >= 0xDC00 && units[i + 1] <= 0xDFFF) {
                c = 0x10000 + ((c - 0xD800) << 10) + (units[i + 1] - 0xDC00);
                i++;
                out[at++] = static_cast<unsigned char>(0xF0 | (c >> 18));
                out[at++] = static_cast<unsigned char>(0x80 | ((c >> 12) & 0x3F));
                out[at++] = static_cast<unsigned char>(0x80 | ((c >> 6) & 0x3F));
                out[at++] = static_cast<unsigned char>(0x80 | (c & 0x3F));
            } else {
                if (c >= 0xD800 && c <= 0xDFFF) c = 0xFFFD; // unpaired surrogate
                out[at++] = static_cast<unsigned char>(0xE0 | (c >> 12));
                out[at++] = static_cast<unsigned char>(0x80 | ((c >> 6) & 0x3F));
                out[at++] = static_cast<unsigned char>(0x80 | (c & 0x3F));
            }
        }
        return at;
    }
    int32_t written = 0;
    auto put = [&](uint8_t byte) {
        if (written < capacity) buffer[written] = static_cast<char>(byte);
        written++;
    };
    for (int32_t i = 0; i < count; i++) {
        uint32_t c = units[i];
        if (c < 0x80) {
            put(static_cast<uint8_t>(c));
            continue;
        }
        if (c >= 0xD800 && c <= 0xDBFF && i + 1 < count && units[i + 1] >= 0xDC00 && units[i + 1] <= 0xDFFF) {
            c = 0x10000 + ((c - 0xD800) << 10) + (units[i + 1] - 0xDC00);
            i++;
        } else if (c >= 0xD800 && c <= 0xDFFF) {
            c = 0xFFFD;
        }
        if (c < 0x800) {
            put(static_cast<uint8_t>(0xC0 | (c >> 6)));
            put(static_cast<uint8_t>(0x80 | (c & 0x3F)));
        } else if (c < 0x10000) {
            put(static_cast<uint8_t>(0xE0 | (c >> 12)));
            put(static_cast<uint8_t>(0x80 | ((c >> 6) & 0x3F)));
            put(static_cast<uint8_t>(0x80 | (c & 0x3F)));
        } else {
            put(static_cast<uint8_t>(0xF0 | (c >> 18)));
            put(static_cast<uint8_t>(0x80 | ((c >> 12) & 0x3F)));
            put(static_cast<uint8_t>(0x80 | ((c >> 6) & 0x3F)));
            put(static_cast<uint8_t>(0x80 | (c & 0x3F)));
        }
    }
    return written;
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
