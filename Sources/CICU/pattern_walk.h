// Internal: the one walk over an icu::MessagePattern's parts that both the runtime structure (message_pattern.cpp,
// MessageStructure) and the linter's pass (lint_pattern.cpp) read: every argument use and plural/select key, in
// pattern order, with its type, how it nests, and where its name, type word and style are.
#ifndef LOOKD_PATTERN_WALK_H
#define LOOKD_PATTERN_WALK_H
#include "lookd_icu.h"
#include <unicode/messagepattern.h>
#include <vector>

namespace lookd_shim {

/// One argument use (kind 0) or plural/select key (kind 1).
struct PatternItem {
    int32_t kind;
    int32_t type;               // LOOKD_TYPE_*: the argument's type; for a key, its argument's
    int32_t ordinal;            // argument: its ordinal among the arguments; key: its argument's ordinal (-1: none)
    int32_t argument_item;      // key: the item index of its argument (-1: none); argument: -1
    int32_t enclosing_selector; // argument: the item index of the key whose message contains it, else -1
    int32_t offset;             // the name's or key's start, in code points from the pattern's start
    int32_t length;             // in code points
    int32_t text_start, text_limit;   // the name or key, UTF-16 indices into the pattern
    int32_t type_start, type_limit;   // a simple argument's type word, UTF-16 indices, or -1
    int32_t style_start, style_limit; // a simple argument's style, UTF-16 indices, or -1
    int32_t style_offset, style_length; // the style in code points, or -1
};

/// Appends the items of `pattern` (parsed from `text`, its UTF-16 units) to `items`, in pattern order.
void walk_pattern(const icu::MessagePattern &pattern, const char16_t *text, std::vector<PatternItem> &items);

} // namespace lookd_shim
#endif
