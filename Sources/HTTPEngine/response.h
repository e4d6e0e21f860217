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

int he_prepared_status(const he_prepared *prepared);
/// Whether it was marked with he_prepared_set_shareable (written without X-Request-Id).
int he_prepared_shareable(const he_prepared *prepared);
/// The body's length in bytes (0 for 1xx, 204 and 304).
size_t he_prepared_body_length(const he_prepared *prepared);
/// The head bytes the value holds: status line, fields and Content-Length; for a response made with a head prefix
/// (he_prepared_create_prefixed), its own fields only (the prefix's head comes before them, Content-Length after).
const unsigned char *he_prepared_head(const he_prepared *prepared, size_t *length);
/// Asks the CPU to start loading every byte writing `prepared` will read (its head, its prefix's head, its own and
/// shared body runs) without waiting for them: for a response found in memory not touched lately, so that its lines
/// arrive together, and while the loop writes the head, rather than one after another as the kernel copies them.
/// Changes nothing else; safe on any thread holding a reference.
void he_prepared_prefetch(const he_prepared *prepared);
/// The head prefix a response was made with (he_prepared_create_prefixed), or NULL.
he_prepared *he_prepared_prefix(const he_prepared *prepared);
/// The length of the whole head as the cache reads it: the prefix's head, then the value's own (without the final
/// CRLF; for a prefixed response without Content-Length).
size_t he_prepared_head_length(const he_prepared *prepared);
/// `length` bytes at `offset` of that whole head when they lie within one piece (the prefix's or the value's own),
/// else NULL.
const unsigned char *he_prepared_head_run(const he_prepared *prepared, size_t offset, size_t length);
/// Copies `length` bytes at `offset` of that whole head (within he_prepared_head_length) to `out`.
void he_prepared_head_copy(const he_prepared *prepared, size_t offset, size_t length, unsigned char *out);
/// The body's runs, in order: run `index` (below he_prepared_part_count) is `*length` bytes owned by `*owner` (the
/// value itself, or shared bytes it retains; retain the owner while the bytes are in use).
size_t he_prepared_part_count(const he_prepared *prepared);
const unsigned char *he_prepared_part(he_prepared *prepared, size_t index, size_t *length, he_prepared **owner);

/// The longest run of a 200's head the cache writes a 304 from (he_response_cache_answer's `*fields_len`).
enum { HE_CACHE_FIELDS_MAX = 4096 };

/// The cached answer for a bodyless GET or HEAD `request` (retained; release it after queueing), or NULL to ask the
/// handler. Sets `label` and `status` (0: the 200, 1: the 304). A 304 whose fields are a run of its 200's head comes
/// as that 200 with `*fields_len` > 0 (at most HE_CACHE_FIELDS_MAX): write the 304 status line and the bytes at
/// `*fields_offset` (for `*fields_len`) of its whole head (he_prepared_head_run, he_prepared_head_copy) instead; otherwise `*fields_len` is 0 and the answer is written as it is.
he_prepared *he_response_cache_answer(he_response_cache *cache, const he_request *request, int *label, int *status,
                                      size_t *fields_offset, size_t *fields_len);
/// Counts an answer of the cache with its own duration, in thread slot `slot` (the loop's index).
void he_response_cache_count(he_response_cache *cache, int slot, int label, int is_head, int status, double seconds);

#endif
