// Open connections per client address, shared by the event loops.
#ifndef LOOKD_ADDRESS_TABLE_H
#define LOOKD_ADDRESS_TABLE_H

#include <sys/socket.h>

/// A client address as 16 bytes (IPv4 as an IPv4-mapped IPv6 address).
typedef struct he_address {
    unsigned char bytes[16];
} he_address;

typedef struct he_address_table he_address_table;

he_address he_address_from(const struct sockaddr *peer);
he_address_table *he_address_table_create(void);
void he_address_table_free(he_address_table *table);
/// Counts one more connection from `address` unless it has `limit` already. Returns the new count, or -1.
int he_address_table_acquire(he_address_table *table, const he_address *address, int limit);
/// Counts one connection fewer.
void he_address_table_release(he_address_table *table, const he_address *address);
/// The connections open from `address`.
int he_address_table_count(he_address_table *table, const he_address *address);

#endif
