// Prepared responses and response heads (see http_engine.h and response.h).
#include "response.h"

#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/// One run of a prepared response's body: `length` bytes at `offset` of the bytes it owns (`owner` NULL: after its
/// head), or of the one run of another prepared value it retains. 16 bytes: an SDK fetch entry has five of them
/// (docs/http.md, "The engine's response cache": every byte here counts against the cache's bound).
typedef struct prepared_part {
    he_prepared *owner;
    uint32_t offset;
    uint32_t length;
} prepared_part;

/// One block: this header, the parts, the head, then the body bytes it owns (no padding: a part's alignment is the
/// header's, and the bytes after them need none).
struct he_prepared {
    atomic_long references;
    int status;
    uint32_t head_len;     // status line, fields and Content-Length, without the final CRLF
    uint32_t part_count;
    unsigned char shareable;   // written without X-Request-Id (he_prepared_set_shareable)
    size_t body_len;
    size_t size;         // bytes of this block (what it costs; retained owners not included)
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

/// The exact length of the head he_write_head writes (a prepared response allocates no more: every byte of a cached
/// entry counts against the bound).
static size_t head_length(int status, size_t fields_len, size_t body_len) {
    size_t length = 9 + decimal_digits((size_t)(status < 0 ? 0 : status)) + 1 + strlen(he_reason(status)) + 2 + fields_len;
    return he_status_has_body(status) ? length + 16 + decimal_digits(body_len) + 2 : length;
}

size_t he_write_head(unsigned char *out, int status, const char *fields, size_t fields_len, size_t body_len) {
    unsigned char *at = he_append(out, "HTTP/1.1 ", 9);
    at = he_append_number(at, (unsigned long long)(status < 0 ? 0 : status), 10, 1);
    *at++ = ' ';
    const char *reason = he_reason(status);
    at = he_append(at, reason, strlen(reason));
    at = he_append(at, "\r\n", 2);
    at = he_append(at, fields, fields_len);
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

he_prepared *he_prepared_create_parts(int status, const char *fields, size_t fields_len, const he_body_part *parts, size_t count) {
    int has_body = status <= 0 || he_status_has_body(status);
    size_t body_len = 0, owned = 0, kept = 0;
    for (size_t i = 0; has_body && i < count; i++) {
        if (parts[i].length == 0) continue;
        // Shared bytes must be a value's own single run (he_prepared_bytes, or a plain prepared response's body).
        const he_prepared *shared = parts[i].shared;
        if (shared && (shared->part_count != 1 || shared->parts[0].owner || parts[i].offset + parts[i].length > shared->body_len)) return NULL;
        if (parts[i].length > UINT32_MAX) return NULL;
        body_len += parts[i].length;
        if (!parts[i].shared) owned += parts[i].length;
        kept++;
    }
    size_t head_room = status > 0 ? head_length(status, fields_len, body_len) : 0;
    if (head_room > UINT32_MAX || owned > UINT32_MAX) return NULL;
    size_t size = sizeof(he_prepared) + kept * sizeof(prepared_part) + head_room + owned;
    he_prepared *prepared = malloc(size);
    if (!prepared) return NULL;
    atomic_init(&prepared->references, 1);
    prepared->status = status;
    prepared->shareable = 0;
    prepared->size = size;
    prepared->part_count = (uint32_t)kept;
    prepared->head_len = status > 0 ? (uint32_t)he_write_head(block_bytes(prepared), status, fields, fields_len, body_len) : 0;
    prepared->body_len = body_len;
    size_t at = 0, index = 0;
    for (size_t i = 0; has_body && i < count; i++) {
        if (parts[i].length == 0) continue;
        prepared_part *part = &prepared->parts[index++];
        part->length = (uint32_t)parts[i].length;
        if (parts[i].shared) {
            he_prepared_retain(parts[i].shared);
            part->owner = parts[i].shared;
            part->offset = (uint32_t)(parts[i].shared->parts[0].offset + parts[i].offset);
        } else {
            memcpy(owned_bytes(prepared) + at, parts[i].bytes, parts[i].length);
            part->owner = NULL;
            part->offset = (uint32_t)at;
            at += parts[i].length;
        }
    }
    return prepared;
}

he_prepared *he_prepared_bytes(const void *bytes, size_t length) {
    he_body_part part = {NULL, 0, bytes, length};
    return he_prepared_create_parts(0, NULL, 0, &part, 1);
}

void he_prepared_retain(he_prepared *prepared) { atomic_fetch_add_explicit(&prepared->references, 1, memory_order_relaxed); }

void he_prepared_release(he_prepared *prepared) {
    if (!prepared || atomic_fetch_sub_explicit(&prepared->references, 1, memory_order_acq_rel) != 1) return;
    for (size_t i = 0; i < prepared->part_count; i++) he_prepared_release(prepared->parts[i].owner);
    free(prepared);
}

size_t he_prepared_size(const he_prepared *prepared) { return prepared->size; }
void he_prepared_set_shareable(he_prepared *prepared) { prepared->shareable = 1; }
int he_prepared_shareable(const he_prepared *prepared) { return prepared->shareable; }
int he_prepared_status(const he_prepared *prepared) { return prepared->status; }
size_t he_prepared_body_length(const he_prepared *prepared) { return prepared->body_len; }
const unsigned char *he_prepared_head(const he_prepared *prepared, size_t *length) { *length = prepared->head_len; return block_bytes(prepared); }

size_t he_prepared_part_count(const he_prepared *prepared) { return prepared->part_count; }

const unsigned char *he_prepared_part(he_prepared *prepared, size_t index, size_t *length, he_prepared **owner) {
    const prepared_part *part = &prepared->parts[index];
    *length = part->length;
    *owner = part->owner ? part->owner : prepared;
    return owned_bytes(*owner) + part->offset;
}
