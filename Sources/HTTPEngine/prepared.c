// Prepared responses and response heads (see http_engine.h and response.h).
#include "response.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

struct he_prepared {
    atomic_long references;
    int status;
    size_t head_len;   // status line, fields and Content-Length, without the final CRLF
    size_t body_len;
    unsigned char bytes[];
};

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
    he_bytes part = {body, body_len};
    return he_prepared_compose(status, fields, fields_len, &part, 1);
}

he_prepared *he_prepared_compose(int status, const char *fields, size_t fields_len, const he_bytes *parts, size_t count) {
    size_t body_len = 0;
    if (he_status_has_body(status)) {
        for (size_t i = 0; i < count; i++) body_len += parts[i].length;
    }
    he_prepared *prepared = malloc(sizeof *prepared + he_head_bound(fields_len) + body_len);
    if (!prepared) return NULL;
    atomic_init(&prepared->references, 1);
    prepared->status = status;
    prepared->head_len = he_write_head(prepared->bytes, status, fields, fields_len, body_len);
    prepared->body_len = body_len;
    unsigned char *out = prepared->bytes + prepared->head_len;
    for (size_t i = 0; body_len && i < count; i++) {
        if (parts[i].length) memcpy(out, parts[i].bytes, parts[i].length);
        out += parts[i].length;
    }
    return prepared;
}

void he_prepared_retain(he_prepared *prepared) { atomic_fetch_add_explicit(&prepared->references, 1, memory_order_relaxed); }

void he_prepared_release(he_prepared *prepared) {
    if (prepared && atomic_fetch_sub_explicit(&prepared->references, 1, memory_order_acq_rel) == 1) free(prepared);
}

int he_prepared_status(const he_prepared *prepared) { return prepared->status; }
const unsigned char *he_prepared_head(const he_prepared *prepared, size_t *length) { *length = prepared->head_len; return prepared->bytes; }
const unsigned char *he_prepared_body(const he_prepared *prepared, size_t *length) {
    *length = prepared->body_len;
    return prepared->bytes + prepared->head_len;
}
