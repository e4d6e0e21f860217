// Prepared responses and response heads (see http_engine.h and response.h).
#include "response.h"

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/// One run of a prepared response's body: `length` bytes at `offset` of the bytes it owns (after its head), or, with
/// IN_SHARED set in `length`, of the one value whose bytes its shared runs reference (`shared`). 8 bytes: an SDK fetch
/// entry has five of them (docs/http.md, "The engine's response cache": every byte here counts against the cache's
/// bound).
typedef struct prepared_part {
    uint32_t offset;
    uint32_t length;
} prepared_part;

enum { IN_SHARED = 0x80000000u, MAX_RUN = 0x7FFFFFFFu };

/// What a block is.
enum { KIND_RESPONSE, KIND_BYTES, KIND_PREFIX };

/// One block: this header (44 bytes on x86-64: the parts start at its end), the parts, the head, then the body bytes
/// it owns (no padding: the bytes after the parts need none). A response made with a head prefix (he_prepared_create_prefixed)
/// holds only its own fields as its head: the prefix's status line and fields come before them, Content-Length after
/// them, written for each answer (22 bytes an SDK fetch entry does not keep).
struct he_prepared {
    atomic_long references;
    he_prepared *shared;   // the value the shared runs reference (retained), or NULL
    he_prepared *prefix;   // the head's shared start (retained), or NULL
    uint32_t size;         // bytes of this block (what it costs; retained values not included)
    uint32_t body_len;
    uint32_t head_len;     // the head in this block: status line, fields and Content-Length, without the final CRLF;
                           // with a prefix, its own fields only
    int status;
    uint16_t part_count;
    unsigned char shareable;   // written without X-Request-Id (he_prepared_set_shareable)
    unsigned char kind;
    prepared_part parts[];
};

/// The head, then the bytes it owns.
static unsigned char *block_bytes(const he_prepared *prepared) {
    return (unsigned char *)(uintptr_t)(prepared->parts + prepared->part_count);
}

/// The bytes a value owns (after its head).
static unsigned char *owned_bytes(const he_prepared *prepared) { return block_bytes(prepared) + prepared->head_len; }

const char *he_reason(int status) {
    switch (status) {
    case 100: return "Continue";
    case 200: return "OK";
    case 201: return "Created";
    case 202: return "Accepted";
    case 204: return "No Content";
    case 301: return "Moved Permanently";
    case 302: return "Found";
    case 304: return "Not Modified";
    case 400: return "Bad Request";
    case 401: return "Unauthorized";
    case 403: return "Forbidden";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 408: return "Request Timeout";
    case 409: return "Conflict";
    case 411: return "Length Required";
    case 412: return "Precondition Failed";
    case 413: return "Content Too Large";
    case 414: return "URI Too Long";
    case 415: return "Unsupported Media Type";
    case 422: return "Unprocessable Content";
    case 428: return "Precondition Required";
    case 429: return "Too Many Requests";
    case 431: return "Request Header Fields Too Large";
    case 500: return "Internal Server Error";
    case 501: return "Not Implemented";
    case 503: return "Service Unavailable";
    case 505: return "HTTP Version Not Supported";
    default: return "Status";
    }
}

int he_status_has_body(int status) { return !(status < 200 || status == 204 || status == 304); }

size_t he_head_bound(size_t fields_len) { return fields_len + 96; }

/// The number of decimal digits of `value`.
static size_t decimal_digits(size_t value) {
    size_t digits = 1;
    while (value >= 10) {
        value /= 10;
        digits++;
    }
    return digits;
}

/// The length of the status line he_write_head writes.
static size_t status_line_length(int status) { return 9 + decimal_digits((size_t)(status < 0 ? 0 : status)) + 1 + strlen(he_reason(status)) + 2; }

/// Writes the status line and `fields`; returns the end.
static unsigned char *write_start(unsigned char *out, int status, const char *fields, size_t fields_len) {
    unsigned char *at = he_append(out, "HTTP/1.1 ", 9);
    at = he_append_number(at, (unsigned long long)(status < 0 ? 0 : status), 10, 1);
    *at++ = ' ';
    const char *reason = he_reason(status);
    at = he_append(at, reason, strlen(reason));
    at = he_append(at, "\r\n", 2);
    return fields_len ? he_append(at, fields, fields_len) : at;
}

/// The exact length of the head he_write_head writes (a prepared response allocates no more: every byte of a cached
/// entry counts against the bound).
static size_t head_length(int status, size_t fields_len, size_t body_len) {
    size_t length = status_line_length(status) + fields_len;
    return he_status_has_body(status) ? length + 16 + decimal_digits(body_len) + 2 : length;
}

size_t he_write_head(unsigned char *out, int status, const char *fields, size_t fields_len, size_t body_len) {
    unsigned char *at = write_start(out, status, fields, fields_len);
    if (he_status_has_body(status)) {
        at = he_append(at, "Content-Length: ", 16);
        at = he_append_number(at, body_len, 10, 1);
        at = he_append(at, "\r\n", 2);
    }
    return (size_t)(at - out);
}

he_prepared *he_prepared_create(int status, const char *fields, size_t fields_len, const void *body, size_t body_len) {
    he_body_part part = {NULL, 0, body, body_len};
    return he_prepared_create_parts(status, fields, fields_len, &part, 1);
}

/// Whether `value`'s bytes may be a shared run's: a value of one run it owns (he_prepared_bytes, or a plain prepared
/// response's body).
static int shareable_bytes(const he_prepared *value) {
    return value->kind != KIND_PREFIX && value->part_count == 1 && !(value->parts[0].length & IN_SHARED);
}

/// Builds a block: `kind`, a head (the status line unless `prefix` gives it, `fields`, Content-Length unless there
/// is a prefix or no body) and the body `parts`.
static he_prepared *create(int kind, int status, he_prepared *prefix, const char *fields, size_t fields_len, const he_body_part *parts,
                           size_t count) {
    int has_body = kind == KIND_BYTES || (kind == KIND_RESPONSE && he_status_has_body(status));
    size_t body_len = 0, owned = 0, kept = 0;
    he_prepared *shared = NULL;
    for (size_t i = 0; has_body && i < count; i++) {
        if (parts[i].length == 0) continue;
        if (parts[i].length > MAX_RUN) return NULL;
        he_prepared *value = parts[i].shared;
        if (value) {
            // One shared value per response, a value's own single run, within its bounds.
            if ((shared && value != shared) || !shareable_bytes(value) || parts[i].offset + parts[i].length > value->parts[0].length) return NULL;
            shared = value;
        } else {
            owned += parts[i].length;
        }
        body_len += parts[i].length;
        kept++;
    }
    size_t head_room = kind == KIND_BYTES ? 0 : kind == KIND_PREFIX ? status_line_length(status) + fields_len
                     : prefix ? fields_len : head_length(status, fields_len, body_len);
    size_t size = offsetof(he_prepared, parts) + kept * sizeof(prepared_part) + head_room + owned;
    if (kept > UINT16_MAX || body_len > UINT32_MAX || size > UINT32_MAX) return NULL;
    he_prepared *prepared = malloc(size);
    if (!prepared) return NULL;
    atomic_init(&prepared->references, 1);
    prepared->kind = (unsigned char)kind;
    prepared->status = status;
    prepared->shareable = 0;
    prepared->size = (uint32_t)size;
    prepared->part_count = (uint16_t)kept;
    prepared->body_len = (uint32_t)body_len;
    prepared->shared = shared;
    prepared->prefix = prefix;
    if (shared) he_prepared_retain(shared);
    if (prefix) he_prepared_retain(prefix);
    unsigned char *head = block_bytes(prepared);
    if (kind == KIND_PREFIX) {
        prepared->head_len = (uint32_t)(write_start(head, status, fields, fields_len) - head);
    } else if (prefix) {
        if (fields_len) memcpy(head, fields, fields_len);
        prepared->head_len = (uint32_t)fields_len;
    } else {
        prepared->head_len = kind == KIND_RESPONSE ? (uint32_t)he_write_head(head, status, fields, fields_len, body_len) : 0;
    }
    size_t at = 0, index = 0;
    for (size_t i = 0; has_body && i < count; i++) {
        if (parts[i].length == 0) continue;
        prepared_part *part = &prepared->parts[index++];
        if (parts[i].shared) {
            part->offset = (uint32_t)(parts[i].shared->parts[0].offset + parts[i].offset);
            part->length = (uint32_t)parts[i].length | IN_SHARED;
        } else {
            memcpy(owned_bytes(prepared) + at, parts[i].bytes, parts[i].length);
            part->offset = (uint32_t)at;
            part->length = (uint32_t)parts[i].length;
            at += parts[i].length;
        }
    }
    return prepared;
}

he_prepared *he_prepared_create_parts(int status, const char *fields, size_t fields_len, const he_body_part *parts, size_t count) {
    return create(status > 0 ? KIND_RESPONSE : KIND_BYTES, status, NULL, fields, fields_len, parts, count);
}

he_prepared *he_head_prefix(int status, const char *fields, size_t fields_len) {
    if (status < 100 || status > 999) return NULL;
    return create(KIND_PREFIX, status, NULL, fields, fields_len, NULL, 0);
}

he_prepared *he_prepared_create_prefixed(he_prepared *prefix, const char *fields, size_t fields_len, const he_body_part *parts, size_t count) {
    if (!prefix || prefix->kind != KIND_PREFIX) return NULL;
    return create(KIND_RESPONSE, prefix->status, prefix, fields, fields_len, parts, count);
}

he_prepared *he_prepared_bytes(const void *bytes, size_t length) {
    he_body_part part = {NULL, 0, bytes, length};
    return create(KIND_BYTES, 0, NULL, NULL, 0, &part, 1);
}

void he_prepared_retain(he_prepared *prepared) { atomic_fetch_add_explicit(&prepared->references, 1, memory_order_relaxed); }

void he_prepared_release(he_prepared *prepared) {
    if (!prepared || atomic_fetch_sub_explicit(&prepared->references, 1, memory_order_acq_rel) != 1) return;
    he_prepared_release(prepared->shared);
    he_prepared_release(prepared->prefix);
    free(prepared);
}

size_t he_prepared_size(const he_prepared *prepared) { return prepared->size; }
long he_prepared_references(const he_prepared *prepared) { return atomic_load_explicit(&prepared->references, memory_order_relaxed); }
void he_prepared_set_shareable(he_prepared *prepared) { prepared->shareable = 1; }
int he_prepared_shareable(const he_prepared *prepared) { return prepared->shareable; }
int he_prepared_status(const he_prepared *prepared) { return prepared->status; }
size_t he_prepared_body_length(const he_prepared *prepared) { return prepared->body_len; }
const unsigned char *he_prepared_head(const he_prepared *prepared, size_t *length) { *length = prepared->head_len; return block_bytes(prepared); }
he_prepared *he_prepared_prefix(const he_prepared *prepared) { return prepared->prefix; }

size_t he_prepared_head_length(const he_prepared *prepared) {
    return (prepared->prefix ? prepared->prefix->head_len : 0) + prepared->head_len;
}

const unsigned char *he_prepared_head_run(const he_prepared *prepared, size_t offset, size_t length) {
    size_t before = prepared->prefix ? prepared->prefix->head_len : 0;
    if (offset + length <= before) return block_bytes(prepared->prefix) + offset;
    if (offset >= before && offset - before + length <= prepared->head_len) return block_bytes(prepared) + (offset - before);
    return NULL;
}

void he_prepared_head_copy(const he_prepared *prepared, size_t offset, size_t length, unsigned char *out) {
    size_t before = prepared->prefix ? prepared->prefix->head_len : 0;
    if (offset < before) {
        size_t first = before - offset < length ? before - offset : length;
        memcpy(out, block_bytes(prepared->prefix) + offset, first);
        out += first;
        offset += first;
        length -= first;
    }
    if (length) memcpy(out, block_bytes(prepared) + (offset - before), length);
}

size_t he_prepared_part_count(const he_prepared *prepared) { return prepared->part_count; }

/// Asks the CPU to start loading `length` bytes at `at`, a cache line at a time, without waiting for them.
static void prefetch_bytes(const unsigned char *at, size_t length) {
    for (size_t offset = 0; offset < length; offset += 64) __builtin_prefetch(at + offset);
    if (length) __builtin_prefetch(at + length - 1);
}

void he_prepared_prefetch(const he_prepared *prepared) {
    prefetch_bytes((const unsigned char *)prepared, prepared->size);
    if (prepared->prefix) prefetch_bytes(block_bytes(prepared->prefix), prepared->prefix->head_len);
    for (size_t i = 0; i < prepared->part_count; i++) {
        const prepared_part *part = &prepared->parts[i];
        if (part->length & IN_SHARED) prefetch_bytes(owned_bytes(prepared->shared) + part->offset, part->length & MAX_RUN);
    }
}

const unsigned char *he_prepared_part(he_prepared *prepared, size_t index, size_t *length, he_prepared **owner) {
    const prepared_part *part = &prepared->parts[index];
    *length = part->length & MAX_RUN;
    *owner = part->length & IN_SHARED ? prepared->shared : prepared;
    return owned_bytes(*owner) + part->offset;
}
