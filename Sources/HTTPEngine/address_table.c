// Connections per client address: a chained hash table under one mutex (see address_table.h).
#include "address_table.h"
#include "fnv1a.h"

#include <netinet/in.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

enum { BUCKETS = 4096 };

typedef struct node {
    he_address address;
    int count;
    struct node *next;
} node;

struct he_address_table {
    pthread_mutex_t lock;
    node *buckets[BUCKETS];
};

he_address he_address_from(const struct sockaddr *peer) {
    he_address address = {{0}};
    if (peer->sa_family == AF_INET) {
        address.bytes[10] = 0xFF;
        address.bytes[11] = 0xFF;
        memcpy(address.bytes + 12, &((const struct sockaddr_in *)peer)->sin_addr, 4);
    } else if (peer->sa_family == AF_INET6) {
        memcpy(address.bytes, &((const struct sockaddr_in6 *)peer)->sin6_addr, 16);
    }
    return address;
}

static unsigned bucket_of(const he_address *address) {
    return (unsigned)(he_fnv1a64(HE_FNV1A64_BASIS, address->bytes, sizeof address->bytes) % BUCKETS);
}

static node **find(he_address_table *table, const he_address *address) {
    node **link = &table->buckets[bucket_of(address)];
    while (*link && memcmp(&(*link)->address, address, sizeof *address) != 0) link = &(*link)->next;
    return link;
}

he_address_table *he_address_table_create(void) {
    he_address_table *table = calloc(1, sizeof *table);
    if (table) pthread_mutex_init(&table->lock, NULL);
    return table;
}

void he_address_table_free(he_address_table *table) {
    if (!table) return;
    for (int i = 0; i < BUCKETS; i++) {
        while (table->buckets[i]) {
            node *next = table->buckets[i]->next;
            free(table->buckets[i]);
            table->buckets[i] = next;
        }
    }
    pthread_mutex_destroy(&table->lock);
    free(table);
}

int he_address_table_acquire(he_address_table *table, const he_address *address, int limit) {
    pthread_mutex_lock(&table->lock);
    node **link = find(table, address);
    int count = -1;
    if (!*link) {
        node *entry = calloc(1, sizeof *entry);
        if (entry) {
            entry->address = *address;
            entry->count = 1;
            *link = entry;
            count = 1;
        }
    } else if ((*link)->count < limit) {
        count = ++(*link)->count;
    }
    pthread_mutex_unlock(&table->lock);
    return count;
}

void he_address_table_release(he_address_table *table, const he_address *address) {
    pthread_mutex_lock(&table->lock);
    node **link = find(table, address);
    if (*link && --(*link)->count == 0) {
        node *entry = *link;
        *link = entry->next;
        free(entry);
    }
    pthread_mutex_unlock(&table->lock);
}

int he_address_table_count(he_address_table *table, const he_address *address) {
    pthread_mutex_lock(&table->lock);
    node **link = find(table, address);
    int count = *link ? (*link)->count : 0;
    pthread_mutex_unlock(&table->lock);
    return count;
}
