// Plural facts for the translation linter (lookd_lint_plural_categories in lookd_icu.h): a locale's cardinal or
// ordinal categories and the category of every integer in a range, in one call.
#include "lookd_icu.h"
#include "shim_util.h"
#include <unicode/plurrule.h>
#include <memory>

namespace {
const char16_t *const kOrder[] = {u"zero", u"one", u"two", u"few", u"many", u"other"};

int32_t category_index(const icu::UnicodeString &keyword) {
    for (int32_t i = 0; i < 6; i++) {
        if (keyword == kOrder[i]) return i;
    }
    return 5;
}
} // namespace

extern "C" int32_t lookd_lint_plural_categories(const char *tag, int32_t length, int32_t ordinal, int32_t max_integer,
                                                uint8_t *selected) {
    icu::Locale locale = lookd_shim::locale_from_tag(tag, length);
    if (locale.isBogus()) return -static_cast<int32_t>(U_ILLEGAL_ARGUMENT_ERROR);
    UErrorCode status = U_ZERO_ERROR;
    std::unique_ptr<icu::PluralRules> rules(
        icu::PluralRules::forLocale(locale, ordinal ? UPLURAL_TYPE_ORDINAL : UPLURAL_TYPE_CARDINAL, status));
    if (U_FAILURE(status) || !rules) return -static_cast<int32_t>(U_FAILURE(status) ? status : U_MEMORY_ALLOCATION_ERROR);
    int32_t mask = 0;
    for (int32_t i = 0; i < 6; i++) {
        if (rules->isKeyword(icu::UnicodeString(kOrder[i]))) mask |= 1 << i;
    }
    for (int32_t n = 0; n <= max_integer; n++) {
        selected[n] = static_cast<uint8_t>(category_index(rules->select(n)));
    }
    return mask;
}
