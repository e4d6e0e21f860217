// Growable buffers: the connection's input (keeping a parsed head valid when it moves) and output.
#define _GNU_SOURCE
#include "engine.h"

#include <stdlib.h>

int he_reserve(unsigned char **buffer, size_t *capacity, size_t needed) {
    if (needed <= *capacity) return 0;
    size_t grown = *capacity ? *capacity : 4096;
    while (grown < needed) grown *= 2;
    unsigned char *bytes = realloc(*buffer, grown);
    if (!bytes) return -1;
    *buffer = bytes;
    *capacity = grown;
    return 0;
}

/// Points the parsed head (which points into the input buffer) at the buffer's new place after a realloc.
static void rebase_head(connection *c, uintptr_t old) {
    uintptr_t now = (uintptr_t)c->in;
    he_request *request = &c->head.request;
    request->method = (const char *)(now + ((uintptr_t)request->method - old));
    request->query = (const char *)(now + ((uintptr_t)request->query - old));
    for (size_t i = 0; i < request->field_count; i++) {
        c->fields[i].name = (const char *)(now + ((uintptr_t)c->fields[i].name - old));
        c->fields[i].value = (const char *)(now + ((uintptr_t)c->fields[i].value - old));
    }
}

/// Grows the input buffer to `needed` bytes, keeping a parsed head (state BODY) valid.
int he_grow_input(connection *c, size_t needed) {
    uintptr_t old = (uintptr_t)c->in;
    if (he_reserve(&c->in, &c->in_cap, needed) != 0) return -1;
    if (old && (uintptr_t)c->in != old && c->state == STATE_BODY) rebase_head(c, old);
    return 0;
}
