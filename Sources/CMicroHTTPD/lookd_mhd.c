#include "lookd_mhd.h"
#include <string.h>
#include <strings.h>
#include <arpa/inet.h>
#include <netinet/in.h>

struct MHD_Daemon *lookd_mhd_start(unsigned int flags,
                                   const struct sockaddr *address,
                                   MHD_AccessHandlerCallback handler,
                                   void *handler_context,
                                   const struct MHD_OptionItem *options) {
  uint16_t port = 0;
  if (address->sa_family == AF_INET) {
    port = ntohs(((const struct sockaddr_in *)address)->sin_port);
  } else if (address->sa_family == AF_INET6) {
    port = ntohs(((const struct sockaddr_in6 *)address)->sin6_port);
    flags |= MHD_USE_IPv6;
  }
  return MHD_start_daemon(flags, port, NULL, NULL, handler, handler_context,
                          MHD_OPTION_SOCK_ADDR, address,
                          MHD_OPTION_ARRAY, options,
                          MHD_OPTION_END);
}

uint16_t lookd_mhd_bound_port(struct MHD_Daemon *daemon) {
  const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
  return info == NULL ? 0 : info->port;
}

int lookd_mhd_open_connections(struct MHD_Daemon *daemon) {
  const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_CURRENT_CONNECTIONS);
  return info == NULL ? -1 : (int)info->num_connections;
}

int lookd_mhd_make_address(const char *host, uint16_t port, struct sockaddr_storage *storage) {
  memset(storage, 0, sizeof(*storage));
  struct sockaddr_in *v4 = (struct sockaddr_in *)storage;
  if (inet_pton(AF_INET, host, &v4->sin_addr) == 1) {
    v4->sin_family = AF_INET;
    v4->sin_port = htons(port);
    return 0;
  }
  struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)storage;
  if (inet_pton(AF_INET6, host, &v6->sin6_addr) == 1) {
    v6->sin6_family = AF_INET6;
    v6->sin6_port = htons(port);
    return 0;
  }
  return -1;
}

struct MHD_OptionItem lookd_mhd_option_pointer(enum MHD_OPTION option, void *pointer) {
  struct MHD_OptionItem item = { option, 0, pointer };
  return item;
}

struct MHD_OptionItem lookd_mhd_option_value(enum MHD_OPTION option, intptr_t value) {
  struct MHD_OptionItem item = { option, value, NULL };
  return item;
}

struct MHD_OptionItem lookd_mhd_option_completed(MHD_RequestCompletedCallback callback, void *context) {
  struct MHD_OptionItem item = { MHD_OPTION_NOTIFY_COMPLETED, (intptr_t)callback, context };
  return item;
}

struct MHD_OptionItem lookd_mhd_option_connection(MHD_NotifyConnectionCallback callback, void *context) {
  struct MHD_OptionItem item = { MHD_OPTION_NOTIFY_CONNECTION, (intptr_t)callback, context };
  return item;
}

struct MHD_OptionItem lookd_mhd_option_uri_log(lookd_mhd_uri_callback callback, void *context) {
  struct MHD_OptionItem item = { MHD_OPTION_URI_LOG_CALLBACK, (intptr_t)callback, context };
  return item;
}

enum MHD_Result lookd_mhd_respond(struct MHD_Connection *connection,
                                  unsigned int status,
                                  const char *headers,
                                  size_t header_count,
                                  const void *body,
                                  size_t body_length) {
  struct MHD_Response *response =
      MHD_create_response_from_buffer(body_length, (void *)body, MHD_RESPMEM_MUST_COPY);
  if (response == NULL) return MHD_NO;
  const char *cursor = headers;
  for (size_t i = 0; i < header_count; i++) {
    const char *name = cursor;
    const char *value = name + strlen(name) + 1;
    cursor = value + strlen(value) + 1;
    if (MHD_add_response_header(response, name, value) != MHD_YES) {
      MHD_destroy_response(response);
      return MHD_NO;
    }
  }
  enum MHD_Result result = MHD_queue_response(connection, status, response);
  MHD_destroy_response(response);
  return result;
}

static long long parse_length(const char *value) {
  if (value == NULL || *value == '\0') return -2;
  long long number = 0;
  for (const char *p = value; *p; p++) {
    if (*p < '0' || *p > '9') return -2;
    if (number > 1000000000000LL) return -2;
    number = number * 10 + (*p - '0');
  }
  return number;
}

static enum MHD_Result scan_header(void *context, enum MHD_ValueKind kind, const char *key, const char *value) {
  (void)kind;
  struct lookd_mhd_head *head = context;
  size_t value_length = value ? strlen(value) : 0;
  head->header_bytes += strlen(key) + value_length + 4;
  if (strcasecmp(key, "Content-Length") == 0) {
    long long length = parse_length(value);
    if (head->content_length_count == 0) {
      head->content_length = length;
    } else if (length != head->content_length || length == -2) {
      head->content_lengths_differ = 1;
    }
    head->content_length_count += 1;
  } else if (strcasecmp(key, "Transfer-Encoding") == 0) {
    head->has_transfer_encoding = 1;
  }
  return MHD_YES;
}

static enum MHD_Result scan_argument(void *context, enum MHD_ValueKind kind, const char *key, const char *value) {
  (void)kind;
  struct lookd_mhd_head *head = context;
  head->query_bytes += strlen(key) + (value ? strlen(value) : 0) + 2;
  return MHD_YES;
}

void lookd_mhd_scan_head(struct MHD_Connection *connection, struct lookd_mhd_head *head) {
  memset(head, 0, sizeof(*head));
  head->content_length = -1;
  MHD_get_connection_values(connection, MHD_HEADER_KIND, scan_header, head);
  MHD_get_connection_values(connection, MHD_GET_ARGUMENT_KIND, scan_argument, head);
}

struct collect_state {
  char *buffer;
  size_t capacity;
  size_t used;
  size_t count;
};

static enum MHD_Result collect_value(void *context, enum MHD_ValueKind kind, const char *key, const char *value) {
  (void)kind;
  struct collect_state *state = context;
  const char *text = value ? value : "";
  size_t key_length = strlen(key), value_length = strlen(text);
  size_t need = key_length + value_length + 2;
  if (state->used + need <= state->capacity) {
    memcpy(state->buffer + state->used, key, key_length + 1);
    memcpy(state->buffer + state->used + key_length + 1, text, value_length + 1);
  }
  state->used += need;
  state->count += 1;
  return MHD_YES;
}

size_t lookd_mhd_collect(struct MHD_Connection *connection, int headers, char *buffer, size_t capacity, size_t *count) {
  struct collect_state state = { buffer, capacity, 0, 0 };
  MHD_get_connection_values(connection, headers ? MHD_HEADER_KIND : MHD_GET_ARGUMENT_KIND, collect_value, &state);
  *count = state.count;
  return state.used;
}
