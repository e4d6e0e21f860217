// If-None-Match (RFC 9110 §13.1.2): the one rule lookd evaluates it by, for the engine's response cache and for the
// Swift routes (EntityTag.noneMatchHolds calls it). Pure: no allocation, no state.
#include "http_engine.h"

#include <string.h>

static int is_ows(char c) { return c == ' ' || c == '\t'; }

/// etagc = %x21 / %x23-7E / obs-text (RFC 9110 §8.8.3).
static int is_etagc(unsigned char c) { return c == 0x21 || (c >= 0x23 && c <= 0x7E) || c >= 0x80; }

int he_if_none_match(const char *value, size_t length, const char *etag, size_t etag_len) {
    // The representation's opaque-tag: the weak comparison ignores W/ on either side.
    if (etag_len >= 2 && etag[0] == 'W' && etag[1] == '/') {
        etag += 2;
        etag_len -= 2;
    }
    size_t i = 0;
    while (i < length && is_ows(value[i])) i++;
    if (i < length && value[i] == '*') {
        // "*" is the whole field value or the field is malformed.
        i++;
        while (i < length && is_ows(value[i])) i++;
        return i == length;
    }
    int matched = 0;
    for (;;) {
        // #entity-tag: elements separated by OWS "," OWS; empty elements are ignored (§5.6.1.2).
        while (i < length && is_ows(value[i])) i++;
        if (i == length) break;
        if (value[i] == ',') {
            i++;
            continue;
        }
        if (value[i] == 'W' && i + 1 < length && value[i + 1] == '/') i += 2;   // weak = %s"W/": case-sensitive
        if (i == length || value[i] != '"') return 0;
        size_t open = i++;
        while (i < length && value[i] != '"') {
            if (!is_etagc((unsigned char)value[i])) return 0;
            i++;
        }
        if (i == length) return 0;   // no closing quote
        i++;
        size_t opaque_len = i - open;
        if (opaque_len == etag_len && memcmp(value + open, etag, etag_len) == 0) matched = 1;
        while (i < length && is_ows(value[i])) i++;
        if (i < length && value[i] != ',') return 0;   // anything but a separator after an element
    }
    return matched;
}
