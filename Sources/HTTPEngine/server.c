// The event loops, connections, deadlines and limits (see http_engine.h and docs/http.md).
#define _GNU_SOURCE
#include "http_engine.h"
#include "address_table.h"
#include "request_head.h"
#include "response.h"
#include "worker_pool.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

enum { STATE_IDLE, STATE_HEAD, STATE_BODY, STATE_HANDLING, STATE_LINGERING };
enum {
    OUTPUT_HIGH_WATER = 1 << 20,   // stop reading new requests while this much is unwritten
    MAX_IOVECS = 64,
    LINGER_SECONDS = 2,
    SWEEP_MILLISECONDS = 100,
    KEEP_BUFFER_BYTES = 64 * 1024, // larger buffers are freed once their request is done
};
/// An epoll_wait that took longer than this slept (a call that finds events ready takes a microsecond or two).
static const double SLEPT_SECONDS = 20e-6;
/// A loop that has found events ready on every wait for this long yields its core once (see run_loop).
static const double YIELD_AFTER_SECONDS = 500e-6;

/// A piece of output: bytes of a prepared response, or of the connection's own output buffer (prepared NULL).
typedef struct segment {
    he_prepared *prepared;
    const unsigned char *base;   // prepared bytes; NULL for the output buffer
    size_t offset;
    size_t length;
} segment;

typedef struct loop loop;
typedef struct connection connection;

struct he_exchange {
    connection *connection;
    he_request request;
    char request_id[32];
    int on_worker;
    int answered;
    int deferred;
    he_prepared *result;   // the worker's answer, queued by the loop
    int result_close;
};

struct connection {
    int fd;                      // -1 once closed
    loop *loop;
    int slot;                    // index in loop->connections
    he_address address;
    int state;
    // Input: the current request's head and body, then any pipelined bytes.
    unsigned char *in;
    size_t in_len, in_cap;
    he_head_scan scan;
    he_head head;
    he_field *fields;
    char *path;
    size_t body_start;
    long long body_limit;
    he_chunked chunked;
    unsigned char *body;
    size_t body_len, body_cap;
    // Output, written in order.
    unsigned char *out;
    size_t out_len, out_cap;
    segment *segments;
    int segment_first, segment_count, segment_cap;
    size_t segment_written;      // bytes of segments[segment_first] already written
    size_t pending;              // bytes not yet written
    int request_counted;         // the current request is counted in inflight
    int unwritten;               // responses queued but not completely written, counted in inflight
    int close_after_write;
    int linger;                  // input may still arrive for a refused request: drain it before closing
    int peer_closed;
    int job_pending;
    uint32_t events;             // the interest registered with epoll (when registered)
    int registered;              // in the loop's epoll set; a connection answered straight after accept never is
    int nodelay;                 // TCP_NODELAY is set: from its second response on (a first one is one write)
    double state_since;          // when the head began, or the body last progressed, or lingering began
    double idle_since;
    double write_progress;
    he_exchange exchange;
    connection *next;            // the loop's free list or list of connections closed in this iteration
    int listed_closed;           // on the list of closed connections
    connection *done_next;       // the loop's list of answered jobs (a closed connection may be on both lists)
};

struct loop {
    he_server *server;
    pthread_t thread;
    int epoll_fd, listen_fd, wake_fd;
    connection **connections;
    int connection_count, connection_cap;
    connection *free_list;
    int free_count;
    connection *closed;          // closed during this iteration, freed at its end
    pthread_mutex_t done_lock;
    connection *done;            // jobs answered by workers
    char date[64];
    size_t date_len;
    time_t date_second;
    double now;
    double busy_since;           // when the loop last returned from epoll_wait after sleeping in it (or yielded)
};

struct he_server {
    he_config config;
    he_head_limits limits;
    loop *loops;
    int loop_count;
    he_worker_pool *pool;
    he_address_table *addresses;
    atomic_int open;
    atomic_long inflight;
    atomic_int draining;
    atomic_int stopping;
    atomic_ullong next_id;
    unsigned id_prefix;
    uint16_t port;
};

static double monotonic_now(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + (double)now.tv_nsec / 1e9;
}

static void wake(loop *l) {
    uint64_t one = 1;
    ssize_t ignored = write(l->wake_fd, &one, sizeof one);
    (void)ignored;
}

// MARK: Buffers

static int reserve(unsigned char **buffer, size_t *capacity, size_t needed) {
    if (needed <= *capacity) return 0;
    size_t grown = *capacity ? *capacity : 4096;
    while (grown < needed) grown *= 2;
    unsigned char *bytes = realloc(*buffer, grown);
    if (!bytes) return -1;
    *buffer = bytes;
    *capacity = grown;
    return 0;
}

static int push_segment(connection *c, he_prepared *prepared, const unsigned char *base, size_t offset, size_t length) {
    if (length == 0) return 0;
    if (!prepared && c->segment_count > c->segment_first) {
        segment *last = &c->segments[c->segment_count - 1];
        if (!last->prepared && last->offset + last->length == offset) {
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
    if (prepared) he_prepared_retain(prepared);
    c->segments[c->segment_count++] = (segment){prepared, base, offset, length};
    c->pending += length;
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
static int grow_input(connection *c, size_t needed) {
    uintptr_t old = (uintptr_t)c->in;
    if (reserve(&c->in, &c->in_cap, needed) != 0) return -1;
    if (old && (uintptr_t)c->in != old && c->state == STATE_BODY) rebase_head(c, old);
    return 0;
}

// MARK: Connections

static void update_interest(connection *c) {
    if (c->fd < 0) return;
    uint32_t want = 0;
    if (c->state == STATE_LINGERING) {
        want = EPOLLIN;
    } else {
        if (!c->job_pending && !c->close_after_write && !c->peer_closed && c->pending <= OUTPUT_HIGH_WATER) want |= EPOLLIN;
        if (c->pending > 0) want |= EPOLLOUT;
    }
    if (c->registered && want == c->events) return;
    struct epoll_event event = {.events = want, .data.ptr = c};
    epoll_ctl(c->loop->epoll_fd, c->registered ? EPOLL_CTL_MOD : EPOLL_CTL_ADD, c->fd, &event);
    c->registered = 1;
    c->events = want;
}

static void close_connection(connection *c) {
    if (c->fd < 0) return;
    loop *l = c->loop;
    he_server *server = l->server;
    if (c->registered) epoll_ctl(l->epoll_fd, EPOLL_CTL_DEL, c->fd, NULL);
    close(c->fd);
    c->fd = -1;
    atomic_fetch_sub(&server->inflight, c->request_counted + c->unwritten);
    c->request_counted = 0;
    c->unwritten = 0;
    atomic_fetch_sub(&server->open, 1);
    he_address_table_release(server->addresses, &c->address);
    // Out of the loop's table now; freed (or recycled) at the end of the iteration.
    connection *moved = l->connections[--l->connection_count];
    l->connections[c->slot] = moved;
    moved->slot = c->slot;
    c->next = l->closed;
    c->listed_closed = 1;
    l->closed = c;
}

static void free_connection(connection *c) {
    free(c->in);
    free(c->out);
    free(c->body);
    free(c->segments);
    free(c->fields);
    free(c->path);
    free(c);
}

/// Frees or recycles a closed connection whose job (if any) has come back.
static void recycle(loop *l, connection *c) {
    for (int i = c->segment_first; i < c->segment_count; i++) he_prepared_release(c->segments[i].prepared);
    he_prepared_release(c->exchange.result);
    c->exchange.result = NULL;
    if (l->free_count >= 256 || c->in_cap > KEEP_BUFFER_BYTES || c->out_cap > KEEP_BUFFER_BYTES) {
        free_connection(c);
        return;
    }
    c->next = l->free_list;
    l->free_list = c;
    l->free_count++;
}

static void free_closed(loop *l) {
    while (l->closed) {
        connection *c = l->closed;
        l->closed = c->next;
        c->listed_closed = 0;
        if (c->job_pending) continue;   // listed again when the worker's answer arrives
        recycle(l, c);
    }
}

static connection *open_connection(loop *l, int fd, const he_address *address) {
    he_server *server = l->server;
    connection *c = l->free_list;
    if (c) {
        l->free_list = c->next;
        l->free_count--;
    } else {
        c = calloc(1, sizeof *c);
        if (!c) return NULL;
        c->fields = malloc((size_t)server->limits.max_fields * sizeof *c->fields);
        c->path = malloc(server->limits.max_target_bytes + 2);
        if (!c->fields || !c->path) {
            free(c->fields);
            free(c->path);
            free(c);
            return NULL;
        }
    }
    if (l->connection_count == l->connection_cap) {
        int capacity = l->connection_cap ? l->connection_cap * 2 : 64;
        connection **grown = realloc(l->connections, (size_t)capacity * sizeof *grown);
        if (!grown) {
            c->next = l->free_list;
            l->free_list = c;
            l->free_count++;
            return NULL;
        }
        l->connections = grown;
        l->connection_cap = capacity;
    }
    c->fd = fd;
    c->loop = l;
    c->address = *address;
    c->state = STATE_IDLE;
    c->in_len = 0;
    c->scan = (he_head_scan){0};
    c->chunked = (he_chunked){0};
    memset(&c->head, 0, sizeof c->head);
    c->head.request.version_minor = 1;
    c->listed_closed = 0;
    c->body_len = 0;
    c->out_len = 0;
    c->segment_first = c->segment_count = 0;
    c->segment_written = 0;
    c->pending = 0;
    c->request_counted = c->unwritten = 0;
    c->close_after_write = c->linger = c->peer_closed = c->job_pending = 0;
    c->idle_since = c->state_since = c->write_progress = l->now;
    c->exchange = (he_exchange){.connection = c};
    c->events = 0;
    c->registered = 0;
    c->nodelay = 0;
    c->slot = l->connection_count;
    l->connections[l->connection_count++] = c;
    return c;
}

// MARK: Responses

/// The next request id: 8 hex digits fixed per server, then a counter in hex. NUL-terminated in `out` (32 bytes).
static void next_request_id(he_server *server, char *out) {
    unsigned long long number = atomic_fetch_add_explicit(&server->next_id, 1, memory_order_relaxed) + 1;
    unsigned char *end = he_append_number(he_append_number((unsigned char *)out, server->id_prefix, 16, 8), number, 16, 1);
    *end = 0;
}

static void refresh_date(loop *l) {
    time_t second = time(NULL);
    if (second == l->date_second) return;
    l->date_second = second;
    struct tm parts;
    gmtime_r(&second, &parts);
    l->date_len = strftime(l->date, sizeof l->date, "Date: %a, %d %b %Y %H:%M:%S GMT\r\n", &parts);
}

/// Date, X-Request-Id, Connection and the blank line, appended to the output buffer.
static int write_tail(connection *c, int close) {
    size_t needed = c->out_len + c->loop->date_len + 96;
    if (reserve(&c->out, &c->out_cap, needed) != 0) return -1;
    unsigned char *at = c->out + c->out_len;
    memcpy(at, c->loop->date, c->loop->date_len);
    at += c->loop->date_len;
    static const char id[] = "X-Request-Id: ", closing[] = "Connection: close\r\n", keep[] = "Connection: keep-alive\r\n";
    at = he_append(at, id, sizeof id - 1);
    at = he_append(at, c->exchange.request_id, strlen(c->exchange.request_id));
    at = he_append(at, "\r\n", 2);
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

static void note_output_start(connection *c) {
    if (c->pending == 0) c->write_progress = c->loop->now;
}

static void queue_copy(connection *c, int status, const char *fields, size_t fields_len, const void *body, size_t body_len, int close) {
    close = decide_close(c, close);
    note_output_start(c);
    size_t sent_body = (c->head.is_head_method || !he_status_has_body(status)) ? 0 : body_len;
    size_t start = c->out_len;
    if (reserve(&c->out, &c->out_cap, c->out_len + he_head_bound(fields_len) + sent_body) != 0) {
        c->close_after_write = 1;
        return;
    }
    c->out_len += he_write_head(c->out + c->out_len, status, fields, fields_len, body_len);
    if (write_tail(c, close) != 0 || reserve(&c->out, &c->out_cap, c->out_len + sent_body) != 0) {
        c->out_len = start;
        c->close_after_write = 1;
        return;
    }
    if (sent_body) memcpy(c->out + c->out_len, body, sent_body);
    c->out_len += sent_body;
    push_segment(c, NULL, NULL, start, c->out_len - start);
}

static void queue_prepared(connection *c, he_prepared *prepared, int close) {
    close = decide_close(c, close);
    note_output_start(c);
    size_t head_len, body_len;
    const unsigned char *head = he_prepared_head(prepared, &head_len);
    const unsigned char *body = he_prepared_body(prepared, &body_len);
    push_segment(c, prepared, head, 0, head_len);
    size_t start = c->out_len;
    if (write_tail(c, close) != 0) {
        c->close_after_write = 1;
        return;
    }
    push_segment(c, NULL, NULL, start, c->out_len - start);
    if (!c->head.is_head_method) push_segment(c, prepared, body, 0, body_len);
}

/// The engine's own refusal: a JSON error, and the connection closes once it is written.
static void refuse(connection *c, const he_refusal *refusal) {
    if (c->exchange.request_id[0] == 0) next_request_id(c->loop->server, c->exchange.request_id);
    char body[512];
    int body_len = snprintf(body, sizeof body, "{\"error\":{\"code\":\"%s\",\"message\":\"%s\"}}", refusal->code, refusal->message);
    static const char json_fields[] = "Content-Type: application/json; charset=utf-8\r\n";
    char fields[128];
    size_t fields_len = sizeof json_fields - 1;
    memcpy(fields, json_fields, fields_len);
    if (refusal->status == 503) fields_len += (size_t)sprintf(fields + fields_len, "Retry-After: 1\r\n");
    int close = refusal->status != 503;
    queue_copy(c, refusal->status, fields, fields_len, body, (size_t)body_len, close);
    if (close) c->linger = 1;
}

// MARK: Requests

/// Turns Nagle's algorithm off before a connection's second response, so that one is not held back until the
/// client acknowledges the first. A connection that closes after one response never pays the call.
static void use_nodelay(connection *c) {
    if (c->nodelay || c->fd < 0) return;
    int one = 1;
    setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    c->nodelay = 1;
}

static void reset_request(connection *c) {
    c->state = STATE_IDLE;
    c->head.is_head_method = 0;
    c->head.keep_alive = 0;
    c->head.request.version_minor = 1;
    c->scan = (he_head_scan){0};
    c->chunked = (he_chunked){0};
    c->body_len = 0;
    if (c->body_cap > KEEP_BUFFER_BYTES) {
        free(c->body);
        c->body = NULL;
        c->body_cap = 0;
    }
    c->exchange.request_id[0] = 0;
    c->idle_since = c->loop->now;
}

/// The current request is answered: its bytes leave the input, and the next request (pipelined) may begin.
static void finish_request(connection *c) {
    if (c->request_counted) {
        c->request_counted = 0;
        c->unwritten++;
    }
    size_t consumed = c->body_start + (c->head.chunked || c->head.content_length < 0 ? 0 : (size_t)c->head.content_length);
    if (consumed > c->in_len) consumed = c->in_len;
    memmove(c->in, c->in + consumed, c->in_len - consumed);
    c->in_len -= consumed;
    reset_request(c);
    if (!c->close_after_write) use_nodelay(c);
}

static void dispatch(connection *c) {
    he_server *server = c->loop->server;
    he_exchange *exchange = &c->exchange;
    exchange->request = c->head.request;
    exchange->request.request_id = exchange->request_id;
    if (c->head.chunked) {
        exchange->request.body = c->body;
        exchange->request.body_len = c->body_len;
    } else {
        exchange->request.body = c->in + c->body_start;
        exchange->request.body_len = c->head.content_length > 0 ? (size_t)c->head.content_length : 0;
    }
    exchange->on_worker = 0;
    exchange->answered = 0;
    exchange->deferred = 0;
    c->state = STATE_HANDLING;
    if (server->config.fetch_table) {
        double started = 0;
        he_prepared *cached = he_fetch_table_answer(server->config.fetch_table, &exchange->request, c->head.is_head_method, &started);
        if (cached) {
            exchange->answered = 1;
            queue_prepared(c, cached, 0);
            he_fetch_table_record(server->config.fetch_table, &exchange->request, c->head.is_head_method, cached, started);
            he_prepared_release(cached);
            finish_request(c);
            return;
        }
    }
    server->config.handler(server->config.context, &exchange->request, exchange, 0);
    if (exchange->deferred) {
        c->job_pending = 1;
        if (he_worker_pool_submit(server->pool, c) == 0) return;
        c->job_pending = 0;
        he_refusal busy = {503, "overloaded", "the worker queue is full; retry shortly"};
        refuse(c, &busy);
    } else if (!exchange->answered) {
        he_refusal lost = {500, "internal", "the request was not answered"};
        refuse(c, &lost);
    }
    finish_request(c);
}

/// Reads requests from the input as far as possible, answering those the loop answers itself.
static void process(connection *c) {
    he_server *server = c->loop->server;
    while (c->fd >= 0 && !c->job_pending && !c->close_after_write && c->state != STATE_LINGERING && c->pending <= OUTPUT_HIGH_WATER) {
        he_refusal refusal;
        if (c->state == STATE_IDLE || c->state == STATE_HEAD) {
            if (c->in_len == 0) break;
            if (c->state == STATE_IDLE) {
                c->state = STATE_HEAD;
                c->state_since = c->loop->now;
            }
            int scanned = he_head_scan_feed(&c->scan, (const char *)c->in, c->in_len, &server->limits, &refusal);
            if (scanned < 0) {
                refuse(c, &refusal);
                break;
            }
            if (scanned == 0) break;
            if (he_head_parse((const char *)c->in, c->scan.position, &server->limits, c->fields, c->path, &c->head, &refusal) != 0) {
                c->head.keep_alive = 0;
                refuse(c, &refusal);
                break;
            }
            atomic_fetch_add(&server->inflight, 1);
            c->request_counted = 1;
            next_request_id(server, c->exchange.request_id);
            c->body_start = c->scan.position;
            if (!c->head.chunked && c->head.content_length <= 0) {
                dispatch(c);
                continue;
            }
            c->head.request.body = NULL;
            c->head.request.body_len = 0;
            c->head.request.request_id = c->exchange.request_id;
            c->body_limit = server->config.body_limit ? server->config.body_limit(server->config.context, &c->head.request) : (1 << 20);
            if (!c->head.chunked && c->head.content_length > c->body_limit) {
                he_refusal large = {413, "body_too_large", "the request body is larger than this route accepts"};
                refuse(c, &large);
                break;
            }
            c->state = STATE_BODY;
            if (!c->head.chunked && grow_input(c, c->body_start + (size_t)c->head.content_length) != 0) {
                he_refusal memory = {503, "overloaded", "out of memory"};
                refuse(c, &memory);
                c->close_after_write = 1;
                break;
            }
            if (c->head.expect_continue && c->head.request.version_minor == 1 && c->in_len == c->body_start) {
                static const char go_on[] = "HTTP/1.1 100 Continue\r\n\r\n";
                use_nodelay(c);   // the response follows this interim one
                note_output_start(c);
                if (reserve(&c->out, &c->out_cap, c->out_len + sizeof go_on) == 0) {
                    memcpy(c->out + c->out_len, go_on, sizeof go_on - 1);
                    push_segment(c, NULL, NULL, c->out_len, sizeof go_on - 1);
                    c->out_len += sizeof go_on - 1;
                }
            }
            c->state = STATE_BODY;
            c->state_since = c->loop->now;
        }
        if (c->state == STATE_BODY) {
            if (c->head.chunked) {
                size_t consumed = 0;
                int decoded = he_chunked_feed(&c->chunked, (const char *)c->in + c->body_start, c->in_len - c->body_start, &consumed,
                                              &c->body, &c->body_len, &c->body_cap, (size_t)c->body_limit, &refusal);
                memmove(c->in + c->body_start, c->in + c->body_start + consumed, c->in_len - c->body_start - consumed);
                c->in_len -= consumed;
                if (decoded < 0) {
                    refuse(c, &refusal);
                    break;
                }
                if (decoded == 0) break;
            } else if (c->in_len - c->body_start < (size_t)c->head.content_length) {
                break;
            }
            dispatch(c);
        }
    }
}

/// Writes as much output as the socket takes. Closes the connection when it ends, or fails.
static void flush(connection *c) {
    while (c->fd >= 0 && c->segment_first < c->segment_count) {
        struct iovec vectors[MAX_IOVECS];
        int count = 0;
        for (int i = c->segment_first; i < c->segment_count && count < MAX_IOVECS; i++, count++) {
            segment *s = &c->segments[i];
            const unsigned char *base = s->prepared ? s->base : c->out;
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
            close_connection(c);
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
            he_prepared_release(s->prepared);
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
    atomic_fetch_sub(&c->loop->server->inflight, c->unwritten);
    c->unwritten = 0;
    if (c->job_pending) return;
    if (c->close_after_write) {
        if (c->linger && !c->peer_closed) {
            // Read what the client still sends before closing, so the answer is not lost to a reset.
            shutdown(c->fd, SHUT_WR);
            c->state = STATE_LINGERING;
            c->state_since = c->loop->now;
        } else {
            close_connection(c);
        }
        return;
    }
    if (c->peer_closed && c->state != STATE_HANDLING) close_connection(c);
}

static void on_readable(connection *c) {
    he_server *server = c->loop->server;
    if (c->state == STATE_LINGERING) {
        char discard[16384];
        ssize_t got = read(c->fd, discard, sizeof discard);
        if (got == 0 || (got < 0 && errno != EAGAIN && errno != EINTR)) close_connection(c);
        return;
    }
    size_t room_needed = c->in_len + 4096;
    size_t head_bound = server->limits.max_target_bytes + server->limits.max_field_bytes + 1024;
    if (c->state == STATE_BODY && !c->head.chunked) room_needed = c->body_start + (size_t)c->head.content_length;
    if (c->in_cap < room_needed && c->in_len < head_bound + 4096) {
        if (grow_input(c, room_needed) != 0) {
            close_connection(c);
            return;
        }
    }
    if (c->in_cap == c->in_len) {
        // Only pipelined requests beyond every limit fill the buffer: answer what can be answered, then give up.
        process(c);
        if (c->in_cap == c->in_len) close_connection(c);
        return;
    }
    ssize_t got = read(c->fd, c->in + c->in_len, c->in_cap - c->in_len);
    if (got < 0) {
        if (errno != EAGAIN && errno != EINTR) close_connection(c);
        return;
    }
    if (got == 0) {
        c->peer_closed = 1;
        if (c->state == STATE_HEAD || c->state == STATE_BODY || (c->state == STATE_IDLE && c->in_len == 0)) {
            if (c->pending == 0 && !c->job_pending) {
                close_connection(c);
                return;
            }
        }
        return;
    }
    c->in_len += (size_t)got;
    if (c->state == STATE_BODY) c->state_since = c->loop->now;
    process(c);
}

static void on_event(connection *c, uint32_t events) {
    if (c->fd < 0) return;
    if (events & (EPOLLERR | EPOLLHUP)) {
        // Reset, or closed both ways: no answer can be delivered.
        close_connection(c);
        return;
    }
    if (events & EPOLLIN) on_readable(c);
    if (c->fd >= 0 && c->pending > 0) flush(c);
    if (c->fd >= 0) update_interest(c);
}

// MARK: Loop

static void refuse_connection(int fd) {
    static const char answer[] =
        "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json; charset=utf-8\r\nRetry-After: 1\r\n"
        "Connection: close\r\nContent-Length: 85\r\n\r\n"
        "{\"error\":{\"code\":\"too_many_connections\",\"message\":\"the connection limit is reached\"}}";
    // Connections are accepted once their first bytes arrive: take those first, so the close is a FIN after the
    // answer rather than a reset that could destroy it (a reset only if the client sends more before it reads).
    char discard[16384];
    ssize_t ignored = recv(fd, discard, sizeof discard, MSG_DONTWAIT);
    ignored = send(fd, answer, sizeof answer - 1, MSG_NOSIGNAL | MSG_DONTWAIT);
    (void)ignored;
    close(fd);
}

/// Makes room for a connection from an address that has `count` connections: closes this loop's longest-idle
/// keep-alive connection when its address holds more connections than that. Returns 1 when one was closed.
static int evict_for(loop *l, const he_address *address, int count) {
    connection *victim = NULL;
    for (int i = 0; i < l->connection_count; i++) {
        connection *c = l->connections[i];
        if (c->state != STATE_IDLE || c->in_len > 0 || c->pending > 0 || c->job_pending) continue;
        if (memcmp(&c->address, address, sizeof *address) == 0) continue;
        if (!victim || c->idle_since < victim->idle_since) victim = c;
    }
    if (!victim || he_address_table_count(l->server->addresses, &victim->address) <= count) return 0;
    close_connection(victim);
    return 1;
}

static void accept_connections(loop *l) {
    he_server *server = l->server;
    for (int k = 0; k < 64; k++) {
        struct sockaddr_storage peer;
        socklen_t peer_len = sizeof peer;
        int fd = accept4(l->listen_fd, (struct sockaddr *)&peer, &peer_len, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd < 0) {
            if (errno == EINTR || errno == ECONNABORTED) continue;
            return;
        }
        he_address address = he_address_from((struct sockaddr *)&peer);
        int count = he_address_table_acquire(server->addresses, &address, server->config.max_connections_per_address);
        if (count < 0) {
            refuse_connection(fd);
            continue;
        }
        if (atomic_fetch_add(&server->open, 1) >= server->config.max_connections && !evict_for(l, &address, count)) {
            atomic_fetch_sub(&server->open, 1);
            he_address_table_release(server->addresses, &address);
            refuse_connection(fd);
            continue;
        }
        connection *c = open_connection(l, fd, &address);
        if (!c) {
            atomic_fetch_sub(&server->open, 1);
            he_address_table_release(server->addresses, &address);
            close(fd);
            continue;
        }
        // The request usually arrives with the handshake: read it now. A connection answered and closed here
        // never enters the epoll set; any other is registered by on_event's update_interest.
        on_event(c, EPOLLIN);
    }
}

/// Queues the answers workers have finished and resumes their connections.
static void take_answers(loop *l) {
    pthread_mutex_lock(&l->done_lock);
    connection *done = l->done;
    l->done = NULL;
    pthread_mutex_unlock(&l->done_lock);
    while (done) {
        connection *c = done;
        done = c->done_next;
        c->job_pending = 0;
        if (c->fd < 0) {
            // Closed while its job ran: freed with this iteration's closed connections.
            if (!c->listed_closed) {
                c->next = l->closed;
                c->listed_closed = 1;
                l->closed = c;
            }
            continue;
        }
        he_prepared *answer = c->exchange.result;
        c->exchange.result = NULL;
        if (answer) {
            queue_prepared(c, answer, c->exchange.result_close);
            he_prepared_release(answer);
        } else {
            he_refusal lost = {500, "internal", "the request was not answered"};
            refuse(c, &lost);
        }
        finish_request(c);
        process(c);
        flush(c);
        update_interest(c);
    }
}

static void sweep(loop *l) {
    he_server *server = l->server;
    const he_config *config = &server->config;
    int draining = atomic_load(&server->draining);
    for (int i = l->connection_count - 1; i >= 0; i--) {
        if (i >= l->connection_count) continue;
        connection *c = l->connections[i];
        if (c->job_pending) continue;
        if (c->pending > 0) {
            // A reader that stops reading is reset (its unsent bytes dropped); one that keeps reading is never cut.
            if (l->now - c->write_progress > config->write_timeout) {
                struct linger reset = {.l_onoff = 1, .l_linger = 0};
                setsockopt(c->fd, SOL_SOCKET, SO_LINGER, &reset, sizeof reset);
                close_connection(c);
            }
            continue;
        }
        switch (c->state) {
        case STATE_LINGERING:
            if (l->now - c->state_since > LINGER_SECONDS) close_connection(c);
            break;
        case STATE_IDLE:
            if (draining || l->now - c->idle_since > config->idle_timeout) close_connection(c);
            break;
        case STATE_HEAD:
            if (l->now - c->state_since > config->head_timeout) {
                he_refusal slow = {408, "request_timeout", "the request head did not arrive in time"};
                c->head.keep_alive = 0;
                refuse(c, &slow);
                flush(c);
                update_interest(c);
            }
            break;
        case STATE_BODY:
            if (l->now - c->state_since > config->body_timeout) {
                he_refusal slow = {408, "request_timeout", "the request body stopped arriving"};
                refuse(c, &slow);
                flush(c);
                update_interest(c);
            }
            break;
        default:
            break;
        }
    }
}

static void *run_loop(void *argument) {
    loop *l = argument;
    he_server *server = l->server;
    struct epoll_event events[256];
    double next_sweep = 0;
    int listening = 1;
    while (!atomic_load(&server->stopping)) {
        double waited = monotonic_now();
        int count = epoll_wait(l->epoll_fd, events, 256, SWEEP_MILLISECONDS);
        l->now = monotonic_now();
        if (l->now - waited > SLEPT_SECONDS) {
            l->busy_since = l->now;
        } else if (l->now - l->busy_since > YIELD_AFTER_SECONDS) {
            // Busy without sleeping for a while: let the other runnable threads on this core (the sibling loop, a
            // co-located client or sidecar) run now. Otherwise they wait for the scheduler's next tick (4 ms at
            // 250 Hz), and so do the requests of every connection they serve: measured, keep-alive's p99 at 64
            // connections fell from 7.9 ms to 1.5-2 ms with no loss of throughput.
            sched_yield();
            l->now = monotonic_now();
            l->busy_since = l->now;
        }
        refresh_date(l);
        for (int i = 0; i < count; i++) {
            void *tag = events[i].data.ptr;
            if (tag == &l->listen_fd) {
                accept_connections(l);
            } else if (tag == &l->wake_fd) {
                uint64_t value;
                ssize_t ignored = read(l->wake_fd, &value, sizeof value);
                (void)ignored;
                take_answers(l);
            } else {
                on_event(tag, events[i].events);
            }
        }
        if (listening && atomic_load(&server->draining)) {
            epoll_ctl(l->epoll_fd, EPOLL_CTL_DEL, l->listen_fd, NULL);
            close(l->listen_fd);
            l->listen_fd = -1;
            listening = 0;
            next_sweep = 0;
        }
        if (l->now >= next_sweep) {
            sweep(l);
            next_sweep = l->now + SWEEP_MILLISECONDS / 1000.0;
        }
        free_closed(l);
    }
    while (l->connection_count > 0) close_connection(l->connections[0]);
    take_answers(l);
    free_closed(l);
    while (l->free_list) {
        connection *c = l->free_list;
        l->free_list = c->next;
        free_connection(c);
    }
    return NULL;
}

// MARK: Worker answers (called by worker_pool.c)

static void post_answer(connection *c) {
    loop *l = c->loop;
    pthread_mutex_lock(&l->done_lock);
    c->done_next = l->done;
    l->done = c;
    pthread_mutex_unlock(&l->done_lock);
    wake(l);
}

void he_worker_run(void *job) {
    connection *c = job;
    he_server *server = c->loop->server;
    he_exchange *exchange = &c->exchange;
    exchange->on_worker = 1;
    exchange->answered = 0;
    server->config.handler(server->config.context, &exchange->request, exchange, 1);
    post_answer(c);
}

void he_worker_cancel(void *job) { post_answer(job); }

// MARK: Public API

void he_respond(he_exchange *exchange, int status, const char *fields, size_t fields_len, const void *body, size_t body_len, int close_connection) {
    if (exchange->answered) return;
    exchange->answered = 1;
    if (exchange->on_worker) {
        exchange->result = he_prepared_create(status, fields, fields_len, body, body_len);
        exchange->result_close = close_connection;
        return;
    }
    queue_copy(exchange->connection, status, fields, fields_len, body, body_len, close_connection);
}

void he_respond_prepared(he_exchange *exchange, he_prepared *prepared, int close_connection) {
    if (exchange->answered) return;
    exchange->answered = 1;
    if (exchange->on_worker) {
        he_prepared_retain(prepared);
        exchange->result = prepared;
        exchange->result_close = close_connection;
        return;
    }
    queue_prepared(exchange->connection, prepared, close_connection);
}

void he_defer(he_exchange *exchange) {
    if (exchange->on_worker || exchange->answered) return;
    exchange->deferred = 1;
}

static int parse_address(const char *host, uint16_t port, struct sockaddr_storage *address, socklen_t *length) {
    memset(address, 0, sizeof *address);
    struct sockaddr_in *v4 = (struct sockaddr_in *)address;
    if (inet_pton(AF_INET, host, &v4->sin_addr) == 1) {
        v4->sin_family = AF_INET;
        v4->sin_port = htons(port);
        *length = sizeof *v4;
        return 0;
    }
    struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)address;
    if (inet_pton(AF_INET6, host, &v6->sin6_addr) == 1) {
        v6->sin6_family = AF_INET6;
        v6->sin6_port = htons(port);
        *length = sizeof *v6;
        return 0;
    }
    return -1;
}

static int listen_on(struct sockaddr_storage *address, socklen_t length) {
    int fd = socket(address->ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    int one = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &one, sizeof one);
    if (address->ss_family == AF_INET6) setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof one);
    // Accept a connection once its first bytes have arrived (a silent one after about a second), so the loop
    // reads the request with the accept instead of registering the socket and waiting for it.
    setsockopt(fd, IPPROTO_TCP, TCP_DEFER_ACCEPT, &one, sizeof one);
    if (bind(fd, (struct sockaddr *)address, length) != 0 || listen(fd, 4096) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

static void apply_defaults(he_config *config) {
    if (config->loops <= 0) config->loops = 1;
    if (config->workers <= 0) config->workers = 2;
    if (config->worker_queue <= 0) config->worker_queue = 256;
    if (config->max_connections <= 0) config->max_connections = 512;
    if (config->max_connections_per_address <= 0) config->max_connections_per_address = 128;
    if (config->max_target_bytes == 0) config->max_target_bytes = 4096;
    if (config->max_field_bytes == 0) config->max_field_bytes = 16384;
    if (config->max_fields <= 0) config->max_fields = 100;
    if (config->head_timeout <= 0) config->head_timeout = 10;
    if (config->body_timeout <= 0) config->body_timeout = 15;
    if (config->idle_timeout <= 0) config->idle_timeout = 15;
    if (config->write_timeout <= 0) config->write_timeout = 30;
}

static void destroy(he_server *server) {
    for (int i = 0; i < server->loop_count; i++) {
        loop *l = &server->loops[i];
        if (l->listen_fd >= 0) close(l->listen_fd);
        if (l->epoll_fd >= 0) close(l->epoll_fd);
        if (l->wake_fd >= 0) close(l->wake_fd);
        free(l->connections);
        pthread_mutex_destroy(&l->done_lock);
    }
    free(server->loops);
    he_address_table_free(server->addresses);
    free(server);
}

he_server *he_server_start(const char *host, uint16_t port, const he_config *config, char *error, size_t error_len) {
    struct sockaddr_storage address;
    socklen_t address_len;
    if (parse_address(host, port, &address, &address_len) != 0) {
        snprintf(error, error_len, "not a numeric IPv4 or IPv6 address: %s", host);
        return NULL;
    }
    he_server *server = calloc(1, sizeof *server);
    if (!server) {
        snprintf(error, error_len, "out of memory");
        return NULL;
    }
    server->config = *config;
    apply_defaults(&server->config);
    server->limits = (he_head_limits){server->config.max_target_bytes, server->config.max_field_bytes, server->config.max_fields};
    // Truncated to 32 bits through an unsigned 64-bit integer (a double over UINT_MAX converted straight is undefined).
    server->id_prefix = (unsigned)(unsigned long long)(monotonic_now() * 1e6) ^ ((unsigned)getpid() << 16);
    server->addresses = he_address_table_create();
    server->loop_count = server->config.loops;
    server->loops = calloc((size_t)server->loop_count, sizeof *server->loops);
    if (!server->addresses || !server->loops) {
        snprintf(error, error_len, "out of memory");
        free(server->loops);
        server->loop_count = 0;
        destroy(server);
        return NULL;
    }
    for (int i = 0; i < server->loop_count; i++) {
        loop *l = &server->loops[i];
        l->server = server;
        l->listen_fd = l->epoll_fd = l->wake_fd = -1;
        pthread_mutex_init(&l->done_lock, NULL);
    }
    for (int i = 0; i < server->loop_count; i++) {
        loop *l = &server->loops[i];
        l->listen_fd = listen_on(&address, address_len);
        if (l->listen_fd < 0) {
            snprintf(error, error_len, "cannot listen on %s:%u: %s", host, (unsigned)port, strerror(errno));
            destroy(server);
            return NULL;
        }
        if (i == 0) {
            // Port 0: every other loop binds the port the first one got.
            struct sockaddr_storage bound;
            socklen_t bound_len = sizeof bound;
            getsockname(l->listen_fd, (struct sockaddr *)&bound, &bound_len);
            server->port = ntohs(bound.ss_family == AF_INET ? ((struct sockaddr_in *)&bound)->sin_port : ((struct sockaddr_in6 *)&bound)->sin6_port);
            if (address.ss_family == AF_INET) ((struct sockaddr_in *)&address)->sin_port = htons(server->port);
            else ((struct sockaddr_in6 *)&address)->sin6_port = htons(server->port);
        }
        l->epoll_fd = epoll_create1(EPOLL_CLOEXEC);
        l->wake_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
        struct epoll_event listen_event = {.events = EPOLLIN, .data.ptr = &l->listen_fd};
        struct epoll_event wake_event = {.events = EPOLLIN, .data.ptr = &l->wake_fd};
        if (l->epoll_fd < 0 || l->wake_fd < 0 || epoll_ctl(l->epoll_fd, EPOLL_CTL_ADD, l->listen_fd, &listen_event) != 0 ||
            epoll_ctl(l->epoll_fd, EPOLL_CTL_ADD, l->wake_fd, &wake_event) != 0) {
            snprintf(error, error_len, "cannot create an event loop: %s", strerror(errno));
            destroy(server);
            return NULL;
        }
        l->now = monotonic_now();
        refresh_date(l);
    }
    server->pool = he_worker_pool_start(server->config.workers, server->config.worker_queue);
    if (!server->pool) {
        snprintf(error, error_len, "cannot start the worker threads");
        destroy(server);
        return NULL;
    }
    for (int i = 0; i < server->loop_count; i++) {
        if (pthread_create(&server->loops[i].thread, NULL, run_loop, &server->loops[i]) != 0) {
            snprintf(error, error_len, "cannot start the event loop threads");
            atomic_store(&server->stopping, 1);
            for (int j = 0; j < i; j++) {
                wake(&server->loops[j]);
                pthread_join(server->loops[j].thread, NULL);
            }
            he_worker_pool_stop(server->pool);
            destroy(server);
            return NULL;
        }
    }
    return server;
}

int he_server_open_connections(const he_server *server) { return atomic_load_explicit(&((he_server *)server)->open, memory_order_relaxed); }

uint16_t he_server_port(const he_server *server) { return server->port; }

void he_server_drain(he_server *server) {
    atomic_store(&server->draining, 1);
    for (int i = 0; i < server->loop_count; i++) wake(&server->loops[i]);
}

long he_server_inflight(const he_server *server) { return atomic_load(&((he_server *)server)->inflight); }

void he_server_stop(he_server *server) {
    he_worker_pool_stop(server->pool);
    atomic_store(&server->stopping, 1);
    for (int i = 0; i < server->loop_count; i++) wake(&server->loops[i]);
    for (int i = 0; i < server->loop_count; i++) pthread_join(server->loops[i].thread, NULL);
    destroy(server);
}
