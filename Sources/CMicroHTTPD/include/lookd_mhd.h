// The only header that includes <microhttpd.h> (GNU libmicrohttpd 0.9.75 from Debian).
// libmicrohttpd's variadic entry points are not imported into Swift, so this shim exposes
// fixed-argument wrappers for the few that lookd calls (docs/design.md#the-shims-one-c-target-per-c-library).
#ifndef LOOKD_MHD_H
#define LOOKD_MHD_H

#include <stdint.h>
#include <stddef.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <microhttpd.h>

/// Starts a daemon bound to `address` (an IPv4 or IPv6 socket address the caller keeps alive
/// until this returns). `options` must end with an item whose option is MHD_OPTION_END.
/// Returns NULL when the daemon cannot start (port in use, bad flags); libmicrohttpd logs why
/// on stderr when MHD_USE_ERROR_LOG is in `flags`.
struct MHD_Daemon *lookd_mhd_start(unsigned int flags,
                                   const struct sockaddr *address,
                                   MHD_AccessHandlerCallback handler,
                                   void *handler_context,
                                   const struct MHD_OptionItem *options);

/// The TCP port the daemon listens on (useful after binding port 0), or 0 if unknown.
uint16_t lookd_mhd_bound_port(struct MHD_Daemon *daemon);

/// The number of connections the daemon currently holds open, or -1 if unknown.
int lookd_mhd_open_connections(struct MHD_Daemon *daemon);

/// Makes a socket address for `host` (a numeric IPv4 or IPv6 address) and `port` in `storage`.
/// Returns 0 on success, -1 when `host` is not a numeric address.
int lookd_mhd_make_address(const char *host, uint16_t port, struct sockaddr_storage *storage);

/// Builds an option item carrying a pointer (a callback or a socket address).
struct MHD_OptionItem lookd_mhd_option_pointer(enum MHD_OPTION option, void *pointer);

/// Builds an option item carrying a number.
struct MHD_OptionItem lookd_mhd_option_value(enum MHD_OPTION option, intptr_t value);

/// Builds an option item carrying a callback and its context (NOTIFY_COMPLETED, NOTIFY_CONNECTION).
struct MHD_OptionItem lookd_mhd_option_completed(MHD_RequestCompletedCallback callback, void *context);
struct MHD_OptionItem lookd_mhd_option_connection(MHD_NotifyConnectionCallback callback, void *context);

/// The URI log callback runs once per request, before the access handler, with the raw (still
/// percent-encoded) request target; its return value becomes the request's `*req_cls`.
typedef void *(*lookd_mhd_uri_callback)(void *context, const char *uri, struct MHD_Connection *connection);
struct MHD_OptionItem lookd_mhd_option_uri_log(lookd_mhd_uri_callback callback, void *context);

/// Queues a response: `status`, headers packed in `headers` as `header_count` pairs of NUL-terminated
/// name and value ("Name\0Value\0Name\0Value\0…"), and a copy of `body`. Returns MHD_YES or MHD_NO.
enum MHD_Result lookd_mhd_respond(struct MHD_Connection *connection,
                                  unsigned int status,
                                  const char *headers,
                                  size_t header_count,
                                  const void *body,
                                  size_t body_length);

/// What the request head says about framing and size, gathered in one pass without allocating.
struct lookd_mhd_head {
  /// Bytes of every header name and value (plus 4 per header for ": " and CRLF).
  size_t header_bytes;
  /// Bytes of every query argument name and value (plus 2 each for "=" and "&").
  size_t query_bytes;
  /// How many Content-Length headers there are, and whether their values differ.
  int content_length_count;
  int content_lengths_differ;
  /// The (first) Content-Length value, or -1 when absent, -2 when not a plain decimal number.
  long long content_length;
  /// Whether a Transfer-Encoding header is present.
  int has_transfer_encoding;
};

/// Fills `head` from the connection's request headers and query arguments.
void lookd_mhd_scan_head(struct MHD_Connection *connection, struct lookd_mhd_head *head);

/// Copies the request's header fields (`headers` != 0) or decoded query arguments (0) into `buffer` as
/// NUL-terminated name/value pairs, in arrival order, and their number into `count`. Returns the bytes needed;
/// when that is more than `capacity`, nothing usable was written and the caller retries with a larger buffer.
size_t lookd_mhd_collect(struct MHD_Connection *connection, int headers, char *buffer, size_t capacity, size_t *count);

#endif
