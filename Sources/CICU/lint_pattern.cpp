// The translation linter's pass over a MessageFormat pattern (lookd_lint_pattern in lookd_icu.h):
// icu::MessagePattern parses it once; its arguments and selector keys come from the shared walk (pattern_walk.h,
// the same one MessageStructure reads) and are written into caller buffers, then the longest display text.
#include "lookd_icu.h"
#include "nesting_guard.h"
#include "parse_error.h"
#include "pattern_walk.h"
#include <unicode/messagepattern.h>
#include <unicode/ustring.h>
#include <unicode/utf8.h>
#include <vector>

namespace {
using Part = icu::MessagePattern::Part;

/// Appends UTF-8 into a caller buffer with ICU's converters, counting what does not fit.
struct Writer {
    char *buffer;
    int32_t capacity;
    int32_t length = 0;

    void scalar(UChar32 c) {
        int32_t size = U8_LENGTH(c);
        if (length + size <= capacity) {
            UBool error = false;
            U8_APPEND(reinterpret_cast<uint8_t *>(buffer), length, capacity, c, error);
            if (!error) return;
        }
        length += size;
    }

    /// UTF-16 text[start, limit); unpaired surrogates become U+FFFD.
    void utf16(const UChar *text, int32_t start, int32_t limit) {
        if (limit <= start) return;
        int32_t room = capacity > length ? capacity - length : 0;
        int32_t needed = 0;
        UErrorCode status = U_ZERO_ERROR;
        u_strToUTF8WithSub(room > 0 ? buffer + length : nullptr, room, &needed, text + start, limit - start, 0xFFFD,
                           nullptr, &status);
        length += needed;
    }
};

bool is_complex(UMessagePatternArgType type) {
    return type == UMSGPAT_ARG_TYPE_PLURAL || type == UMSGPAT_ARG_TYPE_SELECT ||
           type == UMSGPAT_ARG_TYPE_SELECTORDINAL || type == UMSGPAT_ARG_TYPE_CHOICE;
}

/// The code points of the longest rendering of the message whose MSG_START is `start`; `end` becomes its
/// MSG_LIMIT. Records in `choice` (by ARG_START index) the MSG_START of each complex argument's longest branch.
int32_t measure(const icu::MessagePattern &pattern, const UChar *text, int32_t start, int32_t &end,
                std::vector<int32_t> &choice) {
    int32_t previous = pattern.getPart(start).getLimit();
    int32_t total = 0;
    int32_t count = pattern.countParts();
    for (int32_t i = start + 1; i < count; ++i) {
        const Part &part = pattern.getPart(i);
        total += u_countChar32(text + previous, part.getIndex() - previous);
        switch (part.getType()) {
        case UMSGPAT_PART_TYPE_MSG_LIMIT:
            end = i;
            return total;
        case UMSGPAT_PART_TYPE_INSERT_CHAR:
        case UMSGPAT_PART_TYPE_REPLACE_NUMBER:
            total += 1;
            previous = part.getLimit();
            break;
        case UMSGPAT_PART_TYPE_ARG_START: {
            int32_t limit = pattern.getLimitPartIndex(i);
            if (is_complex(part.getArgType())) {
                int32_t best = -1, best_length = -1;
                for (int32_t j = i + 1; j < limit; ++j) {
                    if (pattern.getPartType(j) != UMSGPAT_PART_TYPE_MSG_START) continue;
                    int32_t branch_end = j;
                    int32_t length = measure(pattern, text, j, branch_end, choice);
                    if (length > best_length) {
                        best_length = length;
                        best = j;
                    }
                    j = branch_end;
                }
                choice[static_cast<size_t>(i)] = best;
                total += best_length > 0 ? best_length : 0;
            } else {
                total += 1; // U+FFFC
            }
            i = limit;
            previous = pattern.getPart(limit).getLimit();
            break;
        }
        default: // SKIP_SYNTAX
            previous = part.getLimit();
            break;
        }
    }
    end = count - 1;
    return total;
}

/// Writes the rendering `measure` chose.
void emit(const icu::MessagePattern &pattern, const UChar *text, int32_t start, const std::vector<int32_t> &choice,
          Writer &out) {
    int32_t previous = pattern.getPart(start).getLimit();
    int32_t count = pattern.countParts();
    for (int32_t i = start + 1; i < count; ++i) {
        const Part &part = pattern.getPart(i);
        out.utf16(text, previous, part.getIndex());
        switch (part.getType()) {
        case UMSGPAT_PART_TYPE_MSG_LIMIT:
            return;
        case UMSGPAT_PART_TYPE_INSERT_CHAR:
            out.scalar(part.getValue());
            previous = part.getLimit();
            break;
        case UMSGPAT_PART_TYPE_REPLACE_NUMBER:
            out.scalar('#');
            previous = part.getLimit();
            break;
        case UMSGPAT_PART_TYPE_ARG_START: {
            int32_t limit = pattern.getLimitPartIndex(i);
            if (is_complex(part.getArgType())) {
                int32_t branch = choice[static_cast<size_t>(i)];
                if (branch >= 0) emit(pattern, text, branch, choice, out);
            } else {
                out.scalar(0xFFFC);
            }
            i = limit;
            previous = pattern.getPart(limit).getLimit();
            break;
        }
        default:
            previous = part.getLimit();
            break;
        }
    }
}
} // namespace

extern "C" int32_t lookd_lint_pattern(const char *pattern, int32_t length, lookd_parse_error *error,
                                      lookd_lint_item *items, int32_t item_capacity, char *names,
                                      int32_t names_capacity, char *display, int32_t display_capacity,
                                      lookd_lint_summary *summary) {
    icu::UnicodeString source = icu::UnicodeString::fromUTF8(icu::StringPiece(pattern, length));
    UErrorCode nesting = lookd_shim::check_nesting(source, error);
    if (U_FAILURE(nesting)) return -static_cast<int32_t>(nesting);
    UParseError parse{};
    UErrorCode status = U_ZERO_ERROR;
    icu::MessagePattern structure(source, &parse, status);
    if (U_FAILURE(status)) {
        lookd_shim::fill_parse_error(error, status, parse, source);
        return -static_cast<int32_t>(status);
    }
    const UChar *text = source.getBuffer();
    int32_t count = structure.countParts();

    thread_local std::vector<lookd_shim::PatternItem> walked;
    walked.clear();
    lookd_shim::walk_pattern(structure, text, walked);
    Writer name_writer{names, names_capacity};
    int32_t item_count = static_cast<int32_t>(walked.size());
    for (int32_t index = 0; index < item_count; index++) {
        const lookd_shim::PatternItem &from = walked[static_cast<size_t>(index)];
        int32_t name_start = name_writer.length;
        name_writer.utf16(text, from.text_start, from.text_limit);
        int32_t name_length = name_writer.length - name_start;
        int32_t type_start = from.type_start >= 0 ? name_writer.length : -1;
        if (from.type_start >= 0) name_writer.utf16(text, from.type_start, from.type_limit);
        int32_t type_length = type_start >= 0 ? name_writer.length - type_start : 0;
        int32_t style_start = from.style_start >= 0 ? name_writer.length : -1;
        if (from.style_start >= 0) name_writer.utf16(text, from.style_start, from.style_limit);
        int32_t style_length = style_start >= 0 ? name_writer.length - style_start : 0;
        if (index >= item_capacity) continue;
        lookd_lint_item &item = items[index];
        item.kind = from.kind;
        item.type = from.type;
        item.argument = from.ordinal;
        item.offset = from.offset;
        item.text_start = name_start;
        item.text_length = name_length;
        item.type_start = type_start;
        item.type_length = type_length;
        item.style_start = style_start;
        item.style_length = style_length;
    }

    std::vector<int32_t> choice(static_cast<size_t>(count), -1);
    int32_t end = 0;
    int32_t display_points = count > 0 ? measure(structure, text, 0, end, choice) : 0;
    Writer display_writer{display, display_capacity};
    if (count > 0) emit(structure, text, 0, choice, display_writer);

    summary->item_count = item_count;
    summary->names_length = name_writer.length;
    summary->display_length = display_writer.length;
    summary->display_code_points = display_points;
    return 0;
}
