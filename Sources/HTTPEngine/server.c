// The public API (http_engine.h): starting, draining and stopping a server, and answering an exchange.
#define _GNU_SOURCE
#include "engine.h"

#include <malloc.h>

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

void he_respond(he_exchange *exchange, int status, const char *fields, size_t fields_len, const void *body, size_t body_len, int close_connection) {
    if (exchange->answered) return;
    exchange->answered = 1;
    if (exchange->on_worker) {
        exchange->result = he_prepared_create(status, fields, fields_len, body, body_len);
        exchange->result_close = close_connection;
        return;
    }
    he_queue_copy(exchange->connection, status, fields, fields_len, body, body_len, close_connection, 1);
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
    he_queue_prepared(exchange->connection, prepared, close_connection);
}

int he_park(he_exchange *exchange) {
    if (!exchange->on_worker || exchange->answered) return -1;
    atomic_store(&exchange->park, HE_PARK_PARKED);
    return 0;
}

void he_respond_parked(he_exchange *exchange, int status, const char *fields, size_t fields_len, const void *body, size_t body_len,
                       int close_connection) {
    he_respond(exchange, status, fields, fields_len, body, body_len, close_connection);
    int parked = HE_PARK_PARKED;
    // Answered before its worker returned: the worker posts it. Otherwise the worker is gone: post it here.
    if (atomic_compare_exchange_strong(&exchange->park, &parked, HE_PARK_ANSWERED)) return;
    he_post_answer(exchange->connection);
}

void he_defer(he_exchange *exchange) {
    if (exchange->on_worker || exchange->answered) return;
    exchange->deferred = 1;
}

void he_defer_reserved(he_exchange *exchange) {
    if (exchange->on_worker || exchange->answered) return;
    exchange->deferred = 2;
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
    // The kernel stamps each read with its bytes' arrival time (accepted sockets inherit the option), so a request's
    // duration includes the time it waited in the socket for a busy loop (he_request.received).
    setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPNS, &one, sizeof one);
    if (bind(fd, (struct sockaddr *)address, length) != 0 || listen(fd, 4096) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

/// calloc for the server and its loops, whose counters sit on cache lines of their own (`_Alignas(64)`), which
/// calloc's 16-byte alignment does not honour. NULL when out of memory.
static void *aligned_calloc(size_t count, size_t size) {
    size_t bytes = (count * size + 63) / 64 * 64;
    void *memory = aligned_alloc(64, bytes);
    if (memory) memset(memory, 0, bytes);
    return memory;
}

static void apply_defaults(he_config *config) {
    if (config->loops <= 0) config->loops = 1;
    if (config->workers <= 0) config->workers = 2;
    if (config->worker_queue <= 0) config->worker_queue = 256;
    if (config->body_budget <= 0) config->body_budget = 128LL << 20;
    if (config->max_connections <= 0) config->max_connections = 512;
    if (config->max_connections_per_address <= 0) config->max_connections_per_address = 128;
    if (config->max_target_bytes == 0) config->max_target_bytes = 4096;
    if (config->max_field_bytes == 0) config->max_field_bytes = 16384;
    if (config->max_fields <= 0) config->max_fields = 100;
    if (config->head_timeout <= 0) config->head_timeout = 10;
    if (config->body_timeout <= 0) config->body_timeout = 15;
    if (config->idle_timeout <= 0) config->idle_timeout = 15;
    if (config->write_timeout <= 0) config->write_timeout = 30;
    if (config->min_data_rate <= 0) config->min_data_rate = 1024;
    if (config->rate_grace <= 0) config->rate_grace = 5;
    if (config->connections_for_new_addresses == 0) config->connections_for_new_addresses = config->max_connections / 16;
    if (config->connections_for_new_addresses < 0) config->connections_for_new_addresses = 0;
    if (config->connections_for_new_addresses > config->max_connections / 2) config->connections_for_new_addresses = config->max_connections / 2;
}

static void destroy(he_server *server) {
    for (int i = 0; i < server->loop_count; i++) {
        loop *l = &server->loops[i];
        he_drop_handovers(l);
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

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define HE_SANITIZER_ALLOCATOR 1
#endif
#endif

#if defined(__GLIBC__) && !defined(HE_SANITIZER_ALLOCATOR)
static pthread_once_t mmap_threshold_once = PTHREAD_ONCE_INIT;

// A fixed mmap threshold: buffers of 256 KiB and more (large bodies and responses) are mapped and given back to
// the system when freed. glibc's default threshold rises after each such free (up to 32 MiB), after which
// freed bodies stayed in the heap: 510 slow 8 MiB bodies left 1.6 GB resident after their clients closed.
static void set_mmap_threshold(void) { mallopt(M_MMAP_THRESHOLD, 256 * 1024); }
#endif

// Once per process, because the setting is process-wide and glibc's malloc set-up is not safe to run twice: when
// nothing in the process has used glibc's malloc yet (a sanitizer's allocator serves malloc), two servers starting at
// once both ran it from mallopt, and the second of their threads to exit aborted with "malloc assertion failure in
// __malloc_arena_thread_freeres". Under ASan and TSan the call is skipped: their allocator ignores glibc's settings.
static void set_mmap_threshold_once(void) {
#if defined(__GLIBC__) && !defined(HE_SANITIZER_ALLOCATOR)
    pthread_once(&mmap_threshold_once, set_mmap_threshold);
#endif
}

he_server *he_server_start(const char *host, uint16_t port, const he_config *config, char *error, size_t error_len) {
    struct sockaddr_storage address;
    socklen_t address_len;
    if (parse_address(host, port, &address, &address_len) != 0) {
        snprintf(error, error_len, "not a numeric IPv4 or IPv6 address: %s", host);
        return NULL;
    }
    set_mmap_threshold_once();
    he_server *server = aligned_calloc(1, sizeof *server);
    if (!server) {
        snprintf(error, error_len, "out of memory");
        return NULL;
    }
    server->config = *config;
    apply_defaults(&server->config);
    server->limits = (he_head_limits){server->config.max_target_bytes, server->config.max_field_bytes, server->config.max_fields};
    // Truncated to 32 bits through an unsigned 64-bit integer (a double over UINT_MAX converted straight is undefined).
    server->id_prefix = (unsigned)(unsigned long long)(he_monotonic_now() * 1e6) ^ ((unsigned)getpid() << 16);
    server->addresses = he_address_table_create();
    server->loop_count = server->config.loops;
    server->loops = aligned_calloc((size_t)server->loop_count, sizeof *server->loops);
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
        l->index = i;
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
        he_loop_clock(l);
        he_refresh_date(l);
    }
    server->pool = he_worker_pool_start(server->config.workers, server->config.reserved_workers, server->config.worker_queue);
    if (!server->pool) {
        snprintf(error, error_len, "cannot start the worker threads");
        destroy(server);
        return NULL;
    }
    for (int i = 0; i < server->loop_count; i++) {
        if (pthread_create(&server->loops[i].thread, NULL, he_run_loop, &server->loops[i]) != 0) {
            snprintf(error, error_len, "cannot start the event loop threads");
            atomic_store(&server->stopping, 1);
            for (int j = 0; j < i; j++) {
                he_wake_loop(&server->loops[j]);
                pthread_join(server->loops[j].thread, NULL);
            }
            he_worker_pool_stop(server->pool);
            destroy(server);
            return NULL;
        }
        // Named for `top -H`, perf and /proc/PID/task/*/comm (at most 15 bytes): which thread waits or runs.
        pthread_setname_np(server->loops[i].thread, "lookd-loop");
    }
    return server;
}

int he_server_open_connections(const he_server *server) { return atomic_load_explicit(&((he_server *)server)->open, memory_order_relaxed); }

uint16_t he_server_port(const he_server *server) { return server->port; }

void he_server_drain(he_server *server) {
    atomic_store(&server->draining, 1);
    for (int i = 0; i < server->loop_count; i++) he_wake_loop(&server->loops[i]);
}

long he_server_inflight(const he_server *server) {
    long sum = 0;
    for (int i = 0; i < server->loop_count; i++) sum += atomic_load_explicit(&server->loops[i].inflight, memory_order_relaxed);
    return sum;
}

void he_server_stop(he_server *server) {
    he_worker_pool_stop(server->pool);
    atomic_store(&server->stopping, 1);
    for (int i = 0; i < server->loop_count; i++) he_wake_loop(&server->loops[i]);
    for (int i = 0; i < server->loop_count; i++) pthread_join(server->loops[i].thread, NULL);
    destroy(server);
}
