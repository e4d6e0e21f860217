// Internal: the display text of a parsed MessageFormat pattern (what a linter measures). Includes ICU.
#ifndef LOOKD_MESSAGE_TEXT_H
#define LOOKD_MESSAGE_TEXT_H
#include <unicode/messagepattern.h>
#include <string>

namespace lookd_shim {
/// The longest text the pattern can show: literal text with apostrophe quoting resolved, every simple argument
/// as U+FFFC, `#` as "#", and of each plural/select/choice the branch with the most code points. UTF-8.
std::string display_text(const icu::MessagePattern &pattern);
} // namespace lookd_shim
#endif
