// Internal: the bound on how deeply a MessageFormat pattern may nest, checked before any ICU parser recurses on
// it on the caller's stack (docs/hardening.md#nesting-limits).
#ifndef LOOKD_NESTING_GUARD_H
#define LOOKD_NESTING_GUARD_H
#include "lookd_icu.h"
#include <unicode/unistr.h>

namespace lookd_shim {
/// Whether `text` may be handed to icu::MessagePattern / icu::MessageFormat on the calling thread.
/// Returns U_ZERO_ERROR when the pattern nests at most LOOKD_MESSAGE_NESTING_LIMIT levels. Returns a failure with
/// *error (when not NULL) filled in when it nests deeper (error name "LOOKD_NESTING_TOO_DEEP", code U_INDEX_OUTOFBOUNDS_ERROR, offset
/// at the sub-message that goes past the limit), or when ICU's own parse of it failed (ICU's error).
/// Thread-safe. A pattern with at most LOOKD_MESSAGE_NESTING_LIMIT `{` costs one scan of its text; a longer one
/// is parsed once by ICU on a short-lived thread with a stack big enough for ICU's own ceiling (32,767 levels).
UErrorCode check_nesting(const icu::UnicodeString &text, lookd_parse_error *error);
} // namespace lookd_shim
#endif
