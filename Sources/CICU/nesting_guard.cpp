// The nesting bound of patterns (nesting_guard.h). ICU's MessagePattern parses a sub-message of a plural,
// select or choice by recursion, about three frames per level and stops only at 32,767 levels: 28,000 levels
// overflow an 8 MiB thread stack. Every nested level starts inside an argument, which starts with a `{`, so a
// pattern with at most the limit of `{` cannot go past it; a longer one is measured with ICU's own parser
// (the MSG_START parts carry their nesting level) on a thread whose stack holds ICU's ceiling.
#include "nesting_guard.h"
#include "parse_error.h"
#include <unicode/messagepattern.h>
#include <pthread.h>
#include <cstdio>

namespace {
// Deep enough for 32,767 levels of ICU's parser, sanitizers' bigger frames included; reserved, not committed.
constexpr size_t measuring_stack_bytes = size_t(256) << 20;

struct Measure {
    const icu::UnicodeString *text;
    UErrorCode status = U_ZERO_ERROR;
    UParseError parse{};
    int32_t deepest = 0;
    int32_t deepest_index = 0; // UTF-16 index of the first sub-message past the limit
};

void *measure(void *argument) {
    auto *job = static_cast<Measure *>(argument);
    icu::MessagePattern pattern(*job->text, &job->parse, job->status);
    if (U_FAILURE(job->status)) return nullptr;
    int32_t count = pattern.countParts();
    for (int32_t i = 0; i < count; i++) {
        const icu::MessagePattern::Part &part = pattern.getPart(i);
        if (part.getType() != UMSGPAT_PART_TYPE_MSG_START) continue;
        if (part.getValue() > job->deepest) {
            if (job->deepest <= LOOKD_MESSAGE_NESTING_LIMIT && part.getValue() > LOOKD_MESSAGE_NESTING_LIMIT) {
                job->deepest_index = part.getIndex();
            }
            job->deepest = part.getValue();
        }
    }
    return nullptr;
}

void fill_too_deep(lookd_parse_error *error, const icu::UnicodeString &text, int32_t utf16_index) {
    if (error == nullptr) return;
    error->error_code = static_cast<int32_t>(U_INDEX_OUTOFBOUNDS_ERROR);
    error->line = 0;
    error->offset = utf16_index;
    error->code_point_offset = text.countChar32(0, utf16_index);
    std::snprintf(error->message, sizeof error->message, "%s", "LOOKD_NESTING_TOO_DEEP");
}
} // namespace

UErrorCode lookd_shim::check_nesting(const icu::UnicodeString &text, lookd_parse_error *error) {
    const char16_t *units = text.getBuffer();
    int32_t length = text.length();
    int32_t braces = 0;
    for (int32_t i = 0; i < length && braces <= LOOKD_MESSAGE_NESTING_LIMIT; i++) braces += units[i] == u'{';
    if (braces <= LOOKD_MESSAGE_NESTING_LIMIT) return U_ZERO_ERROR;

    Measure job;
    job.text = &text;
    pthread_attr_t attributes;
    pthread_t thread;
    bool started = pthread_attr_init(&attributes) == 0 &&
                   pthread_attr_setstacksize(&attributes, measuring_stack_bytes) == 0 &&
                   pthread_create(&thread, &attributes, measure, &job) == 0;
    pthread_attr_destroy(&attributes);
    if (!started) {
        // No thread, no measurement: refusing is the only answer that cannot overflow this stack.
        fill_too_deep(error, text, 0);
        return U_INDEX_OUTOFBOUNDS_ERROR;
    }
    pthread_join(thread, nullptr);
    if (U_FAILURE(job.status)) {
        fill_parse_error(error, job.status, job.parse, text);
        if (job.status == U_INDEX_OUTOFBOUNDS_ERROR && job.parse.offset == 0) fill_too_deep(error, text, 0);
        return job.status;
    }
    if (job.deepest > LOOKD_MESSAGE_NESTING_LIMIT) {
        fill_too_deep(error, text, job.deepest_index);
        return U_INDEX_OUTOFBOUNDS_ERROR;
    }
    return U_ZERO_ERROR;
}
