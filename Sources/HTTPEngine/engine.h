// The engine's internal types (server, loops, connections, exchanges) and the functions its files share:
// buffers.c, write_queue.c, request_state.c, connections.c, timers.c, event_loop.c and server.c (the public API).
#ifndef LOOKD_ENGINE_H
#define LOOKD_ENGINE_H

#include "http_engine.h"
#include "address_table.h"
#include "request_head.h"
#include "response.h"
#include "worker_pool.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

enum { STATE_IDLE, STATE_HEAD, STATE_BODY, STATE_HANDLING, STATE_LINGERING };
enum {
    OUTPUT_HIGH_WATER = 1 << 20,   // stop reading new requests while this much is unwritten
    MAX_IOVECS = 64,
    LINGER_SECONDS = 2,
    SWEEP_MILLISECONDS = 100,
    KEEP_BUFFER_BYTES = 64 * 1024, // larger buffers are freed once their request is done
    MAX_HANDOVERS = 64,            // newcomers waiting for a loop to make room for them (eviction.c)
};
/// A piece of output: bytes of a prepared response, or of the connection's own output buffer (base NULL).
typedef struct segment {
    he_prepared *holds;          // a reference released once this segment is written (or the connection closes), or NULL
    const unsigned char *base;   // prepared bytes, kept alive by the `holds` of this response's last segment; NULL for the output buffer
    size_t offset;
    size_t length;
} segment;

typedef struct loop loop;
typedef struct connection connection;

/// A newcomer accepted by a loop that had no connection it could close for it, handed to the next loop to make room
/// (eviction.c). Its slot in server->open and its count in the address table are already taken.
typedef struct handover {
    int fd;
    he_address address;
    int count;    // the newcomer's address's connections, itself included
    int hops;     // loops that have tried so far
} handover;

struct he_exchange {
    connection *connection;
    he_request request;
    char request_id[32];
    int on_worker;
    int answered;
    int deferred;   // 1: to the shared workers, 2: to the reserved lane (he_defer_reserved)
    he_prepared *result;   // the worker's answer, queued by the loop
    int result_close;
    atomic_int park;       // HE_PARK_* below: a request answered later, from any thread (he_park)
};

// A parked exchange's hand-over between its worker (which returns) and the thread that answers it, in either order.
enum { HE_PARK_NONE = 0, HE_PARK_PARKED = 1, HE_PARK_RETURNED = 2, HE_PARK_ANSWERED = 3 };

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
    long long body_reserved;   // this connection's share of server->body_bytes (0 when not reading a body)
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
    double rate_since;           // when the current head or body began (its data rate is measured from here)
    size_t rate_bytes;           // bytes received since rate_since
    double idle_since;
    double write_progress;
    double received;             // when the last read's bytes arrived (he_request.received), CLOCK_MONOTONIC seconds
    he_exchange exchange;
    connection *next;            // the loop's free list or list of connections closed in this iteration
    int listed_closed;           // on the list of closed connections
    connection *done_next;       // the loop's list of answered jobs (a closed connection may be on both lists)
};

struct loop {
    he_server *server;
    int index;                   // in server->loops
    pthread_t thread;
    int epoll_fd, listen_fd, wake_fd;
    connection **connections;
    int connection_count, connection_cap;
    connection *free_list;
    int free_count;
    connection *closed;          // closed during this iteration, freed at its end
    pthread_mutex_t done_lock;   // guards what other threads hand this loop: `done` and `handovers`
    connection *done;            // jobs answered by workers
    handover handovers[MAX_HANDOVERS];   // newcomers other loops could not make room for (eviction.c)
    int handover_count;
    char date[64];
    size_t date_len;
    time_t date_second;
    double now;
    double realtime_offset;      // CLOCK_REALTIME minus CLOCK_MONOTONIC at `now`: turns the kernel's receive stamps into `now`'s clock
    double busy_since;           // when the loop last returned from epoll_wait after sleeping in it (or yielded)
    // Counted per request, by this loop alone (another thread only reads `inflight`), on a cache line of their own: the
    // loops write no line in common per request (docs/http.md, "Little written in common per request").
    _Alignas(64) atomic_long inflight;   // requests read and not completely answered (he_server_inflight sums the loops)
    unsigned long long next_id;          // request ids this loop has given (he_next_request_id)
};

struct he_server {
    he_config config;
    he_head_limits limits;
    loop *loops;
    int loop_count;
    he_worker_pool *pool;
    he_address_table *addresses;
    unsigned id_prefix;
    // Read by every loop on every request and written once: a line of their own, apart from the counters below.
    _Alignas(64) atomic_int draining;
    atomic_int stopping;
    // Written per connection or per request body, by any loop.
    _Alignas(64) atomic_int open;
    atomic_llong body_bytes;   // bytes reserved for request bodies being read, across all connections (config.body_budget)
    uint16_t port;
};


// buffers.c
/// Grows `*buffer` (realloc, doubling from 4 KB) to hold at least `needed` bytes. Returns 0, or -1 when out of memory.
int he_reserve(unsigned char **buffer, size_t *capacity, size_t needed);
/// Grows the input buffer to `needed` bytes, keeping a parsed head (state BODY) valid.
int he_grow_input(connection *c, size_t needed);

// write_queue.c
/// Queues `length` bytes for writing: at `base + offset` (bytes kept alive until written by the reference the
/// response's last segment `holds`), or of the output buffer at `offset` when `base` is NULL (merged with the last
/// segment when that is contiguous output and holds nothing). Returns 0, or -1 when out of memory.
int he_push_segment(connection *c, const unsigned char *base, size_t offset, size_t length);
/// The next request id of loop `l`: 8 hex digits fixed per server, then a number in hex, unique in the server (each
/// loop counts in its own residue class modulo the number of loops). NUL-terminated in `out` (32 bytes). Loop thread.
void he_next_request_id(loop *l, char *out);
/// Adds `delta` to loop `l`'s count of requests in flight. Loop thread.
static inline void he_count_inflight(loop *l, long delta) {
    atomic_store_explicit(&l->inflight, atomic_load_explicit(&l->inflight, memory_order_relaxed) + delta, memory_order_relaxed);
}
/// Starts the write-progress clock when the connection had nothing left to write.
void he_note_output_start(connection *c);
/// Queues a response built from copies of `fields` and `body` (body omitted for HEAD, 204 and 304).
void he_queue_copy(connection *c, int status, const char *fields, size_t fields_len, const void *body, size_t body_len, int close, int request_id);
/// Queues a prepared response without copying it (retained once, until its last byte is written).
void he_queue_prepared(connection *c, he_prepared *prepared, int close);
/// The engine's own refusal: a JSON error, and the connection closes once it is written.
void he_refuse_request(connection *c, const he_refusal *refusal);
/// Turns Nagle's algorithm off before a connection's second response, so that one is not held back until the
/// client acknowledges the first. A connection that closes after one response never pays the call.
void he_use_nodelay(connection *c);
/// Writes as much output as the socket takes. Closes the connection when it ends, or fails.
void he_flush(connection *c);

// request_state.c
/// The current request is answered: its bytes leave the input, and the next request (pipelined) may begin.
void he_finish_request(connection *c);
/// Reads requests from the input as far as possible, answering those the loop answers itself.
void he_process(connection *c);
/// Writes as much output as the socket takes, then takes up requests already read that back-pressure held
/// (OUTPUT_HIGH_WATER), writing and taking up again until the input or the socket stops it.
void he_write_and_resume(connection *c);
/// Gives the connection's reserved body bytes back to the server's budget.
void he_release_body_budget(connection *c);
/// Handles epoll `events` for a connection: reads and processes input, writes output, updates the interest.
void he_on_event(connection *c, uint32_t events);

// connections.c
/// Registers (or changes) the connection's epoll interest: input unless a job, a close or too much output is pending; output while any is.
void he_update_interest(connection *c);
/// Closes the socket, releases its counts and takes it out of the loop's table; freed at the end of the iteration.
void he_close_connection(connection *c);
/// Frees a connection and its buffers.
void he_free_connection(connection *c);
/// Frees (or recycles) the connections closed in this iteration whose jobs are not pending.
void he_free_closed(loop *l);
/// Accepts pending connections (up to 64), enforcing the limits, and reads each one's first request at once.
void he_accept_connections(loop *l);
/// Opens a connection for an accepted socket (its slot and address count already taken) and reads its first request;
/// without memory, closes the socket and gives both back.
void he_start_connection(loop *l, int fd, const he_address *address);
/// Answers 503 `too_many_connections` on an accepted socket that gets no slot, and closes it.
void he_refuse_connection(int fd);

// eviction.c
/// Makes room for a newcomer from `address` that has `count` connections (itself included): closes the connection of
/// this loop least worth keeping (http_engine.h, connections_for_new_addresses). Returns 1 when one was closed.
int he_evict_for(loop *l, const he_address *address, int count);
/// Hands a newcomer this loop could not make room for to the next loop (`hops`: loops that have tried, this one
/// included), which evicts one of its own connections for it and takes it, or hands it on, or refuses it once every
/// loop has tried. Returns 0, or -1 when there is no other loop or its hand-over queue is full (the caller refuses).
int he_hand_over(loop *l, int fd, const he_address *address, int count, int hops);
/// Takes the newcomers handed to this loop (on its own thread, when woken).
void he_take_handovers(loop *l);
/// Closes the newcomers still waiting in the loop's hand-over queue (the server is stopping; every loop has ended).
void he_drop_handovers(loop *l);

// timers.c
/// Seconds on CLOCK_MONOTONIC.
double he_monotonic_now(void);
/// Sets the loop's `now` (CLOCK_MONOTONIC) and `realtime_offset`.
void he_loop_clock(loop *l);
/// Rewrites the loop's cached `Date:` field when the second has changed.
void he_refresh_date(loop *l);
/// Enforces the deadlines on every connection of the loop (called every 100 ms).
void he_sweep(loop *l);

// event_loop.c
/// Wakes the loop from epoll_wait (its eventfd).
void he_wake_loop(loop *l);
/// The loop thread's body (argument: its `loop`): runs until the server stops, then closes and frees its connections.
void *he_run_loop(void *argument);

/// Hands a worker's (or a parked exchange's) answer to the connection's loop (event_loop.c).
void he_post_answer(connection *c);

#endif
