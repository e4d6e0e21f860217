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
    /// When the request's last bytes arrived, in seconds on CLOCK_MONOTONIC: the kernel's receive timestamp of the
    /// read that completed it (SO_TIMESTAMPNS), or the loop's clock when the kernel gave none. A request's duration
    /// is measured from here, so it includes the time its bytes waited for a busy loop or a worker.
    double received;
} he_request;

/// The handle for answering one request. Answer exactly once per handler call, or call he_defer.
typedef struct he_exchange he_exchange;

/// An immutable, reference-counted response built once (status line, fields, Content-Length and body)
/// and written any number of times without copying. Safe to share between threads.
typedef struct he_prepared he_prepared;

/// A bounded cache of prepared responses the loops answer GET and HEAD requests from, without calling the handler
/// (see he_response_cache_create). Knows HTTP only: request targets, request header values, entity tags and tags.
typedef struct he_response_cache he_response_cache;

/// Called for every complete request. `on_worker` is 0 on a loop thread and 1 on a worker thread.
typedef void (*he_handler)(void *context, const he_request *request, he_exchange *exchange, int on_worker);

/// Called once the request head is parsed and before any body is read, for requests that announce a body.
/// Returns the largest body in bytes this request may have (over it: 413 and the connection is closed).
typedef long long (*he_body_limit)(void *context, const he_request *request_head);

/// Called after the response cache answered `request`: the entry's label, the status (200 or 304), the body bytes
/// sent, and the answer's own duration in seconds (from `request->received` to the answer queued for writing).
typedef void (*he_cached_hook)(void *context, const he_request *request, int label, int status, size_t body_bytes, double seconds);

/// Server settings. Zero fields take the defaults noted.
typedef struct he_config {
    /// Event loop threads, each with its own listening socket (default 1).
    int loops;
    /// Worker threads for deferred requests (default 2).
    int workers;
    /// More worker threads that run only requests deferred with he_defer_reserved (default 0: none; such requests
    /// then still go before shared-lane ones on the shared workers).
    int reserved_workers;
    /// Bytes of request bodies all connections together may hold while they are read (default 128 MiB): a body
    /// announced by Content-Length reserves its length, a chunked one its route's body limit, from the moment its
    /// head is parsed until its request is answered. Beyond it, 503 `overloaded` with Retry-After, and the
    /// connection closes.
    long long body_budget;
    /// Deferred requests that may wait for a worker; beyond it, 503 `overloaded` with Retry-After (default 256).
    int worker_queue;
    /// Open connections in total (default 512) and from one address (default 128).
    int max_connections;
    int max_connections_per_address;
    /// Connection slots, of max_connections, that only a connection from an address with no other open connection
    /// may take (default max_connections / 16; negative: none; at most max_connections / 2). When the table is full
    /// for a newcomer, the engine makes room by closing the idle keep-alive connection idle longest (of any other
    /// address: closing it loses no request), else, from an address holding at least as many connections as the
    /// newcomer's, the request arriving slowest (bytes received per second since its head or body began, the first
    /// second counted whole); a request being handled or a response being written is never closed for it. The loop that accepted the newcomer looks among its own connections
    /// first; finding none, it hands the newcomer to the next loop, which looks among its own and takes the newcomer,
    /// and so on. Only when no loop has such a connection, 503 `too_many_connections`.
    int connections_for_new_addresses;
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
    /// The slowest a request may arrive, in bytes per second (default 1024): once a head or a body has been arriving
    /// for longer than rate_grace seconds (default 5), the bytes received since it began must average at least this,
    /// or it gets 408 `request_timeout` and the connection closes. A client that sends its head at once and its
    /// body at any ordinary speed never meets it; one that trickles (slowloris, slow POST) is closed within about
    /// rate_grace seconds, whatever its pauses.
    double min_data_rate;
    double rate_grace;
    he_handler handler;
    he_body_limit body_limit;
    /// Responses the loops answer from without calling the handler (see he_response_cache_create). May be NULL.
    he_response_cache *response_cache;
    /// Called on the loop thread after each answer from the response cache (NULL: none), for an access log.
    he_cached_hook cached_hook;
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
/// Content-Length, X-Request-Id (not for a shareable prepared response: he_prepared_set_shareable) and Connection) and `body` (copied; omitted on the wire for HEAD, 204 and 304).
/// `close_connection` nonzero closes the connection after this response.
void he_respond(he_exchange *exchange, int status, const char *fields, size_t fields_len,
                const void *body, size_t body_len, int close_connection);

/// Answers with a prepared response (retained until written; no copy).
void he_respond_prepared(he_exchange *exchange, he_prepared *prepared, int close_connection);

/// Hands the request to the worker pool; the handler is called again there with the same request. Only on a
/// loop thread. When the pool's queue is full the engine answers 503 instead.
void he_defer(he_exchange *exchange);

/// Like he_defer, in the reserved lane: run by the reserved workers (config.reserved_workers), or by the first
/// free shared worker before any shared-lane request, so it never waits behind shared-lane work. Its queue is
/// apart from the shared lane's (the same size); full, 503.
void he_defer_reserved(he_exchange *exchange);

/// Parks a request a worker is handling: the handler returns without answering, the worker is free at once, and the
/// connection waits (its request counted in flight, no timeout applied) until he_respond_parked is called — exactly
/// once, from any thread, later or even before the handler returns. Only on a worker thread (on_worker) and before
/// answering; returns 0, or -1 when not allowed. The request's pointers are not valid after the handler returns.
/// Every parked exchange must be answered before he_server_stop (answer them when the drain starts).
int he_park(he_exchange *exchange);

/// Answers a parked exchange (see he_respond for the arguments). Thread-safe; call exactly once per he_park.
void he_respond_parked(he_exchange *exchange, int status, const char *fields, size_t fields_len,
                       const void *body, size_t body_len, int close_connection);

/// Builds a prepared response (see he_respond for `fields`). Returns it with one reference, or NULL when out of memory.
he_prepared *he_prepared_create(int status, const char *fields, size_t fields_len, const void *body, size_t body_len);
void he_prepared_retain(he_prepared *prepared);
void he_prepared_release(he_prepared *prepared);

/// A run of a composed body (he_prepared_create_parts): `length` bytes at `offset` of `shared` (a value made by
/// he_prepared_bytes or a plain prepared response, retained, not copied), or, when `shared` is NULL, `length` bytes
/// at `bytes` (copied).
typedef struct he_body_part {
    he_prepared *shared;
    size_t offset;
    const void *bytes;
    size_t length;
} he_body_part;

/// Like he_prepared_create, with the body the concatenation of `parts`: runs of shared bytes are referenced, so many
/// responses can hold one copy of what they share. NULL when out of memory, a shared run is out of its value's
/// bounds (or the value is itself composed), or the shared runs reference more than one value.
he_prepared *he_prepared_create_parts(int status, const char *fields, size_t fields_len, const he_body_part *parts, size_t count);
/// The start of a head that many prepared responses share (he_prepared_create_prefixed): the status line for
/// `status` (100…999) and `fields` (`Name: value\r\n` lines). Not a response: never answered on its own. NULL when out
/// of memory or the status is out of range.
he_prepared *he_head_prefix(int status, const char *fields, size_t fields_len);
/// Like he_prepared_create_parts, with the head `prefix` (he_head_prefix; retained, not copied: its status line and
/// fields), then `fields` (this response's own) and Content-Length (written for each answer). An entry of many that
/// share a prefix keeps only its own fields: the SDK fetch's responses of one app version share all but the ETag (the
/// 140 bytes before it, without purge keys, docs/benchmarks.md, run Q). The response is written exactly as one made
/// by he_prepared_create_parts with the prefix's fields followed by `fields`. NULL when out of memory, `prefix` is not
/// a head prefix, or a run is invalid (as for he_prepared_create_parts).
he_prepared *he_prepared_create_prefixed(he_prepared *prefix, const char *fields, size_t fields_len, const he_body_part *parts, size_t count);
/// Immutable bytes to share between composed responses (not a response: never answered on its own). NULL when out
/// of memory.
he_prepared *he_prepared_bytes(const void *bytes, size_t length);
/// The bytes the value's own block takes (shared runs and the head prefix it references not included).
size_t he_prepared_size(const he_prepared *prepared);
/// The value's reference count now (for diagnostics and tests: another thread may change it at once).
long he_prepared_references(const he_prepared *prepared);
/// Marks a prepared response as one for anyone, which a shared cache may store and replay (the SDK fetch's 200 and
/// 304): it is written without X-Request-Id, because a cache in front would hand the id of the request that filled
/// it to every client it serves (the access log still records each request's id). Call it right after creating the
/// response, before any other thread can see it.
void he_prepared_set_shareable(he_prepared *prepared);

/// The content codings the engine negotiates (RFC 9110 §8.4.1): bit i of an `available` mask is coding i.
enum { HE_CODING_IDENTITY = 0, HE_CODING_GZIP = 1, HE_CODING_BR = 2, HE_CODINGS = 3 };

/// Request header fields a response cache entry may vary on (the cache's `vary_names`), and the labels its answers
/// are counted under.
enum { HE_CACHE_VARY_MAX = 8, HE_CACHE_LABELS = 8, HE_CACHE_BUCKETS_MAX = 24 };

/// One content coding of a cached response (he_cache_entry.coded): its 200, its 304 and its strong tag. The 304 may
/// be given as its header fields alone (`not_modified` NULL, `not_modified_fields`: `Name: value\r\n` lines): when
/// they are one run of the 200's head, as a 304's usually are, the cache writes the 304 from that run and keeps no
/// second response; otherwise it builds the 304 from them.
typedef struct he_cache_variant {
    he_prepared *ok;
    he_prepared *not_modified;
    const char *etag;
    size_t etag_len;
    const char *not_modified_fields;
    size_t not_modified_fields_len;
} he_cache_variant;

/// One response for he_response_cache_put: answers GET and HEAD requests whose target (the decoded path, then `?` and
/// the raw query when there is one) is `target`, and whose fields named by `vary_mask` (bit i: the cache's i-th
/// vary name) have exactly the values given (`vary_values[i]` NULL: the field absent). `ok` answers, or the 304
/// (`not_modified`, or `not_modified_fields`: see he_cache_variant) when the request's If-None-Match matches `etag`
/// (weak comparison, RFC 9110 §13.1.2: `*`, the tag, or its W/ form, in a list). `tag`: the name it is purged by
/// (like a CDN's surrogate key). `label`: the counter it is counted under (below HE_CACHE_LABELS).
///
/// Content codings: `ok`, `not_modified` (or `not_modified_fields`) and `etag` are the identity representation;
/// `coded[HE_CODING_GZIP]` and `coded[HE_CODING_BR]` the same content in those codings (ok NULL: not held; `coded[0]` is unused), each with
/// its own tag. `offered` (bit i: coding i; 0 is identity only) says which codings the application makes for this
/// target. The engine negotiates Accept-Encoding (he_accept_encoding) among the offered codings: when the choice is
/// one the entry holds, it answers that representation; otherwise (or when nothing is acceptable) the handler
/// answers, and may put the entry again with the coding. If-None-Match revalidates any held representation the
/// request accepts (the 304 carries that representation's tag), the chosen one first.
typedef struct he_cache_entry {
    const char *target;
    size_t target_len;
    unsigned vary_mask;
    const char *vary_values[HE_CACHE_VARY_MAX];
    size_t vary_lens[HE_CACHE_VARY_MAX];
    const char *tag;
    size_t tag_len;
    const char *etag;
    size_t etag_len;
    int label;
    he_prepared *ok;
    he_prepared *not_modified;
    const char *not_modified_fields;   // when not_modified is NULL (see he_cache_variant)
    size_t not_modified_fields_len;
    unsigned offered;
    he_cache_variant coded[HE_CODINGS];
} he_cache_entry;

/// Creates an empty cache of at most `capacity_bytes` (entries' own bytes: key, tag, the two responses' own blocks),
/// evicting by CLOCK. `vary_names`: the request fields entries may vary on, separated by single spaces (at most
/// HE_CACHE_VARY_MAX, case-insensitive). `bounds`: the duration histogram's upper bounds in seconds, ascending (at
/// most HE_CACHE_BUCKETS_MAX). A request with a body, a Range or an If-Match, If-Modified-Since, If-Unmodified-Since
/// or If-Range field, an Authorization field, or a repeated If-None-Match or vary field is never answered from it.
/// Thread-safe: entries live in 64 shards, each with its own lock, held only to find, link or unlink an entry
/// (never while allocating, copying or freeing). NULL when out of memory or `vary_names` has too many names.
he_response_cache *he_response_cache_create(size_t capacity_bytes, const char *vary_names, const double *bounds, size_t bound_count);
/// Frees the cache (only after every server using it has stopped).
void he_response_cache_destroy(he_response_cache *cache);
/// The purge count: read it before computing a response to put, and pass it to he_response_cache_put.
unsigned long long he_response_cache_generation(he_response_cache *cache);
/// Keeps `entry` (retaining its responses; an entry with the same target and vary values is replaced). Returns 1,
/// or 0 when refused: a purge happened since `generation` was read, a string is over 4 KiB, the label is out of
/// range, or the entry alone is larger than its shard's share of the capacity.
int he_response_cache_put(he_response_cache *cache, unsigned long long generation, const he_cache_entry *entry);
/// Drops every entry tagged `tag` (every entry when `tag` is NULL) and makes puts that read the generation before
/// this call fail. When it returns, no loop answers from a dropped entry any more. Walks every entry.
void he_response_cache_purge(he_response_cache *cache, const char *tag, size_t tag_len);
/// Makes puts that read the generation before this call fail, dropping nothing: for a caller that knows it holds no
/// entry of a tag yet must refuse the puts in flight (he_response_cache_purge without its walk over every entry).
void he_response_cache_refuse_puts(he_response_cache *cache);
/// The entries held and the bytes they count.
void he_response_cache_usage(he_response_cache *cache, size_t *entries, size_t *bytes);
/// Answers counted so far: `counts[label][method][status]` (method 0 GET, 1 HEAD; status 0 for 200, 1 for 304),
/// `buckets[i]` the answers whose duration was at most bounds[i] and above bounds[i-1] (the last: above every
/// bound; bound_count + 1 values), `seconds` their summed durations.
void he_response_cache_stats(he_response_cache *cache, unsigned long long counts[HE_CACHE_LABELS][2][2],
                             unsigned long long *buckets, double *seconds);

/// The weight, in thousandths (0…1000; 0: not acceptable), an Accept-Encoding field value gives each coding (RFC 9110
/// §12.5.3): `value[0..<length]` when `present`, else no field (identity 1000, the others 0: a client that does not
/// ask gets no coding, which the RFC allows). Codings are case-insensitive, `x-gzip` is `gzip` (§8.4.1.3), `*` weighs
/// every coding not named, `q=` weights are RFC qvalues (a malformed element is ignored; a coding named twice keeps
/// its first weight). Identity, when neither named nor covered by `*`, weighs 1: acceptable, after every named coding.
/// An empty value: identity only. Pure; thread-safe.
void he_accept_encoding(const char *value, size_t length, int present, int weights[HE_CODINGS]);

/// The coding to send among `available` (bit i: coding i): the highest weight above 0; equal weights go to br, then
/// gzip, then identity (the smaller body). -1 when none is acceptable. Pure; thread-safe.
int he_choose_coding(const int weights[HE_CODINGS], unsigned available);

/// Whether the If-None-Match field value `value[0..<length]` matches the representation tagged `etag` (as sent in
/// ETag, quotes included; a W/ prefix is ignored) by RFC 9110 §13.1.2: 1 when the value is `*` alone, or a list
/// (§5.6.1: elements separated by commas with optional spaces and tabs, empty elements ignored) of entity tags
/// (`"…"` or `W/"…"`, case-sensitive W, characters %x21 / %x23-7E / %x80-FF inside the quotes) one of which has the
/// same opaque tag (the weak comparison). 0 otherwise, and for any malformed value (`*` inside a list, an unquoted
/// or unterminated tag, `w/`, anything after a tag but a comma, no element at all): a malformed precondition is not
/// evaluated, so the full answer is sent. The engine's response cache and the application's routes both decide by
/// this function. Pure; thread-safe.
int he_if_none_match(const char *value, size_t length, const char *etag, size_t etag_len);

/// Percent-decodes `input` into `output` (room for `input_len` bytes), '+' as space when `plus_is_space`.
/// Returns the decoded length, or -1 when an escape is malformed.
long he_percent_decode(const char *input, size_t input_len, char *output, int plus_is_space);

#ifdef __cplusplus
}
#endif

#endif
