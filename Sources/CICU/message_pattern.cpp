// The structure of a MessageFormat pattern (icu::MessagePattern): argument names and types, plural/select
// keys, with their positions — what a translation linter needs. Nothing is formatted here.
#include "lookd_icu.h"
#include "parse_error.h"
#include "pattern_types.h"
#include "shim_util.h"
#include <unicode/messagepattern.h>
#include <new>
#include <string>
#include <vector>

using lookd_shim::copy_out;
using lookd_shim::complex_type;

struct lookd_pattern {
    std::vector<lookd_pattern_item> items;
    std::vector<std::string> texts; // UTF-8 name or key of each item
};

namespace {
int32_t simple_type(const icu::UnicodeString &name) {
    if (name == u"number") return LOOKD_TYPE_NUMBER;
    if (name == u"date") return LOOKD_TYPE_DATE;
    if (name == u"time") return LOOKD_TYPE_TIME;
    return LOOKD_TYPE_OTHER;
}

} // namespace

extern "C" lookd_pattern *lookd_pattern_parse(const char *pattern, int32_t length, lookd_parse_error *error) {
    icu::UnicodeString text = icu::UnicodeString::fromUTF8(icu::StringPiece(pattern, length));
    UParseError parse{};
    UErrorCode status = U_ZERO_ERROR;
    icu::MessagePattern structure(text, &parse, status);
    if (U_FAILURE(status)) {
        lookd_shim::fill_parse_error(error, status, parse, text);
        return nullptr;
    }
    auto *result = new (std::nothrow) lookd_pattern();
    if (result == nullptr) return nullptr;

    auto code_points = [&](int32_t utf16_index) { return text.countChar32(0, utf16_index); };
    std::vector<int32_t> arguments; // open ARG_START ... ARG_LIMIT: index of their argument item
    std::vector<int32_t> selectors; // open nested messages: index of the selector item that owns them
    std::vector<int32_t> pending_types;
    int32_t last_selector = -1;
    // Appends an item for `part` (its text, code-point span, no style) and returns its index.
    auto push_item = [&](const icu::MessagePattern::Part &part, int32_t kind, int32_t type, int32_t parent) {
        lookd_pattern_item item{};
        item.kind = kind;
        item.type = type;
        item.parent = parent;
        item.offset = code_points(part.getIndex());
        item.length = code_points(part.getLimit()) - item.offset;
        item.style_offset = -1;
        item.style_length = 0;
        std::string text;
        structure.getSubstring(part).toUTF8String(text);
        result->items.push_back(item);
        result->texts.push_back(text);
        return static_cast<int32_t>(result->items.size()) - 1;
    };

    int32_t count = structure.countParts();
    for (int32_t i = 0; i < count; i++) {
        const icu::MessagePattern::Part &part = structure.getPart(i);
        switch (part.getType()) {
        case UMSGPAT_PART_TYPE_MSG_START:
            if (part.getValue() > 0) selectors.push_back(last_selector);
            break;
        case UMSGPAT_PART_TYPE_MSG_LIMIT:
            if (part.getValue() > 0 && !selectors.empty()) selectors.pop_back();
            break;
        case UMSGPAT_PART_TYPE_ARG_START:
            pending_types.push_back(complex_type(part.getArgType()));
            arguments.push_back(-1);
            break;
        case UMSGPAT_PART_TYPE_ARG_LIMIT:
            if (!arguments.empty()) arguments.pop_back();
            if (!pending_types.empty()) pending_types.pop_back();
            break;
        case UMSGPAT_PART_TYPE_ARG_NAME:
        case UMSGPAT_PART_TYPE_ARG_NUMBER: {
            int32_t item = push_item(part, 0, pending_types.empty() ? LOOKD_TYPE_STRING : pending_types.back(),
                                     selectors.empty() ? -1 : selectors.back());
            if (!arguments.empty()) arguments.back() = item;
            break;
        }
        case UMSGPAT_PART_TYPE_ARG_TYPE:
            if (!arguments.empty() && arguments.back() >= 0) {
                int32_t type = simple_type(structure.getSubstring(part));
                result->items[static_cast<size_t>(arguments.back())].type = type;
                if (!pending_types.empty()) pending_types.back() = type;
            }
            break;
        case UMSGPAT_PART_TYPE_ARG_STYLE:
            if (!arguments.empty() && arguments.back() >= 0) {
                lookd_pattern_item &owner = result->items[static_cast<size_t>(arguments.back())];
                owner.style_offset = code_points(part.getIndex());
                owner.style_length = code_points(part.getLimit()) - owner.style_offset;
            }
            break;
        case UMSGPAT_PART_TYPE_ARG_SELECTOR: {
            int32_t owner = arguments.empty() ? -1 : arguments.back();
            int32_t type = owner >= 0 ? result->items[static_cast<size_t>(owner)].type : LOOKD_TYPE_OTHER;
            last_selector = push_item(part, 1, type, owner);
            break;
        }
        default:
            break;
        }
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
