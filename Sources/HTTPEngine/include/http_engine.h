// lookd's HTTP/1.1 engine: the wire, nothing else (docs/http.md).
//
// Event loops (one thread and one SO_REUSEPORT listening socket each) accept connections, read and
// parse requests strictly (RFC 9112), enforce the limits and deadlines, and write responses. A bounded
// pool of worker threads, separate from the loops, runs the requests the application defers to it.
// Every request the engine refuses on its own is answered with a JSON error body.
//
// Thread-safety: he_server_* functions may be called from any thread. The handler runs on a loop
// thread or, after he_defer, on a worker thread; an he_exchange belongs to that one call.
#ifndef LOOKD_HTTP_ENGINE_H
#define LOOKD_HTTP_ENGINE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// One header field of a request, as received (name case preserved; value without surrounding whitespace).
/// Not NUL-terminated.
typedef struct he_field {
    const char *name;
    size_t name_len;
    const char *value;
    size_t value_len;
} he_field;

/// A complete request. Every pointer is valid only during the handler call that receives it.
typedef struct he_request {
    const char *method;
    size_t method_len;
    /// The percent-decoded path (begins with '/', or is "*" for OPTIONS *). Decoded bytes never include
    /// a control character (the engine answered 400 instead). Not NUL-terminated.
    const char *path;
    size_t path_len;
    /// The raw query after '?' (empty when none). Its %XX escapes are valid and decode to no control character.
    const char *query;
    size_t query_len;
    const he_field *fields;
    size_t field_count;
    /// The whole body, de-chunked. Empty when none.
    const uint8_t *body;
    size_t body_len;
    /// 0 for HTTP/1.0, 1 for HTTP/1.1 (and 1.x with x > 1, answered as 1.1).
    int version_minor;
    /// The request id, NUL-terminated, also sent as X-Request-Id.
    const char *request_id;
} he_request;

/// The handle for answering one request. Answer exactly once per handler call, or call he_defer.
typedef struct he_exchange he_exchange;

/// An immutable, reference-counted response built once (status line, fields, Content-Length and body)
/// and written any number of times without copying. Safe to share between threads.
typedef struct he_prepared he_prepared;

/// A table of SDK fetch answers the loops compose and write themselves, without calling the handler: per app (the
/// path `prefix<key>suffix`), the bytes its response shares across languages, and each language's own bytes, for
/// a `?lang=<id>` query naming one of the table's languages exactly. The application fills it after answering such a
/// fetch from its own cache and invalidates it whenever that cache changes. Bounded in bytes; apps are evicted by
/// CLOCK. Thread-safe (one mutex; an answer holds it while it copies the bytes into a new response).
typedef struct he_fetch_table he_fetch_table;

/// Called for every complete request. `on_worker` is 0 on a loop thread and 1 on a worker thread.
typedef void (*he_handler)(void *context, const he_request *request, he_exchange *exchange, int on_worker);

/// Called once the request head is parsed and before any body is read, for requests that announce a body.
/// Returns the largest body in bytes this request may have (over it: 413 and the connection is closed).
typedef long long (*he_body_limit)(void *context, const he_request *request_head);

/// Server settings. Zero fields take the defaults noted.
typedef struct he_config {
    /// Event loop threads, each with its own listening socket (default 1).
    int loops;
    /// Worker threads for deferred requests (default 2).
    int workers;
    /// Deferred requests that may wait for a worker; beyond it, 503 `overloaded` with Retry-After (default 256).
    int worker_queue;
    /// Open connections in total (default 512) and from one address (default 128).
    int max_connections;
    int max_connections_per_address;
    /// Longest request target in bytes (default 4096): over it, 414.
    size_t max_target_bytes;
    /// Largest header block (field lines) in bytes (default 16384) and most fields (default 100): over either, 431.
    size_t max_field_bytes;
    int max_fields;
    /// Seconds: the whole head must arrive within head_timeout of its first byte (default 10); a body must make
    /// progress every body_timeout (default 15); an idle keep-alive connection is closed after idle_timeout
    /// (default 15); a response being written must make progress every write_timeout (default 30).
    double head_timeout;
    double body_timeout;
    double idle_timeout;
    double write_timeout;
    he_handler handler;
    he_body_limit body_limit;
    /// Cached GET answers the loops write without calling the handler (see he_fetch_table_create). May be NULL.
    he_fetch_table *fetch_table;
    void *context;
} he_config;

typedef struct he_server he_server;

/// Binds `host` (numeric IPv4 or IPv6) and `port` (0 picks a free port) and starts the loops and workers.
/// Returns NULL with a message in `error` (NUL-terminated, at most `error_len` bytes) when the address is not
/// numeric or cannot be bound.
he_server *he_server_start(const char *host, uint16_t port, const he_config *config, char *error, size_t error_len);

/// The bound port.
uint16_t he_server_port(const he_server *server);

/// Stops accepting new connections and closes idle keep-alive ones; requests in progress continue, and each
/// connection closes after its current response. Returns at once.
void he_server_drain(he_server *server);

/// Connections open now (accepted and not yet closed), across all loops. Thread-safe.
int he_server_open_connections(const he_server *server);

/// Requests parsed but not yet completely written (or abandoned).
long he_server_inflight(const he_server *server);

/// Stops the loops and workers, closes every connection and frees the server. Blocks until the threads end.
void he_server_stop(he_server *server);

/// Answers with `status`, `fields` (zero or more complete "Name: value\r\n" lines; the engine adds Date,
/// Content-Length, X-Request-Id and Connection) and `body` (copied; omitted on the wire for HEAD, 204 and 304).
/// `close_connection` nonzero closes the connection after this response.
void he_respond(he_exchange *exchange, int status, const char *fields, size_t fields_len,
                const void *body, size_t body_len, int close_connection);

/// Answers with a prepared response (retained until written; no copy).
void he_respond_prepared(he_exchange *exchange, he_prepared *prepared, int close_connection);

/// Hands the request to the worker pool; the handler is called again there with the same request. Only on a
/// loop thread. When the pool's queue is full the engine answers 503 instead.
void he_defer(he_exchange *exchange);

/// Builds a prepared response (see he_respond for `fields`). Returns it with one reference, or NULL when out of memory.
he_prepared *he_prepared_create(int status, const char *fields, size_t fields_len, const void *body, size_t body_len);
void he_prepared_retain(he_prepared *prepared);
void he_prepared_release(he_prepared *prepared);

/// One language of one app version, for he_fetch_table_fill. The body is `shared[0, cut1)`,
/// `language_bytes[0, language_cut)`, `shared[cut1, cut2)`, `language_bytes[language_cut, language_len)`,
/// `shared[cut2, shared_len)`.
typedef struct he_fetch_fill {
    const char *key;
    size_t key_len;
    long long version;
    const unsigned char *shared;
    size_t shared_len;
    size_t cut1;
    size_t cut2;
    size_t language;
    const unsigned char *language_bytes;
    size_t language_len;
    size_t language_cut;
    const char *etag;
    size_t etag_len;
} he_fetch_fill;

/// Creates an empty fetch table (its strings are copied). `access_log_fd` (-1: none) receives one JSON line per
/// request the table answers, in the access log's format, with `route` as its route. The path of a fetch is `prefix`,
/// an app key (no '/', at most 128 bytes), `suffix`. `languages`: the `lang` values answered, separated by single
/// spaces (each under 32 bytes); a fill names one by its position. `ok_fields`, `not_modified_fields`: the fields of a
/// 200 and of a 304 ("Name: value\r\n" lines, each list under 1,024 bytes), where byte 0x01 stands for the entity tag
/// and 0x02 for the language's id. `capacity_bytes`: the most bytes the apps' parts may take. Returns NULL when out
/// of memory or a string is over its bound.
he_fetch_table *he_fetch_table_create(int access_log_fd, const char *route, const char *prefix, const char *suffix,
                                      const char *languages, const char *ok_fields, const char *not_modified_fields,
                                      size_t capacity_bytes);
/// Frees the table (only after every server using it has stopped).
void he_fetch_table_destroy(he_fetch_table *table);
/// The table's invalidation count: read it before reading the application's cache, and pass it to the fill.
unsigned long long he_fetch_table_generation(he_fetch_table *table);
/// Keeps one language of an app version (copying the bytes; an entry of another version of the app is replaced;
/// apps are evicted by CLOCK to stay within the capacity). Refused (returns 0) when an invalidation happened since
/// `generation` was read, a part is over its bound, or the app alone would not fit; 1 when kept beside the app's
/// other languages, 2 when kept as the app's first.
int he_fetch_table_fill(he_fetch_table *table, unsigned long long generation, const he_fetch_fill *fill);
/// Drops the app `key` (every app when `key` is NULL) and makes fills that read the generation before this call
/// fail. When it returns, no loop writes a dropped entry any more.
void he_fetch_table_invalidate(he_fetch_table *table, const char *key, size_t key_len);
/// The apps held and the bytes they count.
void he_fetch_table_usage(he_fetch_table *table, size_t *apps, size_t *bytes);
/// Requests the table answered, and their summed durations in microseconds, as [GET 200, GET 304, HEAD 200, HEAD 304].
void he_fetch_table_counts(he_fetch_table *table, unsigned long long counts[4], unsigned long long micros[4]);

/// Percent-decodes `input` into `output` (room for `input_len` bytes), '+' as space when `plus_is_space`.
/// Returns the decoded length, or -1 when an escape is malformed.
long he_percent_decode(const char *input, size_t input_len, char *output, int plus_is_space);

#ifdef __cplusplus
}
#endif

#endif
