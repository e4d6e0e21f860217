// Internal: fills the public lookd_parse_error from ICU's UParseError.
#ifndef LOOKD_PARSE_ERROR_H
#define LOOKD_PARSE_ERROR_H
#include "lookd_icu.h"
#include <unicode/parseerr.h>
#include <unicode/unistr.h>
#include <cstdio>

namespace lookd_shim {
inline void fill_parse_error(lookd_parse_error *error, UErrorCode status, const UParseError &parse,
                             const icu::UnicodeString &pattern) {
    if (error == nullptr) return;
    error->error_code = static_cast<int32_t>(status);
    error->line = parse.line;
    error->offset = parse.offset;
    // MessageFormat reports line 0 and an offset from the pattern's start (UTF-16 units); turn it into code points.
    int32_t utf16 = parse.offset < 0 ? 0 : parse.offset;
    if (utf16 > pattern.length()) utf16 = pattern.length();
    error->code_point_offset = pattern.countChar32(0, utf16);
    std::snprintf(error->message, sizeof error->message, "%s", u_errorName(status));
}
} // namespace lookd_shim
#endif
