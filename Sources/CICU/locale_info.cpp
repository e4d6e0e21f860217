// Facts about a locale from ICU's data: well-formedness, canonical form, likely subtags, CLDR parent,
// native display name, direction.
#include "lookd_icu.h"
#include "shim_util.h"
#include <unicode/uenum.h>
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
    const char *name = locale.getBaseName();
    if (name == nullptr || *name == 0 || std::strlen(name) >= ULOC_FULLNAME_CAPACITY) return 0;
    // Never ures_openDirect: in ICU 72 it spins forever on some alias bundles (no_NO), and it caches a bundle's
    // parent by truncation, skipping "%%Parent" for one-subtag locales — after ures_openDirect("nb") every later
    // ures_open("nb") in the process (MessageFormat's date data too) falls back from nb straight to root.
    // ures_open resolves "%%ALIAS" and loads parents as CLDR says; "%%Parent" (CLDR's parentLocales) counts only
    // when it is this very bundle's own: not reached by fallback, alias or default locale.
    UErrorCode status = U_ZERO_ERROR;
    UResourceBundle *bundle = ures_open(nullptr, name, &status);
    UErrorCode actual_status = U_ZERO_ERROR;
    const char *actual = U_SUCCESS(status) ? ures_getLocaleByType(bundle, ULOC_ACTUAL_LOCALE, &actual_status) : nullptr;
    if (status != U_ZERO_ERROR || U_FAILURE(actual_status) || actual == nullptr || std::strcmp(actual, name) != 0) {
        ures_close(bundle);
        return 0;
    }
    UResourceBundle *entry = ures_getByKey(bundle, "%%Parent", nullptr, &status);
    int32_t parent_length = 0;
    const UChar *parent = status == U_ZERO_ERROR ? ures_getString(entry, &parent_length, &status) : nullptr;
    char id[ULOC_FULLNAME_CAPACITY];
    bool own = status == U_ZERO_ERROR && parent != nullptr && parent_length > 0 && parent_length < ULOC_FULLNAME_CAPACITY;
    if (own) {
        u_UCharsToChars(parent, id, parent_length);
        id[parent_length] = 0;
    }
    ures_close(entry);
    ures_close(bundle);
    if (!own) return 0;
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

extern "C" int32_t lookd_locale_available_ids(char *buffer, int32_t capacity) {
    UErrorCode status = U_ZERO_ERROR;
    UEnumeration *ids = uloc_openAvailableByType(ULOC_AVAILABLE_WITH_LEGACY_ALIASES, &status);
    if (U_FAILURE(status)) return -static_cast<int32_t>(status);
    std::string list;
    int32_t length = 0;
    while (const char *id = uenum_next(ids, &length, &status)) {
        if (!list.empty()) list += ' ';
        list.append(id, static_cast<size_t>(length));
    }
    uenum_close(ids);
    if (U_FAILURE(status)) return -static_cast<int32_t>(status);
    return copy_out(list, buffer, capacity);
}
