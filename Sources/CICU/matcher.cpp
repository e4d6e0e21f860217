// The CLDR locale matcher (icu::LocaleMatcher), built once from the supported list (docs/design.md#what-icu-costs).
#include "lookd_icu.h"
#include "shim_util.h"
#include <unicode/localematcher.h>
#include <new>
#include <vector>

struct lookd_matcher {
    icu::LocaleMatcher matcher;
    int32_t default_index;
    explicit lookd_matcher(icu::LocaleMatcher &&m, int32_t d) : matcher(std::move(m)), default_index(d) {}
};

extern "C" lookd_matcher *lookd_matcher_create(const char *const *tags, const int32_t *lengths, int32_t count,
                                               int32_t default_index, int32_t *error_code) {
    UErrorCode status = U_ZERO_ERROR;
    if (count <= 0 || default_index < 0 || default_index >= count) {
        *error_code = U_ILLEGAL_ARGUMENT_ERROR;
        return nullptr;
    }
    std::vector<icu::Locale> supported;
    supported.reserve(static_cast<size_t>(count));
    for (int32_t i = 0; i < count; i++) {
        icu::Locale locale = icu::Locale::forLanguageTag(icu::StringPiece(tags[i], lengths[i]), status);
        if (U_FAILURE(status)) {
            *error_code = status;
            return nullptr;
        }
        supported.push_back(locale);
    }
    icu::LocaleMatcher matcher = icu::LocaleMatcher::Builder()
                                     .setSupportedLocales(supported.begin(), supported.end())
                                     .setDefaultLocale(&supported[static_cast<size_t>(default_index)])
                                     .build(status);
    if (U_FAILURE(status)) {
        *error_code = status;
        return nullptr;
    }
    *error_code = U_ZERO_ERROR;
    return new (std::nothrow) lookd_matcher(std::move(matcher), default_index);
}

extern "C" void lookd_matcher_destroy(lookd_matcher *matcher) { delete matcher; }

extern "C" int32_t lookd_matcher_best_for_tag(const lookd_matcher *matcher, const char *tag, int32_t length,
                                              int32_t *matched) {
    if (matched != nullptr) *matched = 0;
    if (length <= 0) return matcher->default_index;
    icu::Locale desired = lookd_shim::locale_from_tag(tag, length);
    if (desired.isBogus()) return matcher->default_index;
    UErrorCode status = U_ZERO_ERROR;
    icu::LocaleMatcher::Result result = matcher->matcher.getBestMatchResult(desired, status);
    if (U_FAILURE(status) || result.getSupportedIndex() < 0) return matcher->default_index;
    if (matched != nullptr) *matched = result.getDesiredIndex() >= 0 ? 1 : 0;
    return result.getSupportedIndex();
}

extern "C" int32_t lookd_matcher_best_for_tags(const lookd_matcher *matcher, const char *const *tags,
                                               const int32_t *lengths, int32_t count, int32_t *matched) {
    if (matched != nullptr) *matched = 0;
    std::vector<icu::Locale> desired;
    desired.reserve(count > 0 ? static_cast<size_t>(count) : 0);
    for (int32_t i = 0; i < count; i++) {
        if (lengths[i] <= 0) continue;
        icu::Locale locale = lookd_shim::locale_from_tag(tags[i], lengths[i]);
        if (!locale.isBogus()) desired.push_back(locale);
    }
    if (desired.empty()) return matcher->default_index;
    UErrorCode status = U_ZERO_ERROR;
    icu::Locale::RangeIterator<std::vector<icu::Locale>::const_iterator> iterator(desired.begin(), desired.end());
    icu::LocaleMatcher::Result result = matcher->matcher.getBestMatchResult(iterator, status);
    if (U_FAILURE(status) || result.getSupportedIndex() < 0) return matcher->default_index;
    if (matched != nullptr) *matched = result.getDesiredIndex() >= 0 ? 1 : 0;
    return result.getSupportedIndex();
}
