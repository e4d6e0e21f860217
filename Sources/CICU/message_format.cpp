// Parsed MessageFormat patterns, formatted with named arguments: by the compiled program when the pattern and
// the values allow (message_program.h), else by icu::MessageFormat.
#include "lookd_icu.h"
#include "message_program.h"
#include "nesting_guard.h"
#include "parse_error.h"
#include "shim_util.h"
#include <unicode/fmtable.h>
#include <unicode/messagepattern.h>
#include <unicode/msgfmt.h>
#include <memory>
#include <mutex>
#include <new>
#include <vector>

using lookd_shim::copy_out;

struct lookd_message {
    std::unique_ptr<icu::MessageFormat> format;
    std::vector<icu::UnicodeString> names; // distinct argument names, order of first appearance
    std::mutex lock;                       // MessageFormat::format lazily builds sub-formatters: not re-entrant
    std::unique_ptr<lookd_shim::MessageProgram> program; // immutable; nullptr when the pattern is not compiled
};

namespace {
std::vector<icu::UnicodeString> argument_names(const icu::MessagePattern &pattern) {
    std::vector<icu::UnicodeString> names;
    int32_t count = pattern.countParts();
    for (int32_t i = 0; i < count; i++) {
        const icu::MessagePattern::Part &part = pattern.getPart(i);
        UMessagePatternPartType type = part.getType();
        if (type != UMSGPAT_PART_TYPE_ARG_NAME && type != UMSGPAT_PART_TYPE_ARG_NUMBER) continue;
        icu::UnicodeString name = pattern.getSubstring(part);
        bool seen = false;
        for (const auto &existing : names) seen = seen || existing == name;
        if (!seen) names.push_back(name);
    }
    return names;
}
} // namespace

extern "C" lookd_message *lookd_message_open(const char *pattern, int32_t pattern_length, const char *tag,
                                             int32_t tag_length, lookd_parse_error *error) {
    icu::UnicodeString text = icu::UnicodeString::fromUTF8(icu::StringPiece(pattern, pattern_length));
    icu::Locale locale = lookd_shim::locale_from_tag(tag, tag_length);
    UParseError parse{};
    if (locale.isBogus()) {
        lookd_shim::fill_parse_error(error, U_ILLEGAL_ARGUMENT_ERROR, parse, text);
        return nullptr;
    }
    if (U_FAILURE(lookd_shim::check_nesting(text, error))) return nullptr;
    UErrorCode status = U_ZERO_ERROR;
    std::unique_ptr<icu::MessageFormat> format(new icu::MessageFormat(text, locale, parse, status));
    if (U_FAILURE(status)) {
        lookd_shim::fill_parse_error(error, status, parse, text);
        return nullptr;
    }
    icu::MessagePattern structure(text, &parse, status);
    if (U_FAILURE(status)) {
        lookd_shim::fill_parse_error(error, status, parse, text);
        return nullptr;
    }
    auto *message = new (std::nothrow) lookd_message();
    if (message == nullptr) return nullptr;
    message->format = std::move(format);
    message->names = argument_names(structure);
    message->program = lookd_shim::MessageProgram::compile(structure, message->names, locale);
    return message;
}

extern "C" void lookd_message_close(lookd_message *message) { delete message; }

extern "C" int32_t lookd_message_argument_count(const lookd_message *message) {
    return static_cast<int32_t>(message->names.size());
}

extern "C" int32_t lookd_message_argument_name(const lookd_message *message, int32_t index, char *buffer,
                                               int32_t capacity) {
    if (index < 0 || index >= static_cast<int32_t>(message->names.size())) {
        return -static_cast<int32_t>(U_INDEX_OUTOFBOUNDS_ERROR);
    }
    return copy_out(message->names[static_cast<size_t>(index)], buffer, capacity);
}

extern "C" int32_t lookd_message_format_with_icu(lookd_message *message, const lookd_argument *arguments, int32_t count,
                                                 const char *text, char *buffer, int32_t capacity) {
    if (count != static_cast<int32_t>(message->names.size())) {
        return -static_cast<int32_t>(U_ILLEGAL_ARGUMENT_ERROR);
    }
    // Construct only `count` Formattables (each construction and dispose costs; most messages have 1-2).
    constexpr int32_t kInline = 8;
    alignas(icu::Formattable) unsigned char inline_storage[kInline * sizeof(icu::Formattable)];
    std::unique_ptr<unsigned char[]> heap_storage;
    void *storage = inline_storage;
    if (count > kInline) {
        heap_storage.reset(new unsigned char[static_cast<size_t>(count) * sizeof(icu::Formattable)]);
        storage = heap_storage.get();
    }
    icu::Formattable *values = static_cast<icu::Formattable *>(storage);
    for (int32_t i = 0; i < count; i++) new (&values[i]) icu::Formattable();
    struct Destroy {
        icu::Formattable *values;
        int32_t count;
        ~Destroy() {
            for (int32_t i = 0; i < count; i++) values[i].~Formattable();
        }
    } destroy{values, count};
    for (int32_t i = 0; i < count; i++) {
        const lookd_argument &argument = arguments[i];
        switch (argument.kind) {
        case LOOKD_ARG_STRING:
            values[i].setString(icu::UnicodeString::fromUTF8(icu::StringPiece(text + argument.offset, argument.length)));
            break;
        case LOOKD_ARG_INT64:
            values[i].setInt64(argument.integer);
            break;
        case LOOKD_ARG_DOUBLE:
            values[i].setDouble(argument.number);
            break;
        case LOOKD_ARG_DATE:
            values[i].setDate(argument.number);
            break;
        default:
            return -static_cast<int32_t>(U_ILLEGAL_ARGUMENT_ERROR);
        }
    }
    icu::UnicodeString result;
    UErrorCode status = U_ZERO_ERROR;
    {
        std::lock_guard<std::mutex> guard(message->lock);
        message->format->format(message->names.data(), values, count, result, status);
    }
    if (U_FAILURE(status)) return -static_cast<int32_t>(status);
    return copy_out(result, buffer, capacity);
}

extern "C" int32_t lookd_message_format(lookd_message *message, const lookd_argument *arguments, int32_t count,
                                        const char *text, char *buffer, int32_t capacity) {
    if (count != static_cast<int32_t>(message->names.size())) {
        return -static_cast<int32_t>(U_ILLEGAL_ARGUMENT_ERROR);
    }
    if (message->program != nullptr) {
        for (int32_t i = 0; i < count; i++) {
            if (arguments[i].kind == LOOKD_ARG_ABSENT) return -static_cast<int32_t>(U_ILLEGAL_ARGUMENT_ERROR);
        }
        thread_local std::string out;
        out.clear();
        if (message->program->run(arguments, text, out)) return copy_out(out, buffer, capacity);
    }
    return lookd_message_format_with_icu(message, arguments, count, text, buffer, capacity);
}

extern "C" int32_t lookd_message_is_compiled(const lookd_message *message) { return message->program != nullptr; }
