// Response heads, internal to the engine.
#ifndef LOOKD_RESPONSE_H
#define LOOKD_RESPONSE_H

#include "http_engine.h"

#include <string.h>

/// Copies `length` bytes of `text` to `out` and returns the end (the caller has made room).
static inline unsigned char *he_append(unsigned char *out, const char *text, size_t length) {
    memcpy(out, text, length);
    return out + length;
}

/// Appends `value` in `base` (10, or 16 in lower case) with at least `digits` digits (at most 20), and returns the
/// end. No printf: heads and request ids are written for every response.
static inline unsigned char *he_append_number(unsigned char *out, unsigned long long value, unsigned base, int digits) {
    unsigned char reversed[24];
    int count = 0;
    do {
        reversed[count++] = (unsigned char)"0123456789abcdef"[value % base];
        value /= base;
    } while (value != 0 || count < digits);
    while (count > 0) *out++ = reversed[--count];
    return out;
}

/// The reason phrase for `status`.
const char *he_reason(int status);
/// False for 1xx, 204 and 304, which have no body and no Content-Length.
int he_status_has_body(int status);
/// Room for the head written by he_write_head.
size_t he_head_bound(size_t fields_len);
/// Writes the status line, `fields` and Content-Length (without the final CRLF) to `out`; returns its length.
size_t he_write_head(unsigned char *out, int status, const char *fields, size_t fields_len, size_t body_len);

/// A run of bytes.
typedef struct he_bytes {
    const unsigned char *bytes;
    size_t length;
} he_bytes;
/// Like he_prepared_create, with the body the concatenation of `parts`.
he_prepared *he_prepared_compose(int status, const char *fields, size_t fields_len, const he_bytes *parts, size_t count);

int he_prepared_status(const he_prepared *prepared);
const unsigned char *he_prepared_head(const he_prepared *prepared, size_t *length);
const unsigned char *he_prepared_body(const he_prepared *prepared, size_t *length);

/// The cached answer for `request` (retained; release it after queueing), or NULL to ask the handler. Sets `started`.
he_prepared *he_fetch_table_answer(he_fetch_table *table, const he_request *request, int is_head, double *started);
/// Counts an answer from the table and writes its access log line.
void he_fetch_table_record(he_fetch_table *table, const he_request *request, int is_head, he_prepared *answer, double started);

#endif
