// Facts about a locale from ICU's data: well-formedness, canonical form, likely subtags, CLDR parent,
// native display name, direction.
#include "lookd_icu.h"
#include "shim_util.h"
#include <unicode/uloc.h>
#include <unicode/ures.h>
#include <unicode/ustring.h>

using lookd_shim::copy_out;
using lookd_shim::locale_from_tag;

namespace {
int32_t write_tag(const icu::Locale &locale, char *buffer, int32_t capacity) {
    UErrorCode status = U_ZERO_ERROR;
    std::string tag = locale.toLanguageTag<std::string>(status);
    if (U_FAILURE(status)) return -static_cast<int32_t>(status);
    return copy_out(tag, buffer, capacity);
}
} // namespace

extern "C" int32_t lookd_locale_is_well_formed(const char *tag, int32_t length) {
    if (length <= 0) return 0;
    return locale_from_tag(tag, length).isBogus() ? 0 : 1;
}

extern "C" int32_t lookd_locale_canonicalize(const char *tag, int32_t length, char *buffer, int32_t capacity) {
    icu::Locale locale = locale_from_tag(tag, length);
    if (locale.isBogus()) return -static_cast<int32_t>(U_ILLEGAL_ARGUMENT_ERROR);
    // forLanguageTag already maps grandfathered and deprecated codes (iw -> he); createCanonical also applies
    // CLDR's alias data (e.g. sh -> sr-Latn).
    icu::Locale canonical = icu::Locale::createCanonical(locale.getName());
    if (canonical.isBogus()) return -static_cast<int32_t>(U_ILLEGAL_ARGUMENT_ERROR);
    return write_tag(canonical, buffer, capacity);
}

extern "C" int32_t lookd_locale_maximize(const char *tag, int32_t length, char *buffer, int32_t capacity) {
    icu::Locale locale = locale_from_tag(tag, length);
    if (locale.isBogus()) return -static_cast<int32_t>(U_ILLEGAL_ARGUMENT_ERROR);
    UErrorCode status = U_ZERO_ERROR;
    locale.addLikelySubtags(status);
    if (U_FAILURE(status)) return -static_cast<int32_t>(status);
    return write_tag(locale, buffer, capacity);
}

extern "C" int32_t lookd_locale_explicit_parent(const char *tag, int32_t length, char *buffer, int32_t capacity) {
    icu::Locale locale = locale_from_tag(tag, length);
    if (locale.isBogus()) return -static_cast<int32_t>(U_ILLEGAL_ARGUMENT_ERROR);
    UErrorCode status = U_ZERO_ERROR;
    // ures_openDirect opens exactly this locale's bundle, without fallback; "%%Parent" is CLDR's parentLocales.
    UResourceBundle *bundle = ures_openDirect(nullptr, locale.getBaseName(), &status);
    if (U_FAILURE(status)) {
        ures_close(bundle);
        return 0;
    }
    int32_t parent_length = 0;
    const UChar *parent = ures_getStringByKey(bundle, "%%Parent", &parent_length, &status);
    if (U_FAILURE(status) || parent_length <= 0 || parent_length >= ULOC_FULLNAME_CAPACITY) {
        ures_close(bundle);
        return 0;
    }
    char id[ULOC_FULLNAME_CAPACITY];
    u_UCharsToChars(parent, id, parent_length);
    id[parent_length] = 0;
    ures_close(bundle);
    if (std::strcmp(id, "root") == 0) return copy_out("root", 4, buffer, capacity);
    return write_tag(icu::Locale(id), buffer, capacity);
}

extern "C" int32_t lookd_locale_native_name(const char *tag, int32_t length, char *buffer, int32_t capacity) {
    icu::Locale locale = locale_from_tag(tag, length);
    if (locale.isBogus()) return -static_cast<int32_t>(U_ILLEGAL_ARGUMENT_ERROR);
    icu::UnicodeString name;
    locale.getDisplayName(locale, name);
    return copy_out(name, buffer, capacity);
}

extern "C" int32_t lookd_locale_is_rtl(const char *tag, int32_t length) {
    icu::Locale locale = locale_from_tag(tag, length);
    if (locale.isBogus()) return 0;
    return locale.isRightToLeft() ? 1 : 0;
}
