// MessageProgram: see message_program.h.
#include "message_program.h"
#include "shim_util.h"
#include <unicode/decimfmt.h>
#include <map>
#include <mutex>

namespace lookd_shim {
namespace {

/// The formatters of `locale`, built on first use and shared afterwards.
std::shared_ptr<const LocaleFormatters> formatters_for(const icu::Locale &locale) {
    static std::mutex lock;
    static std::map<std::string, std::shared_ptr<const LocaleFormatters>> cache;
    std::string key = locale.getName();
    std::lock_guard<std::mutex> guard(lock);
    auto found = cache.find(key);
    if (found != cache.end()) return found->second;
    UErrorCode status = U_ZERO_ERROR;
    auto built = std::make_shared<LocaleFormatters>();
    built->plural_rules.reset(icu::PluralRules::forLocale(locale, status));
    // MessageFormat formats `#` with the locale's default NumberFormat, a DecimalFormat whose grouping differs from
    // NumberFormatter's defaults (it ignores CLDR's minimum grouping digits: bg "1 000", not "1000"). Take the
    // formatter that very DecimalFormat uses.
    std::unique_ptr<icu::NumberFormat> legacy(icu::NumberFormat::createInstance(locale, status));
    auto *decimal = dynamic_cast<icu::DecimalFormat *>(legacy.get());
    if (U_FAILURE(status) || decimal == nullptr || built->plural_rules == nullptr) return nullptr;
    const icu::number::LocalizedNumberFormatter *numbers = decimal->toNumberFormatter(status);
    if (U_FAILURE(status) || numbers == nullptr) return nullptr;
    built->numbers = *numbers;
    cache.emplace(key, built);
    return built;
}

void append_utf8(const icu::UnicodeString &text, int32_t start, int32_t length, std::string &out) {
    if (length <= 0) return;
    icu::UnicodeString slice(text, start, length);
    slice.toUTF8String(out);
}

int32_t argument_index(const icu::UnicodeString &name, const std::vector<icu::UnicodeString> &names) {
    for (size_t i = 0; i < names.size(); i++) {
        if (names[i] == name) return static_cast<int32_t>(i);
    }
    return -1;
}

} // namespace

std::unique_ptr<MessageProgram> MessageProgram::compile(const icu::MessagePattern &pattern,
                                                        const std::vector<icu::UnicodeString> &names,
                                                        const icu::Locale &locale) {
    std::unique_ptr<MessageProgram> program(new MessageProgram());
    program->formatters_ = formatters_for(locale);
    if (program->formatters_ == nullptr || pattern.countParts() == 0) return nullptr;
    bool supported = true;
    program->compile_message(pattern, names, 0, false, supported);
    if (!supported) return nullptr;
    return program;
}

// Mirrors icu::MessageFormat::format: text between parts is appended as it is, SKIP_SYNTAX parts (quoting
// apostrophes) are dropped, REPLACE_NUMBER (`#`) is the enclosing plural's number.
int32_t MessageProgram::compile_message(const icu::MessagePattern &pattern, const std::vector<icu::UnicodeString> &names,
                                        int32_t start, bool in_plural, bool &supported) {
    int32_t index = static_cast<int32_t>(messages_.size());
    messages_.emplace_back();
    Message nodes;
    const icu::UnicodeString &source = pattern.getPatternString();
    int32_t previous = pattern.getPart(start).getLimit();
    for (int32_t i = start + 1; supported; i++) {
        const icu::MessagePattern::Part &part = pattern.getPart(i);
        UMessagePatternPartType type = part.getType();
        if (part.getIndex() > previous) {
            Node literal{Kind::text};
            append_utf8(source, previous, part.getIndex() - previous, literal.text);
            nodes.push_back(std::move(literal));
        }
        if (type == UMSGPAT_PART_TYPE_MSG_LIMIT) break;
        previous = part.getLimit();
        if (type == UMSGPAT_PART_TYPE_REPLACE_NUMBER) {
            if (!in_plural) supported = false;
            nodes.push_back(Node{Kind::number_sign});
            continue;
        }
        if (type == UMSGPAT_PART_TYPE_INSERT_CHAR) { supported = false; break; }
        if (type != UMSGPAT_PART_TYPE_ARG_START) continue; // SKIP_SYNTAX
        int32_t limit = pattern.getLimitPartIndex(i);
        const icu::MessagePattern::Part &name_part = pattern.getPart(i + 1);
        if (name_part.getType() != UMSGPAT_PART_TYPE_ARG_NAME) { supported = false; break; }
        int32_t argument = argument_index(pattern.getSubstring(name_part), names);
        UMessagePatternArgType arg_type = part.getArgType();
        if (argument < 0) { supported = false; break; }
        if (arg_type == UMSGPAT_ARG_TYPE_NONE) {
            Node node{Kind::string_argument};
            node.argument = argument;
            nodes.push_back(std::move(node));
        } else if (arg_type == UMSGPAT_ARG_TYPE_PLURAL || arg_type == UMSGPAT_ARG_TYPE_SELECT) {
            bool plural = arg_type == UMSGPAT_ARG_TYPE_PLURAL;
            Node node{plural ? Kind::plural : Kind::select};
            node.argument = argument;
            int32_t j = i + 2;
            if (plural) {
                UMessagePatternPartType offset = pattern.getPartType(j);
                if (offset == UMSGPAT_PART_TYPE_ARG_INT || offset == UMSGPAT_PART_TYPE_ARG_DOUBLE) {
                    if (pattern.getNumericValue(pattern.getPart(j)) != 0) { supported = false; break; }
                    j++;
                }
            }
            while (j < limit && supported) {
                const icu::MessagePattern::Part &selector = pattern.getPart(j++);
                Case entry;
                if (pattern.getPartType(j) == UMSGPAT_PART_TYPE_ARG_INT || pattern.getPartType(j) == UMSGPAT_PART_TYPE_ARG_DOUBLE) {
                    entry.is_explicit = true;
                    entry.value = pattern.getNumericValue(pattern.getPart(j++));
                } else {
                    pattern.getSubstring(selector).toUTF8String(entry.keyword);
                }
                entry.message = compile_message(pattern, names, j, plural, supported);
                j = pattern.getLimitPartIndex(j) + 1;
                if (!entry.is_explicit && entry.keyword == "other") {
                    if (node.other < 0) node.other = entry.message;
                } else {
                    node.cases.push_back(std::move(entry));
                }
            }
            if (node.other < 0) supported = false;
            nodes.push_back(std::move(node));
        } else {
            supported = false; // SIMPLE (number, date, time with styles), CHOICE, SELECTORDINAL
        }
        i = limit;
        previous = pattern.getPart(limit).getLimit();
    }
    messages_[static_cast<size_t>(index)] = std::move(nodes);
    return index;
}

bool MessageProgram::run(const lookd_argument *arguments, const char *text, std::string &out) const {
    return run_message(0, arguments, text, nullptr, out);
}

bool MessageProgram::run_message(int32_t message, const lookd_argument *arguments, const char *text,
                                 const std::string *number, std::string &out) const {
    for (const Node &node : messages_[static_cast<size_t>(message)]) {
        switch (node.kind) {
        case Kind::text:
            out += node.text;
            break;
        case Kind::number_sign:
            out += *number;
            break;
        case Kind::string_argument: {
            const lookd_argument &value = arguments[node.argument];
            if (value.kind != LOOKD_ARG_STRING) return false;
            out.append(text + value.offset, static_cast<size_t>(value.length));
            break;
        }
        case Kind::select: {
            const lookd_argument &value = arguments[node.argument];
            if (value.kind != LOOKD_ARG_STRING) return false;
            int32_t chosen = node.other;
            for (const Case &entry : node.cases) {
                if (entry.keyword.size() == static_cast<size_t>(value.length) &&
                    entry.keyword.compare(0, entry.keyword.size(), text + value.offset, static_cast<size_t>(value.length)) == 0) {
                    chosen = entry.message;
                    break;
                }
            }
            if (!run_message(chosen, arguments, text, number, out)) return false;
            break;
        }
        case Kind::plural: {
            const lookd_argument &value = arguments[node.argument];
            // Integers only: decimals select and format through FormattedNumber in MessageFormat.
            if (value.kind != LOOKD_ARG_INT64 || value.integer < INT32_MIN || value.integer > INT32_MAX) return false;
            int32_t count = static_cast<int32_t>(value.integer);
            int32_t chosen = -1;
            for (const Case &entry : node.cases) {
                if (entry.is_explicit && entry.value == static_cast<double>(count)) { chosen = entry.message; break; }
            }
            if (chosen < 0) {
                std::string keyword;
                formatters_->plural_rules->select(count).toUTF8String(keyword);
                chosen = node.other;
                for (const Case &entry : node.cases) {
                    if (!entry.is_explicit && entry.keyword == keyword) { chosen = entry.message; break; }
                }
            }
            UErrorCode status = U_ZERO_ERROR;
            std::string digits;
            formatters_->numbers.formatInt(count, status).toString(status).toUTF8String(digits);
            if (U_FAILURE(status)) return false;
            if (!run_message(chosen, arguments, text, &digits, out)) return false;
            break;
        }
        }
    }
    return true;
}

} // namespace lookd_shim
