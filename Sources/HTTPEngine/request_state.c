// Request state: reading a connection's input, scanning and parsing each head, reading its body, and handing the
// complete request to the handler (or the worker pool); pipelined requests one after the other.
#define _GNU_SOURCE
#include "engine.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

/// Reads from the connection's socket like read(2), and sets `c->received` from the kernel's receive timestamp of
/// the bytes read (SO_TIMESTAMPNS, inherited from the listening socket), or the loop's clock when there is none.
static ssize_t read_stamped(connection *c, void *buffer, size_t length) {
    struct iovec vector = {buffer, length};
    union {
        char bytes[CMSG_SPACE(sizeof(struct timespec))];
        struct cmsghdr align;
    } control;
    struct msghdr message = {.msg_iov = &vector, .msg_iovlen = 1, .msg_control = control.bytes, .msg_controllen = sizeof control.bytes};
    ssize_t got = recvmsg(c->fd, &message, MSG_DONTWAIT);
    if (got <= 0) return got;
    loop *l = c->loop;
    c->received = l->now;
    for (struct cmsghdr *header = CMSG_FIRSTHDR(&message); header; header = CMSG_NXTHDR(&message, header)) {
        if (header->cmsg_level != SOL_SOCKET || header->cmsg_type != SCM_TIMESTAMPNS) continue;
        struct timespec stamp;
        memcpy(&stamp, CMSG_DATA(header), sizeof stamp);
        double arrived = (double)stamp.tv_sec + (double)stamp.tv_nsec / 1e9 - l->realtime_offset;
        // Bytes may arrive after the loop woke (up to the read); a stamp far from the loop's clock means the realtime
        // clock stepped, and is not trusted.
        if (arrived < l->now + 1 && arrived > l->now - 3600) c->received = arrived;
    }
    return got;
}

void he_release_body_budget(connection *c) {
    if (c->body_reserved == 0) return;
    atomic_fetch_sub(&c->loop->server->body_bytes, c->body_reserved);
    c->body_reserved = 0;
}

static void reset_request(connection *c) {
    he_release_body_budget(c);
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
void he_finish_request(connection *c) {
    if (c->request_counted) {
        c->request_counted = 0;
        c->unwritten++;
    }
    size_t consumed = c->body_start + (c->head.chunked || c->head.content_length < 0 ? 0 : (size_t)c->head.content_length);
    if (consumed > c->in_len) consumed = c->in_len;
    memmove(c->in, c->in + consumed, c->in_len - consumed);
    c->in_len -= consumed;
    if (c->in_cap > KEEP_BUFFER_BYTES && c->in_len <= KEEP_BUFFER_BYTES) {
        // A large body was read into this buffer: give the memory back now, not when the connection closes.
        unsigned char *smaller = realloc(c->in, KEEP_BUFFER_BYTES);
        if (smaller) {
            c->in = smaller;
            c->in_cap = KEEP_BUFFER_BYTES;
        }
    }
    reset_request(c);
    if (!c->close_after_write) he_use_nodelay(c);
}

static void dispatch(connection *c) {
    he_server *server = c->loop->server;
    he_exchange *exchange = &c->exchange;
    exchange->request = c->head.request;
    exchange->request.request_id = exchange->request_id;
    exchange->request.received = c->received;
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
    atomic_store(&exchange->park, HE_PARK_NONE);
    c->state = STATE_HANDLING;
    he_response_cache *cache = server->config.response_cache;
    if (cache && exchange->request.body_len == 0 && !c->head.chunked &&
        (c->head.is_head_method || (exchange->request.method_len == 3 && memcmp(exchange->request.method, "GET", 3) == 0))) {
        int label = 0, status = 0;
        size_t fields_offset, fields_len;
        he_prepared *cached = he_response_cache_answer(cache, &exchange->request, &label, &status, &fields_offset, &fields_len);
        if (cached) {
            exchange->answered = 1;
            // An id only when something uses it: a response that is not shareable carries it, the hook logs it.
            if (!exchange->request_id[0] && (!he_prepared_shareable(cached) || server->config.cached_hook)) {
                he_next_request_id(c->loop, exchange->request_id);
            }
            if (fields_len) {
                // The 304's fields: a run of the 200's head, which may span its shared prefix and its own fields.
                unsigned char joined[HE_CACHE_FIELDS_MAX];
                const unsigned char *fields = he_prepared_head_run(cached, fields_offset, fields_len);
                if (!fields) {
                    he_prepared_head_copy(cached, fields_offset, fields_len, joined);
                    fields = joined;
                }
                he_queue_copy(c, 304, (const char *)fields, fields_len, NULL, 0, 0, !he_prepared_shareable(cached));
            } else {
                he_queue_prepared(c, cached, 0);
            }
            double seconds = he_monotonic_now() - exchange->request.received;
            if (seconds < 0) seconds = 0;
            he_response_cache_count(cache, c->loop->index, label, c->head.is_head_method, status, seconds);
            if (server->config.cached_hook) {
                size_t body = c->head.is_head_method || status ? 0 : he_prepared_body_length(cached);
                server->config.cached_hook(server->config.context, &exchange->request, label, status ? 304 : 200, body, seconds);
            }
            he_prepared_release(cached);
            he_finish_request(c);
            return;
        }
    }
    if (!exchange->request_id[0]) he_next_request_id(c->loop, exchange->request_id);
    server->config.handler(server->config.context, &exchange->request, exchange, 0);
    if (exchange->deferred) {
        c->job_pending = 1;
        if (he_worker_pool_submit(server->pool, c, exchange->deferred == 2) == 0) return;
        c->job_pending = 0;
        he_refusal busy = {503, "overloaded", "the worker queue is full; retry shortly"};
        he_refuse_request(c, &busy);
    } else if (!exchange->answered) {
        he_refusal lost = {500, "internal", "the request was not answered"};
        he_refuse_request(c, &lost);
    }
    he_finish_request(c);
}

/// Reads requests from the input as far as possible, answering those the loop answers itself.
void he_process(connection *c) {
    he_server *server = c->loop->server;
    while (c->fd >= 0 && !c->job_pending && !c->close_after_write && c->state != STATE_LINGERING && c->pending <= OUTPUT_HIGH_WATER) {
        he_refusal refusal;
        if (c->state == STATE_IDLE || c->state == STATE_HEAD) {
            if (c->in_len == 0) break;
            if (c->state == STATE_IDLE) {
                c->state = STATE_HEAD;
                c->state_since = c->rate_since = c->loop->now;
                c->rate_bytes = c->in_len;
            }
            int scanned = he_head_scan_feed(&c->scan, (const char *)c->in, c->in_len, &server->limits, &refusal);
            if (scanned < 0) {
                he_refuse_request(c, &refusal);
                break;
            }
            if (scanned == 0) break;
            if (he_head_parse((const char *)c->in, c->scan.position, &server->limits, c->fields, c->path, &c->head, &refusal) != 0) {
                c->head.keep_alive = 0;
                he_refuse_request(c, &refusal);
                break;
            }
            he_count_inflight(c->loop, 1);
            c->request_counted = 1;
            c->body_start = c->scan.position;
            if (!c->head.chunked && c->head.content_length <= 0) {
                dispatch(c);   // makes the request's id when something uses it
                continue;
            }
            he_next_request_id(c->loop, c->exchange.request_id);
            c->head.request.body = NULL;
            c->head.request.body_len = 0;
            c->head.request.request_id = c->exchange.request_id;
            c->body_limit = server->config.body_limit ? server->config.body_limit(server->config.context, &c->head.request) : (1 << 20);
            if (!c->head.chunked && c->head.content_length > c->body_limit) {
                he_refusal large = {413, "body_too_large", "the request body is larger than this route accepts"};
                he_refuse_request(c, &large);
                break;
            }
            long long reserve = c->head.chunked ? c->body_limit : c->head.content_length;
            if (atomic_fetch_add(&server->body_bytes, reserve) + reserve > server->config.body_budget) {
                atomic_fetch_sub(&server->body_bytes, reserve);
                he_refusal busy = {503, "overloaded", "the server holds too many request bodies; retry shortly"};
                he_refuse_request(c, &busy);
                c->close_after_write = 1;
                break;
            }
            c->body_reserved = reserve;
            c->state = STATE_BODY;
            if (!c->head.chunked && he_grow_input(c, c->body_start + (size_t)c->head.content_length) != 0) {
                he_refusal memory = {503, "overloaded", "out of memory"};
                he_refuse_request(c, &memory);
                c->close_after_write = 1;
                break;
            }
            if (c->head.expect_continue && c->head.request.version_minor == 1 && c->in_len == c->body_start) {
                static const char go_on[] = "HTTP/1.1 100 Continue\r\n\r\n";
                he_use_nodelay(c);   // the response follows this interim one
                he_note_output_start(c);
                if (he_reserve(&c->out, &c->out_cap, c->out_len + sizeof go_on) == 0) {
                    memcpy(c->out + c->out_len, go_on, sizeof go_on - 1);
                    he_push_segment(c, NULL, c->out_len, sizeof go_on - 1);
                    c->out_len += sizeof go_on - 1;
                }
            }
            c->state = STATE_BODY;
            c->state_since = c->rate_since = c->loop->now;
            c->rate_bytes = c->in_len - c->body_start;
        }
        if (c->state == STATE_BODY) {
            if (c->head.chunked) {
                size_t consumed = 0;
                int decoded = he_chunked_feed(&c->chunked, (const char *)c->in + c->body_start, c->in_len - c->body_start, &consumed,
                                              &c->body, &c->body_len, &c->body_cap, (size_t)c->body_limit, &refusal);
                memmove(c->in + c->body_start, c->in + c->body_start + consumed, c->in_len - c->body_start - consumed);
                c->in_len -= consumed;
                if (decoded < 0) {
                    he_refuse_request(c, &refusal);
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

static void on_readable(connection *c) {
    he_server *server = c->loop->server;
    if (c->state == STATE_LINGERING) {
        char discard[16384];
        ssize_t got = read(c->fd, discard, sizeof discard);
        if (got == 0 || (got < 0 && errno != EAGAIN && errno != EINTR)) he_close_connection(c);
        return;
    }
    size_t room_needed = c->in_len + 4096;
    size_t head_bound = server->limits.max_target_bytes + server->limits.max_field_bytes + 1024;
    if (c->state == STATE_BODY && !c->head.chunked) room_needed = c->body_start + (size_t)c->head.content_length;
    if (c->in_cap < room_needed && c->in_len < head_bound + 4096) {
        if (he_grow_input(c, room_needed) != 0) {
            he_close_connection(c);
            return;
        }
    }
    if (c->in_cap == c->in_len) {
        // Only pipelined requests beyond every limit fill the buffer: answer what can be answered, then give up.
        he_process(c);
        if (c->in_cap == c->in_len) he_close_connection(c);
        return;
    }
    ssize_t got = read_stamped(c, c->in + c->in_len, c->in_cap - c->in_len);
    if (got < 0) {
        if (errno != EAGAIN && errno != EINTR) he_close_connection(c);
        return;
    }
    if (got == 0) {
        c->peer_closed = 1;
        if (c->state == STATE_HEAD || c->state == STATE_BODY || (c->state == STATE_IDLE && c->in_len == 0)) {
            if (c->pending == 0 && !c->job_pending) {
                he_close_connection(c);
                return;
            }
        }
        return;
    }
    c->in_len += (size_t)got;
    c->rate_bytes += (size_t)got;
    if (c->state == STATE_BODY) c->state_since = c->loop->now;
    he_process(c);
}

void he_on_event(connection *c, uint32_t events) {
    if (c->fd < 0) return;
    if (events & (EPOLLERR | EPOLLHUP)) {
        // Reset, or closed both ways: no answer can be delivered.
        he_close_connection(c);
        return;
    }
    if (events & EPOLLIN) on_readable(c);
    if (c->fd >= 0 && c->pending > 0) he_write_and_resume(c);
    if (c->fd >= 0) he_update_interest(c);
}

void he_write_and_resume(connection *c) {
    for (;;) {
        he_flush(c);
        // Back-pressure: past OUTPUT_HIGH_WATER unwritten bytes he_process stops taking requests. Requests already
        // read (pipelined in one send) are taken up again here as the client reads the output down: no new input
        // will arrive to wake the connection for them, and once a write has emptied the output no EPOLLOUT will
        // either, so this must not wait for another event.
        if (c->fd < 0 || c->in_len == 0 || c->job_pending || c->pending > OUTPUT_HIGH_WATER) return;
        he_process(c);
        if (c->fd < 0 || c->pending <= OUTPUT_HIGH_WATER) {
            // Stopped below the mark (no whole request left, a job, a close): not held, so nothing to take up.
            he_flush(c);
            return;
        }
    }
}
