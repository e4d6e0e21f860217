// The strict request-head parser (RFC 9112 §2-§7): internal to the engine, pure (no I/O), so the fuzzer and
// the tests can drive it directly.
#ifndef LOOKD_REQUEST_HEAD_H
#define LOOKD_REQUEST_HEAD_H

#include "http_engine.h"

/// Limits the parser enforces.
typedef struct he_head_limits {
    size_t max_target_bytes;
    size_t max_field_bytes;
    int max_fields;
} he_head_limits;

/// A refusal decided by the engine: HTTP status, stable error code, message for people.
typedef struct he_refusal {
    int status;
    const char *code;
    const char *message;
} he_refusal;

/// Empty lines (CRLF) ignored before a request line (RFC 9112 §2.2); one more is refused with 400.
enum { HE_MAX_LEADING_EMPTY_LINES = 8 };

/// Where the incremental scanner is in a head that has not fully arrived yet.
typedef struct he_head_scan {
    size_t position;      // bytes already scanned (a final CR is scanned again with the next bytes)
    size_t line_start;    // start of the current line
    size_t skipped;       // empty lines before the request line so far
    int lines;            // complete lines so far (request line included)
    size_t field_bytes;   // bytes of complete field lines so far
} he_head_scan;

/// The parsed head. Pointers point into the head bytes, except `path` (into the caller's path buffer).
typedef struct he_head {
    he_request request;
    size_t head_len;             // bytes of the head, leading empty lines and the final CRLF included
    long long content_length;    // -1: none
    int chunked;
    int keep_alive;
    int expect_continue;
    int is_head_method;
} he_head;

/// Scans newly arrived bytes `buffer[0..<length]` (the whole head so far, the same bytes as the previous call and
/// more). Returns 1 when the head is complete (`scan->position` is then its length), 0 when more bytes are needed,
/// -1 with `refusal` set when the head is already refused (bare LF or CR, too long a target, too many or too large
/// fields, too many empty lines before it). The result does not depend on how the bytes were split into calls: each
/// decision is made at one byte, from the bytes up to it (a CR is judged with the byte after it).
int he_head_scan_feed(he_head_scan *scan, const char *buffer, size_t length, const he_head_limits *limits, he_refusal *refusal);

/// 1 when the request that starts `buffer[0..<length]` (after any empty lines) is a HEAD request, as far as
/// its first bytes tell; 0 otherwise. For refusals made before the head could be parsed.
int he_starts_with_head(const void *buffer, size_t length);

/// Parses a complete head `buffer[0..<length]` (as found by he_head_scan_feed). `fields` has room for
/// `limits->max_fields`, `path` for `limits->max_target_bytes` bytes. Returns 0, or -1 with `refusal` set.
int he_head_parse(const char *buffer, size_t length, const he_head_limits *limits, he_field *fields, char *path,
                  he_head *head, he_refusal *refusal);

/// Strict chunked decoding (RFC 9112 §7.1): chunk extensions and trailers bounded, trailers discarded.
typedef struct he_chunked {
    int phase;
    unsigned long long remaining;
    int digits;
    size_t extension_bytes;
    size_t trailer_bytes;
    int line_empty;
} he_chunked;

/// Decodes `input[0..<length]`, appending data to `output` (capacity `*output_capacity`, grown with realloc; length
/// `*output_length`), never beyond `limit` bytes. Sets `*consumed`. Returns 1 when the body is complete, 0 when more
/// input is needed, -1 with `refusal` set (400 malformed, 413 over `limit`, 500 out of memory).
int he_chunked_feed(he_chunked *state, const char *input, size_t length, size_t *consumed,
                    unsigned char **output, size_t *output_length, size_t *output_capacity, size_t limit, he_refusal *refusal);

#endif
