// Internal: a MessageFormat pattern compiled to a small program that ICU's immutable, thread-safe pieces run
// (PluralRules::select, LocalizedNumberFormatter), for the common shapes: literal text, {name} with a string,
// {n, plural, …} over an integer (=N cases, keywords, #), {s, select, …}. Anything else — offsets, choice,
// selectordinal, styled number/date/time arguments, a value of another kind — is not compiled, or declines at
// run time, and the caller formats with icu::MessageFormat instead. The two must agree byte for byte: the tests
// compare them over every message of every catalog.
#ifndef LOOKD_MESSAGE_PROGRAM_H
#define LOOKD_MESSAGE_PROGRAM_H
#include "lookd_icu.h"
#include <unicode/messagepattern.h>
#include <unicode/numberformatter.h>
#include <unicode/plurrule.h>
#include <memory>
#include <string>
#include <vector>

namespace lookd_shim {

/// The per-locale pieces a program needs, shared by every message of the locale (built once, immutable).
struct LocaleFormatters {
    std::unique_ptr<icu::PluralRules> plural_rules;
    icu::number::LocalizedNumberFormatter numbers;
};

class MessageProgram {
public:
    /// Compiles `pattern` (already parsed) for `locale`, with arguments indexed like `names`; nullptr when the
    /// pattern uses anything the program does not run.
    static std::unique_ptr<MessageProgram> compile(const icu::MessagePattern &pattern,
                                                   const std::vector<icu::UnicodeString> &names,
                                                   const icu::Locale &locale);

    /// Appends the formatted UTF-8 text to `out`; false (with `out` unspecified) when an argument's kind is not
    /// one the program handles, so the caller falls back to MessageFormat.
    bool run(const lookd_argument *arguments, const char *text, std::string &out) const;

private:
    struct Case {
        bool is_explicit = false; // =N
        double value = 0;         // is_explicit
        std::string keyword;      // otherwise (UTF-8)
        int32_t message = -1;     // index into messages_
    };
    enum class Kind { text, string_argument, number_sign, plural, select };
    struct Node {
        Kind kind;
        std::string text;       // Kind::text
        int32_t argument = -1;  // string_argument, plural, select
        std::vector<Case> cases; // plural, select; the `other` case is `other`
        int32_t other = -1;
    };
    using Message = std::vector<Node>;

    int32_t compile_message(const icu::MessagePattern &pattern, const std::vector<icu::UnicodeString> &names,
                            int32_t start, bool in_plural, bool &supported);
    bool run_message(int32_t message, const lookd_argument *arguments, const char *text, const std::string *number,
                     std::string &out) const;

    std::vector<Message> messages_;
    std::shared_ptr<const LocaleFormatters> formatters_;
};

} // namespace lookd_shim
#endif
