// CLDR cardinal plural rules of a locale (icu::PluralRules). Selection of non-integers goes through
// icu::number so the visible fraction digits (CLDR's operands v, f, t) are the ones a formatter would show.
#include "lookd_icu.h"
#include "shim_util.h"
#include <unicode/numberformatter.h>
#include <unicode/plurrule.h>
#include <memory>
#include <new>
#include <string>

using lookd_shim::copy_out;

struct lookd_plural_rules {
    std::unique_ptr<icu::PluralRules> rules;
    icu::number::LocalizedNumberFormatter shortest; // immutable, thread-safe
    icu::Locale locale;
};

namespace {
const char *const kOrder[] = {"zero", "one", "two", "few", "many", "other"};

int32_t write_keyword(const icu::UnicodeString &keyword, char *buffer, int32_t capacity) {
    return copy_out(keyword, buffer, capacity);
}
} // namespace

extern "C" lookd_plural_rules *lookd_plural_rules_open(const char *tag, int32_t length, int32_t *error_code) {
    icu::Locale locale = lookd_shim::locale_from_tag(tag, length);
    if (locale.isBogus()) {
        *error_code = U_ILLEGAL_ARGUMENT_ERROR;
        return nullptr;
    }
    UErrorCode status = U_ZERO_ERROR;
    std::unique_ptr<icu::PluralRules> rules(icu::PluralRules::forLocale(locale, UPLURAL_TYPE_CARDINAL, status));
    if (U_FAILURE(status) || !rules) {
        *error_code = U_FAILURE(status) ? status : U_MEMORY_ALLOCATION_ERROR;
        return nullptr;
    }
    auto *result = new (std::nothrow) lookd_plural_rules{
        std::move(rules),
        icu::number::NumberFormatter::withLocale(locale).precision(icu::number::Precision::unlimited()),
        locale};
    *error_code = result ? U_ZERO_ERROR : U_MEMORY_ALLOCATION_ERROR;
    return result;
}

extern "C" void lookd_plural_rules_close(lookd_plural_rules *rules) { delete rules; }

extern "C" int32_t lookd_plural_rules_select_int(const lookd_plural_rules *rules, int64_t value, char *buffer,
                                                 int32_t capacity) {
    if (value >= -(int64_t(1) << 52) && value <= (int64_t(1) << 52)) {
        return write_keyword(rules->rules->select(static_cast<double>(value)), buffer, capacity);
    }
    UErrorCode status = U_ZERO_ERROR;
    icu::number::FormattedNumber formatted = rules->shortest.formatInt(value, status);
    if (U_FAILURE(status)) return -static_cast<int32_t>(status);
    icu::UnicodeString keyword = rules->rules->select(formatted, status);
    if (U_FAILURE(status)) return -static_cast<int32_t>(status);
    return write_keyword(keyword, buffer, capacity);
}

extern "C" int32_t lookd_plural_rules_select_double(const lookd_plural_rules *rules, double value,
                                                    int32_t fraction_digits, char *buffer, int32_t capacity) {
    UErrorCode status = U_ZERO_ERROR;
    icu::number::FormattedNumber formatted =
        fraction_digits < 0
            ? rules->shortest.formatDouble(value, status)
            : icu::number::NumberFormatter::withLocale(rules->locale)
                  .precision(icu::number::Precision::fixedFraction(fraction_digits > 20 ? 20 : fraction_digits))
                  .formatDouble(value, status);
    if (U_FAILURE(status)) return -static_cast<int32_t>(status);
    icu::UnicodeString keyword = rules->rules->select(formatted, status);
    if (U_FAILURE(status)) return -static_cast<int32_t>(status);
    return write_keyword(keyword, buffer, capacity);
}

extern "C" int32_t lookd_plural_rules_keywords(const lookd_plural_rules *rules, char *buffer, int32_t capacity) {
    std::string text;
    for (const char *keyword : kOrder) {
        if (rules->rules->isKeyword(icu::UnicodeString(keyword, -1, US_INV))) {
            if (!text.empty()) text += ' ';
            text += keyword;
        }
    }
    return copy_out(text, buffer, capacity);
}

extern "C" int32_t lookd_plural_rules_integer_keywords(const lookd_plural_rules *rules, int32_t max_integer,
                                                       char *buffer, int32_t capacity) {
    bool seen[6] = {false, false, false, false, false, false};
    for (int32_t n = 0; n <= max_integer; n++) {
        icu::UnicodeString keyword = rules->rules->select(static_cast<int32_t>(n));
        for (int i = 0; i < 6; i++) {
            if (keyword == icu::UnicodeString(kOrder[i], -1, US_INV)) seen[i] = true;
        }
    }
    std::string text;
    for (int i = 0; i < 6; i++) {
        if (!seen[i]) continue;
        if (!text.empty()) text += ' ';
        text += kOrder[i];
    }
    return copy_out(text, buffer, capacity);
}
