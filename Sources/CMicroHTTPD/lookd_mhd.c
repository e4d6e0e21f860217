#include "lookd_mhd.h"
#include <string.h>
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
                                  const char *const *header_names,
                                  const char *const *header_values,
                                  size_t header_count,
                                  const void *body,
                                  size_t body_length) {
  struct MHD_Response *response =
      MHD_create_response_from_buffer(body_length, (void *)body, MHD_RESPMEM_MUST_COPY);
  if (response == NULL) return MHD_NO;
  for (size_t i = 0; i < header_count; i++) {
    if (MHD_add_response_header(response, header_names[i], header_values[i]) != MHD_YES) {
      MHD_destroy_response(response);
      return MHD_NO;
    }
  }
  enum MHD_Result result = MHD_queue_response(connection, status, response);
  MHD_destroy_response(response);
  return result;
}
