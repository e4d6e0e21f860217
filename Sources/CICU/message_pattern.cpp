// The structure of a MessageFormat pattern (icu::MessagePattern): argument names and types, plural/select
// keys, with their positions — from the shared walk (pattern_walk.h). Nothing is formatted here.
#include "lookd_icu.h"
#include "nesting_guard.h"
#include "parse_error.h"
#include "pattern_walk.h"
#include "shim_util.h"
#include <unicode/messagepattern.h>
#include <new>
#include <string>
#include <vector>

using lookd_shim::copy_out;

struct lookd_pattern {
    std::vector<lookd_pattern_item> items;
    std::vector<std::string> texts; // UTF-8 name or key of each item
};

extern "C" lookd_pattern *lookd_pattern_parse(const char *pattern, int32_t length, lookd_parse_error *error) {
    icu::UnicodeString text = icu::UnicodeString::fromUTF8(icu::StringPiece(pattern, length));
    if (U_FAILURE(lookd_shim::check_nesting(text, error))) return nullptr;
    UParseError parse{};
    UErrorCode status = U_ZERO_ERROR;
    icu::MessagePattern structure(text, &parse, status);
    if (U_FAILURE(status)) {
        lookd_shim::fill_parse_error(error, status, parse, text);
        return nullptr;
    }
    auto *result = new (std::nothrow) lookd_pattern();
    if (result == nullptr) return nullptr;
    std::vector<lookd_shim::PatternItem> walked;
    lookd_shim::walk_pattern(structure, text.getBuffer(), walked);
    result->items.reserve(walked.size());
    result->texts.reserve(walked.size());
    for (const lookd_shim::PatternItem &from : walked) {
        lookd_pattern_item item{};
        item.kind = from.kind;
        item.type = from.type;
        item.parent = from.kind == 0 ? from.enclosing_selector : from.argument_item;
        item.offset = from.offset;
        item.length = from.length;
        item.style_offset = from.style_offset;
        item.style_length = from.style_length;
        result->items.push_back(item);
        result->texts.push_back(lookd_shim::utf8(text.getBuffer() + from.text_start, from.text_limit - from.text_start));
    }
    return result;
}

extern "C" void lookd_pattern_close(lookd_pattern *pattern) { delete pattern; }

extern "C" int32_t lookd_pattern_item_count(const lookd_pattern *pattern) {
    return static_cast<int32_t>(pattern->items.size());
}

extern "C" int32_t lookd_pattern_get_item(const lookd_pattern *pattern, int32_t index, lookd_pattern_item *item,
                                      char *buffer, int32_t capacity) {
    if (index < 0 || index >= static_cast<int32_t>(pattern->items.size())) {
        return -static_cast<int32_t>(U_INDEX_OUTOFBOUNDS_ERROR);
    }
    *item = pattern->items[static_cast<size_t>(index)];
    return copy_out(pattern->texts[static_cast<size_t>(index)], buffer, capacity);
}
