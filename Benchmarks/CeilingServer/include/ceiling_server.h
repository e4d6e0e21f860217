// The machine's ceiling for the http suite: a minimal HTTP/1.1 server in C that answers every request on a
// connection with one fixed response (keep-alive), one epoll loop per thread, each with its own SO_REUSEPORT
// listening socket, and nothing else: no parsing beyond finding each head's end, no limits, no timers.
// Bench-only; never part of lookd.
#ifndef LOOKD_CEILING_SERVER_H
#define LOOKD_CEILING_SERVER_H

#include <stddef.h>
#include <stdint.h>

/// Starts `loops` threads on 127.0.0.1 (a free port, returned in `port`), answering every request with `response`
/// (complete: status line, fields, blank line, body; copied). Returns 0, or -1 when it cannot listen or start.
int ceiling_start(const unsigned char *response, size_t length, int loops, uint16_t *port);
/// Stops the threads and closes every socket.
void ceiling_stop(void);

#endif
