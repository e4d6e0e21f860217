// Internal: how the shim names ICU MessagePattern argument types (LOOKD_TYPE_* in the public header).
// Shared by message_pattern.cpp (pattern structure) and lint_pattern.cpp (the linter's single pass).
#ifndef LOOKD_PATTERN_TYPES_H
#define LOOKD_PATTERN_TYPES_H
#include "lookd_icu.h"
#include <unicode/messagepattern.h>

namespace lookd_shim {

/// The LOOKD_TYPE_* of a complex argument (plural, select, selectordinal, choice); LOOKD_TYPE_STRING for NONE,
/// and for SIMPLE, which its ARG_TYPE part refines.
inline int32_t complex_type(UMessagePatternArgType type) {
    switch (type) {
    case UMSGPAT_ARG_TYPE_PLURAL: return LOOKD_TYPE_PLURAL;
    case UMSGPAT_ARG_TYPE_SELECT: return LOOKD_TYPE_SELECT;
    case UMSGPAT_ARG_TYPE_SELECTORDINAL: return LOOKD_TYPE_SELECTORDINAL;
    case UMSGPAT_ARG_TYPE_CHOICE: return LOOKD_TYPE_CHOICE;
    default: return LOOKD_TYPE_STRING;
    }
}

} // namespace lookd_shim
#endif
