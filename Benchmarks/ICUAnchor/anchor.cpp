#include "icu_anchor.h"
#include "lookd_icu.h"
#include <cstring>
#include <unicode/fmtable.h>
#include <unicode/localematcher.h>
#include <unicode/locid.h>
#include <unicode/msgfmt.h>
#include <chrono>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace {
volatile int64_t sink; // keeps results alive so the optimiser cannot drop the work

template <typename Body> double time_ns(int64_t iterations, Body body) {
    for (int64_t i = 0; i < iterations / 10 + 1; i++) body(); // warm-up
    auto start = std::chrono::steady_clock::now();
    for (int64_t i = 0; i < iterations; i++) body();
    auto end = std::chrono::steady_clock::now();
    return std::chrono::duration<double, std::nano>(end - start).count() / static_cast<double>(iterations);
}
} // namespace

extern "C" double icu_anchor_message_format_ns(const char *pattern, const char *locale, const char *name,
                                               int64_t value, int32_t mode, int64_t iterations) {
    UErrorCode status = U_ZERO_ERROR;
    UParseError parse;
    icu::MessageFormat format(icu::UnicodeString::fromUTF8(pattern), icu::Locale::forLanguageTag(locale, status),
                              parse, status);
    if (U_FAILURE(status)) return -1;
    const icu::UnicodeString names[] = {icu::UnicodeString::fromUTF8(name)};
    const icu::Formattable arguments[] = {icu::Formattable(value)};
    icu::UnicodeString result;
    std::string utf8;
    std::mutex lock;
    bool failed = false;
    double ns = time_ns(iterations, [&] {
        UErrorCode error = U_ZERO_ERROR;
        result.remove();
        switch (mode) {
        case 0:
            format.format(names, arguments, 1, result, error);
            break;
        case 1:
            format.format(names, arguments, 1, result, error);
            utf8.clear();
            result.toUTF8String(utf8);
            sink = static_cast<int64_t>(utf8.size());
            break;
        case 2: {
            std::lock_guard<std::mutex> guard(lock);
            format.format(names, arguments, 1, result, error);
            break;
        }
        default: {
            std::unique_ptr<icu::MessageFormat> copy(format.clone());
            copy->format(names, arguments, 1, result, error);
            break;
        }
        }
        sink = result.length();
        failed = failed || U_FAILURE(error);
    });
    return failed ? -2 : ns;
}

extern "C" double icu_anchor_matcher_ns(const char *const *supported, int32_t count, int32_t default_index,
                                        const char *desired, int32_t parse_each_time, int64_t iterations,
                                        int32_t *best_index) {
    UErrorCode status = U_ZERO_ERROR;
    std::vector<icu::Locale> locales;
    for (int32_t i = 0; i < count; i++) locales.push_back(icu::Locale::forLanguageTag(supported[i], status));
    icu::LocaleMatcher matcher = icu::LocaleMatcher::Builder()
                                     .setSupportedLocales(locales.begin(), locales.end())
                                     .setDefaultLocale(&locales[static_cast<size_t>(default_index)])
                                     .build(status);
    if (U_FAILURE(status)) return -1;
    icu::Locale parsed = icu::Locale::forLanguageTag(desired, status);
    if (U_FAILURE(status)) return -1;
    std::string tag(desired);
    int32_t index = -1;
    double ns = time_ns(iterations, [&] {
        UErrorCode error = U_ZERO_ERROR;
        if (parse_each_time) {
            icu::Locale locale = icu::Locale::forLanguageTag(tag, error);
            index = matcher.getBestMatchResult(locale, error).getSupportedIndex();
        } else {
            index = matcher.getBestMatchResult(parsed, error).getSupportedIndex();
        }
        sink = index;
    });
    if (best_index != nullptr) *best_index = index;
    return ns;
}

extern "C" double icu_anchor_shim_format_ns(const char *pattern, const char *locale, const char *name, int64_t value,
                                            int64_t iterations) {
    lookd_parse_error error{};
    lookd_message *message = lookd_message_open(pattern, static_cast<int32_t>(std::strlen(pattern)), locale,
                                                static_cast<int32_t>(std::strlen(locale)), &error);
    if (message == nullptr || lookd_message_argument_count(message) != 1) return -1;
    char argument_name[64];
    int32_t length = lookd_message_argument_name(message, 0, argument_name, sizeof argument_name);
    if (length != static_cast<int32_t>(std::strlen(name)) || std::memcmp(argument_name, name, length) != 0) return -1;
    lookd_argument argument{};
    argument.kind = LOOKD_ARG_INT64;
    argument.integer = value;
    char buffer[256];
    bool failed = false;
    double ns = time_ns(iterations, [&] {
        int32_t written = lookd_message_format(message, &argument, 1, "", buffer, sizeof buffer);
        failed = failed || written < 0;
        sink = written;
    });
    lookd_message_close(message);
    return failed ? -2 : ns;
}
