// Connections: accepting them (limits in total and per address, slots kept for new addresses; eviction.c makes
// room), epoll interest, closing, and recycling their memory.
#define _GNU_SOURCE
#include "engine.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

void he_update_interest(connection *c) {
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

void he_close_connection(connection *c) {
    if (c->fd < 0) return;
    loop *l = c->loop;
    he_server *server = l->server;
    if (c->registered) epoll_ctl(l->epoll_fd, EPOLL_CTL_DEL, c->fd, NULL);
    he_release_body_budget(c);
    close(c->fd);
    c->fd = -1;
    he_count_inflight(l, -(long)(c->request_counted + c->unwritten));
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

void he_free_connection(connection *c) {
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
    for (int i = c->segment_first; i < c->segment_count; i++) he_prepared_release(c->segments[i].holds);
    he_prepared_release(c->exchange.result);
    c->exchange.result = NULL;
    if (l->free_count >= 256 || c->in_cap > KEEP_BUFFER_BYTES || c->out_cap > KEEP_BUFFER_BYTES) {
        he_free_connection(c);
        return;
    }
    c->next = l->free_list;
    l->free_list = c;
    l->free_count++;
}

void he_free_closed(loop *l) {
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
    c->idle_since = c->state_since = c->write_progress = c->received = c->rate_since = l->now;
    c->rate_bytes = 0;
    c->exchange = (he_exchange){.connection = c};
    c->events = 0;
    c->registered = 0;
    c->nodelay = 0;
    c->slot = l->connection_count;
    l->connections[l->connection_count++] = c;
    return c;
}

void he_refuse_connection(int fd) {
    static const char answer[] =
        "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nRetry-After: 1\r\n"
        "Connection: close\r\nContent-Length: 85\r\n\r\n"
        "{\"error\":{\"code\":\"too_many_connections\",\"message\":\"the connection limit is reached\"}}";
    // Connections are accepted once their first bytes arrive: take those first, so the close is a FIN after the
    // answer rather than a reset that could destroy it (a reset only if the client sends more before it reads).
    // A HEAD request gets the same head without the body.
    char discard[16384];
    ssize_t got = recv(fd, discard, sizeof discard, MSG_DONTWAIT);
    size_t length = sizeof answer - 1;
    if (got > 0 && he_starts_with_head(discard, (size_t)got)) length = (size_t)(strstr(answer, "\r\n\r\n") - answer) + 4;
    ssize_t ignored = send(fd, answer, length, MSG_NOSIGNAL | MSG_DONTWAIT);
    (void)ignored;
    close(fd);
}

void he_start_connection(loop *l, int fd, const he_address *address) {
    he_server *server = l->server;
    connection *c = open_connection(l, fd, address);
    if (!c) {
        atomic_fetch_sub(&server->open, 1);
        he_address_table_release(server->addresses, address);
        close(fd);
        return;
    }
    // The request usually arrives with the handshake: read it now. A connection answered and closed here
    // never enters the epoll set; any other is registered by on_event's update_interest.
    he_on_event(c, EPOLLIN);
}

void he_accept_connections(loop *l) {
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
            he_refuse_connection(fd);
            continue;
        }
        // An address that already holds a connection may not take the last slots: those wait for new addresses.
        int slots = server->config.max_connections - (count > 1 ? server->config.connections_for_new_addresses : 0);
        if (atomic_fetch_add(&server->open, 1) >= slots && !he_evict_for(l, &address, count)) {
            // Nothing to close on this loop: the next loop may have something (the kernel spreads connections over
            // the loops, so one loop can hold only requests being handled while another holds idle ones).
            if (he_hand_over(l, fd, &address, count, 1) == 0) continue;
            atomic_fetch_sub(&server->open, 1);
            he_address_table_release(server->addresses, &address);
            he_refuse_connection(fd);
            continue;
        }
        he_start_connection(l, fd, &address);
    }
}
