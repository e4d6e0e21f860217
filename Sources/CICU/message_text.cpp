// The longest display text of a MessageFormat pattern, walked over icu::MessagePattern's parts (so quoting,
// nesting and `#` follow ICU's own parser). Used by the translation linter for lengths, whitespace and
// final punctuation.
#include "message_text.h"

namespace {
// `index` is a MSG_START part; on return it is the matching MSG_LIMIT.
icu::UnicodeString longest_message(const icu::MessagePattern &pattern, int32_t &index) {
    const icu::UnicodeString &text = pattern.getPatternString();
    int32_t previous = pattern.getPart(index).getLimit();
    icu::UnicodeString out;
    int32_t count = pattern.countParts();
    for (++index; index < count; ++index) {
        const icu::MessagePattern::Part &part = pattern.getPart(index);
        UMessagePatternPartType type = part.getType();
        out.append(text, previous, part.getIndex() - previous);
        switch (type) {
        case UMSGPAT_PART_TYPE_MSG_LIMIT:
            return out;
        case UMSGPAT_PART_TYPE_SKIP_SYNTAX:
            previous = part.getLimit();
            break;
        case UMSGPAT_PART_TYPE_INSERT_CHAR:
            out.append(static_cast<UChar32>(part.getValue()));
            previous = part.getLimit();
            break;
        case UMSGPAT_PART_TYPE_REPLACE_NUMBER:
            out.append(static_cast<UChar>(u'#'));
            previous = part.getLimit();
            break;
        case UMSGPAT_PART_TYPE_ARG_START: {
            int32_t limit = pattern.getLimitPartIndex(index);
            UMessagePatternArgType arg_type = part.getArgType();
            if (arg_type == UMSGPAT_ARG_TYPE_PLURAL || arg_type == UMSGPAT_ARG_TYPE_SELECT ||
                arg_type == UMSGPAT_ARG_TYPE_SELECTORDINAL || arg_type == UMSGPAT_ARG_TYPE_CHOICE) {
                icu::UnicodeString best;
                int32_t best_length = -1;
                for (int32_t sub = index + 1; sub < limit; ++sub) {
                    if (pattern.getPartType(sub) != UMSGPAT_PART_TYPE_MSG_START) continue;
                    icu::UnicodeString branch = longest_message(pattern, sub);
                    int32_t length = branch.countChar32();
                    if (length > best_length) {
                        best = branch;
                        best_length = length;
                    }
                }
                out.append(best);
            } else {
                out.append(static_cast<UChar>(0xFFFC));
            }
            index = limit;
            previous = pattern.getPart(limit).getLimit();
            break;
        }
        default:
            previous = part.getLimit();
            break;
        }
    }
    return out;
}
} // namespace

std::string lookd_shim::display_text(const icu::MessagePattern &pattern) {
    std::string result;
    if (pattern.countParts() == 0) return result;
    int32_t index = 0;
    longest_message(pattern, index).toUTF8String(result);
    return result;
}
