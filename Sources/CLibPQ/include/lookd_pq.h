// The only header lookd's Swift code sees of libpq (PostgreSQL's C client, Debian's libpq-dev). It names no libpq
// type: connections and results are opaque, every query is parameterised (text parameters, text results).
#ifndef LOOKD_PQ_H
#define LOOKD_PQ_H

#include <stddef.h>

/// An open connection (libpq's PGconn). Used by one thread at a time.
typedef struct lookd_pq_conn lookd_pq_conn;
/// The result of one statement (libpq's PGresult). Free with lookd_pq_clear.
typedef struct lookd_pq_result lookd_pq_result;

/// Connects with a libpq URI (`postgresql://…`, several hosts and `target_session_attrs` as libpq allows),
/// waiting at most `connect_timeout_seconds` (unless the URI sets its own). Always returns a connection object
/// (NULL only when out of memory): check lookd_pq_is_ok, read lookd_pq_error_message, then lookd_pq_finish.
lookd_pq_conn *lookd_pq_connect(const char *uri, int connect_timeout_seconds);

/// Closes the connection and frees it. NULL is ignored.
void lookd_pq_finish(lookd_pq_conn *conn);

/// 1 when the connection is usable, 0 when it is broken (the server went away, or connecting failed).
int lookd_pq_is_ok(const lookd_pq_conn *conn);

/// libpq's last error message for the connection (never NULL; owned by the connection).
const char *lookd_pq_error_message(const lookd_pq_conn *conn);

/// Runs one statement with `count` text parameters (`$1`…; a NULL entry is SQL NULL). Returns NULL only when
/// out of memory; check lookd_pq_result_ok.
lookd_pq_result *lookd_pq_exec(lookd_pq_conn *conn, const char *sql, int count, const char *const *values);

/// lookd_pq_exec with a deadline the server cannot ignore: once `timeout_ms` milliseconds pass without the result,
/// asks the server to cancel the statement (PQcancel) and sets `*cancelled` to 1, then waits up to `timeout_ms` more.
/// (A COMMIT waiting for a synchronous standby is not bound by statement_timeout; a cancel ends that wait, the
/// transaction having committed on the primary.) Returns the statement's result, or NULL when none came in time, the
/// connection failed or memory ran out: the connection may then be mid-statement, so close it. After a cancel, close it
/// in any case (a cancel that arrives late could hit a later statement).
lookd_pq_result *lookd_pq_exec_deadline(lookd_pq_conn *conn, const char *sql, int count, const char *const *values,
                                        int timeout_ms, int *cancelled);

/// 1 when the statement succeeded (with or without rows), 0 when it failed.
int lookd_pq_result_ok(const lookd_pq_result *result);

/// The failed statement's SQLSTATE (five characters) or "" when none; owned by the result.
const char *lookd_pq_result_sqlstate(const lookd_pq_result *result);

/// The failed statement's message, or ""; owned by the result.
const char *lookd_pq_result_error(const lookd_pq_result *result);

/// Rows in the result.
int lookd_pq_rows(const lookd_pq_result *result);

/// Columns in the result.
int lookd_pq_columns(const lookd_pq_result *result);

/// A field as text (owned by the result; "" for NULL) and its length in bytes.
const char *lookd_pq_value(const lookd_pq_result *result, int row, int column);
int lookd_pq_length(const lookd_pq_result *result, int row, int column);

/// 1 when the field is SQL NULL.
int lookd_pq_is_null(const lookd_pq_result *result, int row, int column);

/// Frees a result. NULL is ignored.
void lookd_pq_clear(lookd_pq_result *result);

/// The connection's socket descriptor (for poll), or -1.
int lookd_pq_socket(const lookd_pq_conn *conn);

/// Reads what the server sent without blocking. 1 on success, 0 when the connection failed.
int lookd_pq_consume_input(lookd_pq_conn *conn);

/// Takes the next received notification: copies its payload (NUL-terminated, truncated to fit) into `payload`
/// and returns 1; returns 0 when none is queued.
int lookd_pq_next_notification(lookd_pq_conn *conn, char *payload, size_t payload_size);

#endif
