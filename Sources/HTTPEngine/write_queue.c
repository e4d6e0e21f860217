// The write queue: responses queued in order as segments (prepared bytes, or the output buffer), the engine's
// own refusals, and writing them with sendmsg.
#define _GNU_SOURCE
#include "engine.h"

#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

int he_push_segment(connection *c, const unsigned char *base, size_t offset, size_t length) {
    if (length == 0) return 0;
    if (!base && c->segment_count > c->segment_first) {
        segment *last = &c->segments[c->segment_count - 1];
        if (!last->base && !last->holds && last->offset + last->length == offset) {
            last->length += length;
            c->pending += length;
            return 0;
        }
    }
    if (c->segment_count == c->segment_cap) {
        int capacity = c->segment_cap ? c->segment_cap * 2 : 8;
        segment *grown = realloc(c->segments, (size_t)capacity * sizeof *grown);
        if (!grown) return -1;
        c->segments = grown;
        c->segment_cap = capacity;
    }
    c->segments[c->segment_count++] = (segment){NULL, base, offset, length};
    c->pending += length;
    return 0;
}

void he_next_request_id(loop *l, char *out) {
    unsigned long long number = ++l->next_id * (unsigned long long)l->server->loop_count + (unsigned long long)l->index;
    unsigned char *end = he_append_number(he_append_number((unsigned char *)out, l->server->id_prefix, 16, 8), number, 16, 1);
    *end = 0;
}

/// Date, X-Request-Id (when `request_id`), Connection and the blank line, appended to the output buffer.
static int write_tail(connection *c, int close, int request_id) {
    size_t needed = c->out_len + c->loop->date_len + 96;
    if (he_reserve(&c->out, &c->out_cap, needed) != 0) return -1;
    unsigned char *at = c->out + c->out_len;
    memcpy(at, c->loop->date, c->loop->date_len);
    at += c->loop->date_len;
    static const char id[] = "X-Request-Id: ", closing[] = "Connection: close\r\n", keep[] = "Connection: keep-alive\r\n";
    if (request_id) {
        at = he_append(at, id, sizeof id - 1);
        at = he_append(at, c->exchange.request_id, strlen(c->exchange.request_id));
        at = he_append(at, "\r\n", 2);
    }
    if (close) at = he_append(at, closing, sizeof closing - 1);
    else if (c->head.request.version_minor == 0) at = he_append(at, keep, sizeof keep - 1);
    *at++ = '\r';
    *at++ = '\n';
    c->out_len = (size_t)(at - c->out);
    return 0;
}

/// Whether this response ends the connection; sets close_after_write.
static int decide_close(connection *c, int close) {
    if (close || !c->head.keep_alive || atomic_load_explicit(&c->loop->server->draining, memory_order_relaxed)) {
        c->close_after_write = 1;
        return 1;
    }
    return 0;
}

void he_note_output_start(connection *c) {
    if (c->pending == 0) c->write_progress = c->loop->now;
}

void he_queue_copy(connection *c, int status, const char *fields, size_t fields_len, const void *body, size_t body_len, int close, int request_id) {
    close = decide_close(c, close);
    he_note_output_start(c);
    size_t sent_body = (c->head.is_head_method || !he_status_has_body(status)) ? 0 : body_len;
    size_t start = c->out_len;
    if (he_reserve(&c->out, &c->out_cap, c->out_len + he_head_bound(fields_len) + sent_body) != 0) {
        c->close_after_write = 1;
        return;
    }
    c->out_len += he_write_head(c->out + c->out_len, status, fields, fields_len, body_len);
    if (write_tail(c, close, request_id) != 0 || he_reserve(&c->out, &c->out_cap, c->out_len + sent_body) != 0) {
        c->out_len = start;
        c->close_after_write = 1;
        return;
    }
    if (sent_body) memcpy(c->out + c->out_len, body, sent_body);
    c->out_len += sent_body;
    he_push_segment(c, NULL, start, c->out_len - start);
}

// One reference for the whole response, held by its last segment: `prepared` retains the owners of its runs and its
// head prefix, so its head and runs stay alive until then (a reference per segment, seven for an SDK fetch, had every
// loop write the same shared counts on every fetch of a popular app).
void he_queue_prepared(connection *c, he_prepared *prepared, int close) {
    close = decide_close(c, close);
    he_note_output_start(c);
    size_t head_len;
    const unsigned char *head = he_prepared_head(prepared, &head_len);
    size_t start = c->out_len;
    he_prepared *prefix = he_prepared_prefix(prepared);
    if (prefix) {
        // A head with a shared prefix: the prefix is written by reference (`prepared` retains it), the response's own
        // fields and Content-Length go with Date and Connection in the output buffer: as many iovecs as a head of one
        // piece (the keep-alive hit's kernel cost grows with them, docs/benchmarks.md, runs N and Q).
        if (he_reserve(&c->out, &c->out_cap, c->out_len + head_len + 40) != 0) {
            c->close_after_write = 1;
            return;
        }
        unsigned char *at = he_append(c->out + c->out_len, (const char *)head, head_len);
        if (he_status_has_body(he_prepared_status(prepared))) {
            at = he_append(at, "Content-Length: ", 16);
            at = he_append_number(at, he_prepared_body_length(prepared), 10, 1);
            at = he_append(at, "\r\n", 2);
        }
        c->out_len = (size_t)(at - c->out);
        head = he_prepared_head(prefix, &head_len);
    }
    if (write_tail(c, close, !he_prepared_shareable(prepared)) != 0) {
        c->out_len = start;
        c->close_after_write = 1;
        return;
    }
    int first = c->segment_count;
    int failed = he_push_segment(c, head, 0, head_len);
    if (!failed) failed = he_push_segment(c, NULL, start, c->out_len - start);
    size_t parts = c->head.is_head_method ? 0 : he_prepared_part_count(prepared);
    for (size_t i = 0; i < parts && !failed; i++) {
        size_t length;
        he_prepared *owner;
        const unsigned char *bytes = he_prepared_part(prepared, i, &length, &owner);
        failed = he_push_segment(c, bytes, 0, length);
    }
    if (c->segment_count > first) {
        he_prepared_retain(prepared);
        c->segments[c->segment_count - 1].holds = prepared;
    }
    if (failed) c->close_after_write = 1;
}

/// The engine's own refusal: a JSON error, and the connection closes once it is written. A refusal made before
/// the head was parsed (431, 400, 408) still answers a HEAD request without a body: the method is read from the
/// request line's first bytes.
void he_refuse_request(connection *c, const he_refusal *refusal) {
    if (c->exchange.request_id[0] == 0) he_next_request_id(c->loop, c->exchange.request_id);
    if (!c->head.is_head_method && (c->state == STATE_HEAD || c->state == STATE_IDLE)) {
        c->head.is_head_method = he_starts_with_head(c->in, c->in_len);
    }
    char body[512];
    int body_len = snprintf(body, sizeof body, "{\"error\":{\"code\":\"%s\",\"message\":\"%s\"}}", refusal->code, refusal->message);
    static const char json_fields[] = "Content-Type: application/json\r\n";
    char fields[128];
    size_t fields_len = sizeof json_fields - 1;
    memcpy(fields, json_fields, fields_len);
    if (refusal->status == 503) fields_len += (size_t)sprintf(fields + fields_len, "Retry-After: 1\r\n");
    int close = refusal->status != 503;
    he_queue_copy(c, refusal->status, fields, fields_len, body, (size_t)body_len, close, 1);
    if (close) c->linger = 1;
}

/// Turns Nagle's algorithm off before a connection's second response, so that one is not held back until the
/// client acknowledges the first. A connection that closes after one response never pays the call.
void he_use_nodelay(connection *c) {
    if (c->nodelay || c->fd < 0) return;
    int one = 1;
    setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    c->nodelay = 1;
}

/// Writes as much output as the socket takes. Closes the connection when it ends, or fails.
void he_flush(connection *c) {
    while (c->fd >= 0 && c->segment_first < c->segment_count) {
        struct iovec vectors[MAX_IOVECS];
        int count = 0;
        for (int i = c->segment_first; i < c->segment_count && count < MAX_IOVECS; i++, count++) {
            segment *s = &c->segments[i];
            const unsigned char *base = s->base ? s->base : c->out;
            size_t skip = i == c->segment_first ? c->segment_written : 0;
            vectors[count].iov_base = (void *)(base + s->offset + skip);
            vectors[count].iov_len = s->length - skip;
        }
        struct msghdr message = {.msg_iov = vectors, .msg_iovlen = (size_t)count};
        // The last response before a close: MSG_MORE holds its final partial segment back until the close, so
        // the FIN leaves in the same packet (one packet, and one acknowledgement, fewer per connection).
        int more = c->close_after_write && !c->linger ? MSG_MORE : 0;
        ssize_t sent = sendmsg(c->fd, &message, MSG_NOSIGNAL | MSG_DONTWAIT | more);
        if (sent < 0) {
            if (errno == EINTR) continue;
            if (errno == EAGAIN || errno == EWOULDBLOCK) break;
            he_close_connection(c);
            return;
        }
        c->write_progress = c->loop->now;
        c->pending -= (size_t)sent;
        size_t left = (size_t)sent;
        while (left > 0 && c->segment_first < c->segment_count) {
            segment *s = &c->segments[c->segment_first];
            size_t remaining = s->length - c->segment_written;
            if (left < remaining) {
                c->segment_written += left;
                break;
            }
            left -= remaining;
            he_prepared_release(s->holds);
            c->segment_first++;
            c->segment_written = 0;
        }
    }
    if (c->fd < 0 || c->segment_first < c->segment_count) return;
    c->segment_first = c->segment_count = 0;
    c->segment_written = 0;
    c->out_len = 0;
    if (c->out_cap > KEEP_BUFFER_BYTES) {
        free(c->out);
        c->out = NULL;
        c->out_cap = 0;
    }
    he_count_inflight(c->loop, -(long)c->unwritten);
    c->unwritten = 0;
    if (c->job_pending) return;
    if (c->close_after_write) {
        if (c->linger && !c->peer_closed) {
            // Read what the client still sends before closing, so the answer is not lost to a reset.
            shutdown(c->fd, SHUT_WR);
            c->state = STATE_LINGERING;
            c->state_since = c->loop->now;
        } else {
            he_close_connection(c);
        }
        return;
    }
    if (c->peer_closed && c->state != STATE_HANDLING) he_close_connection(c);
}
