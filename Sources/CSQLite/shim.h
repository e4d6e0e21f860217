// The only header that includes <sqlite3.h> (SQLite 3.40 from Debian's libsqlite3-dev).
#ifndef LOOKD_SQLITE_SHIM_H
#define LOOKD_SQLITE_SHIM_H
#include <sqlite3.h>

/// sqlite3_bind_text with SQLITE_TRANSIENT (SQLite copies the bytes before returning).
/// SQLITE_TRANSIENT is a cast macro that Swift does not import.
static inline int lookd_sqlite_bind_text(sqlite3_stmt *statement, int index, const char *text, int length) {
  return sqlite3_bind_text(statement, index, text, length, SQLITE_TRANSIENT);
}

/// sqlite3_bind_blob with SQLITE_TRANSIENT.
static inline int lookd_sqlite_bind_blob(sqlite3_stmt *statement, int index, const void *bytes, int length) {
  return sqlite3_bind_blob(statement, index, bytes, length, SQLITE_TRANSIENT);
}
#endif
