#ifndef LOOKD_ICU_H
#define LOOKD_ICU_H
/* The shim between lookd and the system ICU (Debian libicu-dev 72).
 * This public header includes no ICU header and exposes no ICU type (docs/design.md#icu-and-foundation-in-one-process).
 *
 * Conventions:
 * - Text in is UTF-8 with an explicit byte length; text out is UTF-8 written into a caller buffer.
 *   Functions that write text return the full length in bytes the text needs (without a terminating NUL);
 *   when that is more than the capacity, the buffer holds a truncated prefix and the caller retries with a
 *   bigger buffer. A negative return is an ICU error code (negated UErrorCode).
 * - Handles are opaque. Every handle documented as thread-safe may be used from many threads at once.
 */
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The ICU version in use, e.g. "72.1". Static storage; never NULL. */
const char *lookd_icu_version(void);

/* ---------------------------------------------------------------- errors */

/** Where a pattern failed to parse: `line` and `offset` as ICU's UParseError reports them (offset in UTF-16
 *  code units from the start of the line), `code_point_offset` from the start of the pattern in code points,
 *  `message` the ICU error name (e.g. "U_UNMATCHED_BRACES"). */
typedef struct lookd_parse_error {
    int32_t error_code;
    int32_t line;
    int32_t offset;
    int32_t code_point_offset;
    char message[64];
} lookd_parse_error;

/** The name of an ICU error code, e.g. "U_ILLEGAL_ARGUMENT_ERROR". Static storage. */
const char *lookd_icu_error_name(int32_t error_code);

/* ---------------------------------------------------------------- locale matcher (matcher.cpp) */

typedef struct lookd_matcher lookd_matcher;

/** Builds an icu::LocaleMatcher once from `count` supported BCP 47 tags (in order), with `default_index`
 *  the answer when nothing matches well enough. CLDR's defaults: favour language, demote per desired
 *  locale by region, one-way matches allowed. Returns NULL and sets *error_code on failure.
 *  Thread-safe after creation (icu::LocaleMatcher is immutable). */
lookd_matcher *lookd_matcher_create(const char *const *tags, const int32_t *lengths, int32_t count,
                                    int32_t default_index, int32_t *error_code);
void lookd_matcher_destroy(lookd_matcher *matcher);

/** The index (into the supported list) of the best match for one desired tag. A tag ICU cannot parse,
 *  an empty tag or a tag that matches nothing gives the default index. Never fails. When `matched` is not
 *  NULL it receives 1 when a desired tag matched well enough, 0 when the default was returned instead. */
int32_t lookd_matcher_best_for_tag(const lookd_matcher *matcher, const char *tag, int32_t length, int32_t *matched);

/** The index of the best match for desired tags in preference order (most preferred first). Tags ICU
 *  cannot parse are skipped; an empty list gives the default index. Never fails. */
int32_t lookd_matcher_best_for_tags(const lookd_matcher *matcher, const char *const *tags,
                                    const int32_t *lengths, int32_t count, int32_t *matched);

/* ---------------------------------------------------------------- locale facts (locale_info.cpp) */

/** 1 when ICU can parse `tag` as a well-formed BCP 47 language tag, consuming all of it; else 0. */
int32_t lookd_locale_is_well_formed(const char *tag, int32_t length);

/** The canonical BCP 47 form of `tag` (e.g. "iw" -> "he", "EN_us" -> "en-US"); writes UTF-8 into buffer.
 *  Returns the length needed, or a negative error when `tag` is not well-formed. */
int32_t lookd_locale_canonicalize(const char *tag, int32_t length, char *buffer, int32_t capacity);

/** `tag` with likely subtags added (e.g. "zh-MO" -> "zh-Hant-MO"), as a BCP 47 tag. */
int32_t lookd_locale_maximize(const char *tag, int32_t length, char *buffer, int32_t capacity);

/** The CLDR parent locale of `tag` as ICU's data records it (e.g. "es-MX" -> "es-419", "zh-Hant" -> "root"),
 *  as a BCP 47 tag or "root"; 0 bytes when the data has no explicit parent for this locale. */
int32_t lookd_locale_explicit_parent(const char *tag, int32_t length, char *buffer, int32_t capacity);

/** The locale's own name in its own language (e.g. "de" -> "Deutsch"). */
int32_t lookd_locale_native_name(const char *tag, int32_t length, char *buffer, int32_t capacity);

/** 1 when the locale's script is written right to left, else 0. */
int32_t lookd_locale_is_rtl(const char *tag, int32_t length);

/** Every locale ID ICU's data has, as ICU spells them ("nb_NO", "zh_Hant_MO"), legacy aliases included ("iw",
 *  "no_NO", "sh", "zh_TW"), separated by single spaces. For tests that must cover all of ICU's data. */
int32_t lookd_locale_available_ids(char *buffer, int32_t capacity);

/* ---------------------------------------------------------------- plural rules (plural_rules.cpp) */

typedef struct lookd_plural_rules lookd_plural_rules;

/** The cardinal plural rules of a locale. NULL and *error_code on failure. Thread-safe (select is const). */
lookd_plural_rules *lookd_plural_rules_open(const char *tag, int32_t length, int32_t *error_code);
void lookd_plural_rules_close(lookd_plural_rules *rules);

/** The category keyword for an integer, e.g. "one". Writes ASCII into buffer; returns its length. */
int32_t lookd_plural_rules_select_int(const lookd_plural_rules *rules, int64_t value, char *buffer, int32_t capacity);

/** The category for a number with `fraction_digits` visible fraction digits (e.g. 1.5 with 1 -> "other" in ru;
 *  1 with 0 -> "one"; 1 with 1, i.e. "1.0" -> "other" in en). `fraction_digits` < 0 means as many as the
 *  shortest round-trip decimal form needs. Uses icu::number so the visible digits match what is shown. */
int32_t lookd_plural_rules_select_double(const lookd_plural_rules *rules, double value, int32_t fraction_digits,
                                         char *buffer, int32_t capacity);

/** Every keyword of the rules, space-separated in CLDR order (zero one two few many other). */
int32_t lookd_plural_rules_keywords(const lookd_plural_rules *rules, char *buffer, int32_t capacity);

/** The keywords that the integers 0...max_integer select, space-separated in CLDR order. */
int32_t lookd_plural_rules_integer_keywords(const lookd_plural_rules *rules, int32_t max_integer,
                                            char *buffer, int32_t capacity);

/* ---------------------------------------------------------------- nesting limit (nesting_guard.cpp) */

/** How deeply a MessageFormat pattern may nest plural, select, selectordinal and choice sub-messages: ICU's
 *  nesting level (a top-level `{n, plural, one{…}}` branch is level 1, a select inside it level 2). Every function
 *  below that parses a pattern (lookd_message_open, lookd_pattern_parse, lookd_lint_pattern) refuses a deeper
 *  pattern before ICU's recursive parser runs on the caller's stack, with the error name "LOOKD_NESTING_TOO_DEEP"
 *  (code U_INDEX_OUTOFBOUNDS_ERROR) and the code-point offset of the first sub-message past the limit. */
#define LOOKD_MESSAGE_NESTING_LIMIT 100

/* ---------------------------------------------------------------- message format (message_format.cpp) */

typedef struct lookd_message lookd_message;

/** The kinds of a formatting argument. */
enum {
    LOOKD_ARG_ABSENT = 0, /* not supplied: formatting fails with U_ILLEGAL_ARGUMENT_ERROR */
    LOOKD_ARG_STRING = 1, /* UTF-8 text at text + offset, `length` bytes */
    LOOKD_ARG_INT64 = 2,
    LOOKD_ARG_DOUBLE = 3,
    LOOKD_ARG_DATE = 4,   /* milliseconds since 1970-01-01T00:00:00Z (ICU's UDate) in `number` */
};

typedef struct lookd_argument {
    int32_t kind;
    int32_t offset;   /* LOOKD_ARG_STRING: byte offset into the shared text */
    int32_t length;   /* LOOKD_ARG_STRING: byte length */
    int64_t integer;  /* LOOKD_ARG_INT64 */
    double number;    /* LOOKD_ARG_DOUBLE, LOOKD_ARG_DATE */
} lookd_argument;

/** Parses a MessageFormat pattern once for a locale. NULL on failure, with *error filled in.
 *  Thread-safe: a compiled program (see lookd_message_is_compiled) runs without a lock; the MessageFormat path
 *  locks a per-message mutex (ICU's MessageFormat lazily builds sub-formatters and is not safe for concurrent
 *  format calls on one instance; a lock measured cheaper than a clone per call). */
lookd_message *lookd_message_open(const char *pattern, int32_t pattern_length, const char *tag, int32_t tag_length,
                                  lookd_parse_error *error);
void lookd_message_close(lookd_message *message);

/** The number of distinct named arguments of the message (top-level and nested). */
int32_t lookd_message_argument_count(const lookd_message *message);

/** The name of argument `index` (0 ..< count), in the order of first appearance. */
int32_t lookd_message_argument_name(const lookd_message *message, int32_t index, char *buffer, int32_t capacity);

/** Formats with `count` arguments, indexed like lookd_message_argument_name (count must equal the argument
 *  count). String arguments are slices of `text`. Writes UTF-8; returns the needed length or a negative error. */
int32_t lookd_message_format(lookd_message *message, const lookd_argument *arguments, int32_t count,
                             const char *text, char *buffer, int32_t capacity);

/** The same through icu::MessageFormat always. lookd_message_format runs a compiled program instead when the
 *  pattern is simple enough (text, {name}, integer plural with =N and #, select) and gives the same bytes; this is
 *  the reference the tests compare it with. */
int32_t lookd_message_format_with_icu(lookd_message *message, const lookd_argument *arguments, int32_t count,
                                      const char *text, char *buffer, int32_t capacity);

/** 1 when lookd_message_format can run the message's compiled program, 0 when it always uses MessageFormat. */
int32_t lookd_message_is_compiled(const lookd_message *message);

/* ---------------------------------------------------------------- message pattern (message_pattern.cpp)
 * Its items and the linter's (lookd_lint_pattern) come from one walk over icu::MessagePattern (pattern_walk.h). */

typedef struct lookd_pattern lookd_pattern;

/** Argument types, as the pattern spells them. */
enum {
    LOOKD_TYPE_STRING = 0,        /* {name} */
    LOOKD_TYPE_NUMBER = 1,        /* {name, number, ...} */
    LOOKD_TYPE_DATE = 2,          /* {name, date, ...} */
    LOOKD_TYPE_TIME = 3,          /* {name, time, ...} */
    LOOKD_TYPE_PLURAL = 4,
    LOOKD_TYPE_SELECT = 5,
    LOOKD_TYPE_SELECTORDINAL = 6,
    LOOKD_TYPE_CHOICE = 7,
    LOOKD_TYPE_OTHER = 8,         /* spellout, ordinal, duration or another simple type */
};

/** One item of a parsed pattern: an argument (kind 0) or a plural/select selector key (kind 1). */
typedef struct lookd_pattern_item {
    int32_t kind;             /* 0 argument, 1 selector */
    int32_t type;             /* LOOKD_TYPE_*: the argument's type, or for a selector its argument's type */
    int32_t parent;           /* for a selector: the index of its argument item; for an argument: the index of
                                 the selector whose message contains it, or -1 at top level */
    int32_t offset;           /* the name's or key's start, in code points from the pattern's start */
    int32_t length;           /* in code points */
    int32_t style_offset;     /* simple arguments with a style (e.g. "::dMMM"): its start in code points, else -1 */
    int32_t style_length;
} lookd_pattern_item;

/** Parses a pattern's structure with icu::MessagePattern (no locale, nothing formatted). NULL on failure with
 *  *error filled in. The result is immutable and thread-safe. */
lookd_pattern *lookd_pattern_parse(const char *pattern, int32_t length, lookd_parse_error *error);
void lookd_pattern_close(lookd_pattern *pattern);
int32_t lookd_pattern_item_count(const lookd_pattern *pattern);
/** Item `index`; its name or key text (UTF-8) goes to buffer, the return is that text's length. */
int32_t lookd_pattern_get_item(const lookd_pattern *pattern, int32_t index, lookd_pattern_item *item,
                           char *buffer, int32_t capacity);

/* ---------------------------------------------------------------- lint (lint_pattern.cpp) */

/** One argument use (kind 0) or plural/select key (kind 1) of a pattern, for the linter. */
typedef struct lookd_lint_item {
    int32_t kind;         /* 0 argument, 1 selector key */
    int32_t type;         /* LOOKD_TYPE_*: the argument's type (for a key: its argument's) */
    int32_t argument;     /* argument: its ordinal among the arguments; key: the ordinal of its argument */
    int32_t offset;       /* the name's or key's start, in code points from the pattern's start */
    int32_t text_start;   /* the name or key: byte range in the `names` buffer */
    int32_t text_length;
    int32_t type_start;   /* a simple argument's type word ("number", "spellout", …): byte range in `names`, or -1 */
    int32_t type_length;
    int32_t style_start;  /* a simple argument's style as written (e.g. "::dMMM"): byte range in `names`, or -1 */
    int32_t style_length;
} lookd_lint_item;

typedef struct lookd_lint_summary {
    int32_t item_count;          /* items the pattern has (more than the capacity: call again, bigger) */
    int32_t names_length;        /* bytes of all names and keys */
    int32_t display_length;      /* bytes of the display text */
    int32_t display_code_points; /* code points of the display text */
} lookd_lint_summary;

/** Parses `pattern` with icu::MessagePattern once and writes, into caller buffers: its items, their names and
 *  keys (UTF-8, concatenated), and its display text — the longest text it can show, with apostrophe quoting
 *  resolved, each simple argument as U+FFFC, `#` as "#" and of each plural/select/choice the branch with the
 *  most code points. What does not fit is counted in `summary` (call again with bigger buffers).
 *  Returns 0, or a negative ICU error with *error filled in when the pattern does not parse. Thread-safe. */
int32_t lookd_lint_pattern(const char *pattern, int32_t length, lookd_parse_error *error,
                           lookd_lint_item *items, int32_t item_capacity, char *names, int32_t names_capacity,
                           char *display, int32_t display_capacity, lookd_lint_summary *summary);

/** A locale's plural categories — cardinal when `ordinal` is 0, ordinal (selectordinal) otherwise — as a bit
 *  mask in CLDR order (bit 0 zero, 1 one, 2 two, 3 few, 4 many, 5 other), and in `selected[n]` the index (0…5,
 *  same order) of the category ICU selects for each integer n in 0…max_integer (max_integer + 1 bytes).
 *  Returns the mask, or a negative ICU error when `tag` is not well-formed. */
int32_t lookd_lint_plural_categories(const char *tag, int32_t length, int32_t ordinal, int32_t max_integer,
                                     uint8_t *selected);

#ifdef __cplusplus
}
#endif
#endif
