// The only code that includes <libpq-fe.h>.
#include "lookd_pq.h"

#include <errno.h>
#include <libpq-fe.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

struct lookd_pq_conn;
struct lookd_pq_result;

static PGconn *conn_of(const lookd_pq_conn *conn) { return (PGconn *)conn; }
static PGresult *result_of(const lookd_pq_result *result) { return (PGresult *)result; }

// Server notices (e.g. "relation already exists, skipping") are not errors: lookd does not print them.
static void ignore_notice(void *context, const char *message) {
  (void)context;
  (void)message;
}

lookd_pq_conn *lookd_pq_connect(const char *uri, int connect_timeout_seconds) {
  char timeout[16];
  snprintf(timeout, sizeof timeout, "%d", connect_timeout_seconds);
  // Earlier keywords are overridden by what the expanded URI (dbname) sets.
  const char *const keywords[] = {"connect_timeout", "application_name", "dbname", NULL};
  const char *const values[] = {timeout, "lookd", uri, NULL};
  PGconn *conn = PQconnectdbParams(keywords, values, 1);
  if (conn) PQsetNoticeProcessor(conn, ignore_notice, NULL);
  return (lookd_pq_conn *)conn;
}

void lookd_pq_finish(lookd_pq_conn *conn) {
  if (conn) PQfinish(conn_of(conn));
}

int lookd_pq_is_ok(const lookd_pq_conn *conn) { return conn && PQstatus(conn_of(conn)) == CONNECTION_OK; }

const char *lookd_pq_error_message(const lookd_pq_conn *conn) {
  return conn ? PQerrorMessage(conn_of(conn)) : "out of memory";
}

lookd_pq_result *lookd_pq_exec(lookd_pq_conn *conn, const char *sql, int count, const char *const *values) {
  return (lookd_pq_result *)PQexecParams(conn_of(conn), sql, count, NULL, values, NULL, NULL, 0);
}

static long long now_ms(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (long long)now.tv_sec * 1000 + now.tv_nsec / 1000000;
}

// Asks the server to cancel what the connection runs (a separate connection to the postmaster).
static void send_cancel(PGconn *conn) {
  PGcancel *cancel = PQgetCancel(conn);
  if (!cancel) return;
  char message[256];
  (void)PQcancel(cancel, message, sizeof message);
  PQfreeCancel(cancel);
}

lookd_pq_result *lookd_pq_exec_deadline(lookd_pq_conn *conn, const char *sql, int count, const char *const *values,
                                        int timeout_ms, int *cancelled) {
  PGconn *c = conn_of(conn);
  *cancelled = 0;
  if (!PQsendQueryParams(c, sql, count, NULL, values, NULL, NULL, 0)) return NULL;
  PGresult *last = NULL;
  long long deadline = now_ms() + timeout_ms;
  for (;;) {
    while (PQisBusy(c)) {
      long long left = deadline - now_ms();
      if (left <= 0) {
        if (*cancelled) {
          PQclear(last);
          return NULL;
        }
        send_cancel(c);
        *cancelled = 1;
        deadline = now_ms() + timeout_ms;
        continue;
      }
      struct pollfd descriptor = {.fd = PQsocket(c), .events = POLLIN, .revents = 0};
      int ready = poll(&descriptor, 1, left > 1000 ? 1000 : (int)left);
      if ((ready < 0 && errno != EINTR) || (ready > 0 && !PQconsumeInput(c))) {
        PQclear(last);
        return NULL;
      }
    }
    PGresult *result = PQgetResult(c);
    if (!result) return (lookd_pq_result *)last;
    PQclear(last);
    last = result;
  }
}

int lookd_pq_result_ok(const lookd_pq_result *result) {
  if (!result) return 0;
  ExecStatusType status = PQresultStatus(result_of(result));
  return status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK;
}

const char *lookd_pq_result_sqlstate(const lookd_pq_result *result) {
  const char *state = result ? PQresultErrorField(result_of(result), PG_DIAG_SQLSTATE) : NULL;
  return state ? state : "";
}

const char *lookd_pq_result_error(const lookd_pq_result *result) {
  return result ? PQresultErrorMessage(result_of(result)) : "out of memory";
}

int lookd_pq_rows(const lookd_pq_result *result) { return PQntuples(result_of(result)); }

int lookd_pq_columns(const lookd_pq_result *result) { return PQnfields(result_of(result)); }

const char *lookd_pq_value(const lookd_pq_result *result, int row, int column) {
  return PQgetvalue(result_of(result), row, column);
}

int lookd_pq_length(const lookd_pq_result *result, int row, int column) {
  return PQgetlength(result_of(result), row, column);
}

int lookd_pq_is_null(const lookd_pq_result *result, int row, int column) {
  return PQgetisnull(result_of(result), row, column);
}

void lookd_pq_clear(lookd_pq_result *result) {
  if (result) PQclear(result_of(result));
}

int lookd_pq_socket(const lookd_pq_conn *conn) { return PQsocket(conn_of(conn)); }

int lookd_pq_consume_input(lookd_pq_conn *conn) { return PQconsumeInput(conn_of(conn)); }

int lookd_pq_next_notification(lookd_pq_conn *conn, char *payload, size_t payload_size) {
  PGnotify *notify = PQnotifies(conn_of(conn));
  if (!notify) return 0;
  if (payload_size > 0) {
    strncpy(payload, notify->extra ? notify->extra : "", payload_size - 1);
    payload[payload_size - 1] = '\0';
  }
  PQfreemem(notify);
  return 1;
}
