// The walk: see pattern_walk.h.
#include "pattern_walk.h"
#include <unicode/ustring.h>

namespace lookd_shim {
namespace {
using Part = icu::MessagePattern::Part;

bool equals(const char16_t *text, const Part &part, const char16_t *word, int32_t length) {
    return part.getLength() == length && u_memcmp(text + part.getIndex(), word, length) == 0;
}

int32_t simple_type(const char16_t *text, const Part &part) {
    if (equals(text, part, u"number", 6)) return LOOKD_TYPE_NUMBER;
    if (equals(text, part, u"date", 4)) return LOOKD_TYPE_DATE;
    if (equals(text, part, u"time", 4)) return LOOKD_TYPE_TIME;
    return LOOKD_TYPE_OTHER;
}

/// The LOOKD_TYPE_* of a complex argument (plural, select, selectordinal, choice); LOOKD_TYPE_STRING for NONE,
/// and for SIMPLE, which its ARG_TYPE part refines.
int32_t complex_type(UMessagePatternArgType type) {
    switch (type) {
    case UMSGPAT_ARG_TYPE_PLURAL: return LOOKD_TYPE_PLURAL;
    case UMSGPAT_ARG_TYPE_SELECT: return LOOKD_TYPE_SELECT;
    case UMSGPAT_ARG_TYPE_SELECTORDINAL: return LOOKD_TYPE_SELECTORDINAL;
    case UMSGPAT_ARG_TYPE_CHOICE: return LOOKD_TYPE_CHOICE;
    default: return LOOKD_TYPE_STRING;
    }
}

/// Per open ARG_START: its argument's item and ordinal (-1 until the name is seen) and its type so far.
struct OpenArgument {
    int32_t item;
    int32_t ordinal;
    int32_t type;
};
} // namespace

void walk_pattern(const icu::MessagePattern &pattern, const char16_t *text, std::vector<PatternItem> &items) {
    // Code points counted incrementally: parts come in pattern order.
    int32_t counted_index = 0, counted_points = 0;
    auto points = [&](int32_t utf16) {
        if (utf16 < counted_index) {
            counted_index = 0;
            counted_points = 0;
        }
        counted_points += u_countChar32(text + counted_index, utf16 - counted_index);
        counted_index = utf16;
        return counted_points;
    };
    std::vector<OpenArgument> open;    // open ARG_START ... ARG_LIMIT
    std::vector<int32_t> selectors;    // open nested messages: the key item that owns each
    int32_t last_selector = -1;
    int32_t ordinals = 0;
    int32_t count = pattern.countParts();
    for (int32_t i = 0; i < count; i++) {
        const Part &part = pattern.getPart(i);
        switch (part.getType()) {
        case UMSGPAT_PART_TYPE_MSG_START:
            if (part.getValue() > 0) selectors.push_back(last_selector);
            break;
        case UMSGPAT_PART_TYPE_MSG_LIMIT:
            if (part.getValue() > 0 && !selectors.empty()) selectors.pop_back();
            break;
        case UMSGPAT_PART_TYPE_ARG_START:
            open.push_back(OpenArgument{-1, -1, complex_type(part.getArgType())});
            break;
        case UMSGPAT_PART_TYPE_ARG_LIMIT:
            if (!open.empty()) open.pop_back();
            break;
        case UMSGPAT_PART_TYPE_ARG_NAME:
        case UMSGPAT_PART_TYPE_ARG_NUMBER:
        case UMSGPAT_PART_TYPE_ARG_SELECTOR: {
            bool key = part.getType() == UMSGPAT_PART_TYPE_ARG_SELECTOR;
            PatternItem item{};
            item.kind = key ? 1 : 0;
            item.type = open.empty() ? LOOKD_TYPE_STRING : open.back().type;
            item.ordinal = key ? (open.empty() ? -1 : open.back().ordinal) : ordinals;
            item.argument_item = key && !open.empty() ? open.back().item : -1;
            item.enclosing_selector = !key && !selectors.empty() ? selectors.back() : -1;
            item.offset = points(part.getIndex());
            item.length = points(part.getLimit()) - item.offset;
            item.text_start = part.getIndex();
            item.text_limit = part.getLimit();
            item.type_start = item.type_limit = -1;
            item.style_start = item.style_limit = -1;
            item.style_offset = -1;
            item.style_length = 0;
            int32_t index = static_cast<int32_t>(items.size());
            items.push_back(item);
            if (key) {
                last_selector = index;
            } else {
                if (!open.empty()) {
                    open.back().item = index;
                    open.back().ordinal = ordinals;
                }
                ordinals++;
            }
            break;
        }
        case UMSGPAT_PART_TYPE_ARG_TYPE:
            if (!open.empty() && open.back().item >= 0) {
                PatternItem &owner = items[static_cast<size_t>(open.back().item)];
                owner.type = open.back().type = simple_type(text, part);
                owner.type_start = part.getIndex();
                owner.type_limit = part.getLimit();
            }
            break;
        case UMSGPAT_PART_TYPE_ARG_STYLE:
            if (!open.empty() && open.back().item >= 0) {
                PatternItem &owner = items[static_cast<size_t>(open.back().item)];
                owner.style_start = part.getIndex();
                owner.style_limit = part.getLimit();
                owner.style_offset = points(part.getIndex());
                owner.style_length = points(part.getLimit()) - owner.style_offset;
            }
            break;
        default:
            break;
        }
    }
}

} // namespace lookd_shim
