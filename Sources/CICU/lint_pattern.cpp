// One pass over a MessageFormat pattern for the translation linter (lookd_lint_pattern in lookd_icu.h):
// icu::MessagePattern parses it; arguments, selector keys and the longest display text are written into caller
// buffers without intermediate strings, with code point offsets counted incrementally.
#include "lookd_icu.h"
#include "parse_error.h"
#include "pattern_types.h"
#include <unicode/messagepattern.h>
#include <unicode/ustring.h>
#include <unicode/utf16.h>
#include <vector>

using lookd_shim::complex_type;

namespace {
using Part = icu::MessagePattern::Part;

/// Appends UTF-8 into a caller buffer, counting what does not fit.
struct Writer {
    char *buffer;
    int32_t capacity;
    int32_t length = 0;

    void byte(uint8_t value) {
        if (length < capacity) buffer[length] = static_cast<char>(value);
        length++;
    }

    void scalar(UChar32 c) {
        if (c < 0x80) {
            byte(static_cast<uint8_t>(c));
        } else if (c < 0x800) {
            byte(static_cast<uint8_t>(0xC0 | (c >> 6)));
            byte(static_cast<uint8_t>(0x80 | (c & 0x3F)));
        } else if (c < 0x10000) {
            byte(static_cast<uint8_t>(0xE0 | (c >> 12)));
            byte(static_cast<uint8_t>(0x80 | ((c >> 6) & 0x3F)));
            byte(static_cast<uint8_t>(0x80 | (c & 0x3F)));
        } else {
            byte(static_cast<uint8_t>(0xF0 | (c >> 18)));
            byte(static_cast<uint8_t>(0x80 | ((c >> 12) & 0x3F)));
            byte(static_cast<uint8_t>(0x80 | ((c >> 6) & 0x3F)));
            byte(static_cast<uint8_t>(0x80 | (c & 0x3F)));
        }
    }

    void utf16(const UChar *text, int32_t start, int32_t limit) {
        int32_t i = start;
        while (i < limit) {
            UChar32 c;
            U16_NEXT(text, i, limit, c);
            scalar(U_IS_SURROGATE(c) ? 0xFFFD : c);
        }
    }
};

bool is_complex(UMessagePatternArgType type) {
    return type == UMSGPAT_ARG_TYPE_PLURAL || type == UMSGPAT_ARG_TYPE_SELECT ||
           type == UMSGPAT_ARG_TYPE_SELECTORDINAL || type == UMSGPAT_ARG_TYPE_CHOICE;
}

bool equals(const UChar *text, const Part &part, const char16_t *word, int32_t length) {
    return part.getLength() == length && u_memcmp(text + part.getIndex(), word, length) == 0;
}

int32_t simple_type(const UChar *text, const Part &part) {
    if (equals(text, part, u"number", 6)) return LOOKD_TYPE_NUMBER;
    if (equals(text, part, u"date", 4)) return LOOKD_TYPE_DATE;
    if (equals(text, part, u"time", 4)) return LOOKD_TYPE_TIME;
    return LOOKD_TYPE_OTHER;
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
    UParseError parse{};
    UErrorCode status = U_ZERO_ERROR;
    icu::MessagePattern structure(source, &parse, status);
    if (U_FAILURE(status)) {
        lookd_shim::fill_parse_error(error, status, parse, source);
        return -static_cast<int32_t>(status);
    }
    const UChar *text = source.getBuffer();
    int32_t count = structure.countParts();

    // Incremental code point offsets: parts come in pattern order.
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

    Writer name_writer{names, names_capacity};
    int32_t item_count = 0;
    int32_t argument_count = 0;
    std::vector<int32_t> open_arguments;      // per open ARG_START: item index of its argument, or -1
    std::vector<int32_t> open_ordinals;       // per open ARG_START: the argument's ordinal, or -1
    std::vector<int32_t> open_types;
    auto item_at = [&](int32_t index) -> lookd_lint_item * {
        return index >= 0 && index < item_capacity ? &items[index] : nullptr;
    };

    for (int32_t i = 0; i < count; i++) {
        const Part &part = structure.getPart(i);
        switch (part.getType()) {
        case UMSGPAT_PART_TYPE_ARG_START:
            open_arguments.push_back(-1);
            open_ordinals.push_back(-1);
            open_types.push_back(complex_type(part.getArgType()));
            break;
        case UMSGPAT_PART_TYPE_ARG_LIMIT:
            if (!open_arguments.empty()) {
                open_arguments.pop_back();
                open_ordinals.pop_back();
                open_types.pop_back();
            }
            break;
        case UMSGPAT_PART_TYPE_ARG_NAME:
        case UMSGPAT_PART_TYPE_ARG_NUMBER:
        case UMSGPAT_PART_TYPE_ARG_SELECTOR: {
            bool selector = part.getType() == UMSGPAT_PART_TYPE_ARG_SELECTOR;
            int32_t index = item_count++;
            int32_t name_start = name_writer.length;
            name_writer.utf16(text, part.getIndex(), part.getLimit());
            if (lookd_lint_item *item = item_at(index)) {
                item->kind = selector ? 1 : 0;
                item->type = open_types.empty() ? LOOKD_TYPE_STRING : open_types.back();
                item->argument = selector ? (open_ordinals.empty() ? -1 : open_ordinals.back()) : argument_count;
                item->offset = points(part.getIndex());
                item->text_start = name_start;
                item->text_length = name_writer.length - name_start;
                item->type_start = -1;
                item->type_length = 0;
                item->style_start = -1;
                item->style_length = 0;
            }
            if (!selector && !open_arguments.empty()) {
                open_arguments.back() = index;
                open_ordinals.back() = argument_count;
            }
            if (!selector) argument_count++;
            break;
        }
        case UMSGPAT_PART_TYPE_ARG_TYPE:
            if (!open_arguments.empty()) {
                int32_t type = simple_type(text, part);
                open_types.back() = type;
                int32_t start = name_writer.length;
                name_writer.utf16(text, part.getIndex(), part.getLimit());
                if (lookd_lint_item *item = item_at(open_arguments.back())) {
                    item->type = type;
                    item->type_start = start;
                    item->type_length = name_writer.length - start;
                }
            }
            break;
        case UMSGPAT_PART_TYPE_ARG_STYLE:
            if (!open_arguments.empty()) {
                int32_t start = name_writer.length;
                name_writer.utf16(text, part.getIndex(), part.getLimit());
                if (lookd_lint_item *item = item_at(open_arguments.back())) {
                    item->style_start = start;
                    item->style_length = name_writer.length - start;
                }
            }
            break;
        default:
            break;
        }
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
