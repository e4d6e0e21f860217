// The fetch table: cached GET answers the loops write without calling the application (see http_engine.h).
#include "response.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define FETCH_SLOTS 512
#define FETCH_TARGET_MAX 256
#define FETCH_ETAG_MAX 96

typedef struct fetch_entry {
    size_t target_len;
    size_t etag_len;
    he_prepared *ok;
    he_prepared *not_modified;
    size_t body_len;
    char target[FETCH_TARGET_MAX];
    char etag[FETCH_ETAG_MAX];
} fetch_entry;

struct he_fetch_table {
    pthread_mutex_t lock;
    unsigned long long generation;
    int log_fd;
    char route[96];
    atomic_ullong answered[4];   // GET 200, GET 304, HEAD 200, HEAD 304
    atomic_ullong micros[4];     // their total duration in microseconds
    fetch_entry slots[FETCH_SLOTS];
};

static size_t slot_of(const char *path, size_t path_len, const char *query, size_t query_len) {
    unsigned long long hash = 1469598103934665603ULL;
    for (size_t i = 0; i < path_len; i++) hash = (hash ^ (unsigned char)path[i]) * 1099511628211ULL;
    hash = (hash ^ '?') * 1099511628211ULL;
    for (size_t i = 0; i < query_len; i++) hash = (hash ^ (unsigned char)query[i]) * 1099511628211ULL;
    return (size_t)(hash % FETCH_SLOTS);
}

static void clear_entry(fetch_entry *entry) {
    he_prepared_release(entry->ok);
    he_prepared_release(entry->not_modified);
    entry->ok = NULL;
    entry->not_modified = NULL;
    entry->target_len = 0;
}

he_fetch_table *he_fetch_table_create(int access_log_fd, const char *route) {
    he_fetch_table *table = calloc(1, sizeof *table);
    if (!table) return NULL;
    pthread_mutex_init(&table->lock, NULL);
    table->log_fd = access_log_fd;
    snprintf(table->route, sizeof table->route, "%s", route ? route : "");
    return table;
}

void he_fetch_table_destroy(he_fetch_table *table) {
    if (!table) return;
    for (size_t i = 0; i < FETCH_SLOTS; i++) clear_entry(&table->slots[i]);
    pthread_mutex_destroy(&table->lock);
    free(table);
}

unsigned long long he_fetch_table_generation(he_fetch_table *table) {
    pthread_mutex_lock(&table->lock);
    unsigned long long generation = table->generation;
    pthread_mutex_unlock(&table->lock);
    return generation;
}

int he_fetch_table_fill(he_fetch_table *table, unsigned long long generation, const char *path, size_t path_len,
                        const char *query, size_t query_len, const char *etag, size_t etag_len,
                        he_prepared *ok, he_prepared *not_modified) {
    if (path_len + 1 + query_len > FETCH_TARGET_MAX || etag_len > FETCH_ETAG_MAX || query_len == 0) return 0;
    size_t body_len;
    he_prepared_body(ok, &body_len);
    fetch_entry *entry = &table->slots[slot_of(path, path_len, query, query_len)];
    pthread_mutex_lock(&table->lock);
    if (table->generation != generation) {
        pthread_mutex_unlock(&table->lock);
        return 0;
    }
    clear_entry(entry);
    memcpy(entry->target, path, path_len);
    entry->target[path_len] = '?';
    memcpy(entry->target + path_len + 1, query, query_len);
    entry->target_len = path_len + 1 + query_len;
    memcpy(entry->etag, etag, etag_len);
    entry->etag_len = etag_len;
    he_prepared_retain(ok);
    he_prepared_retain(not_modified);
    entry->ok = ok;
    entry->not_modified = not_modified;
    entry->body_len = body_len;
    pthread_mutex_unlock(&table->lock);
    return 1;
}

void he_fetch_table_invalidate(he_fetch_table *table, const char *prefix, size_t prefix_len) {
    pthread_mutex_lock(&table->lock);
    table->generation++;
    for (size_t i = 0; i < FETCH_SLOTS; i++) {
        fetch_entry *entry = &table->slots[i];
        if (!entry->ok) continue;
        if (!prefix || (entry->target_len >= prefix_len && memcmp(entry->target, prefix, prefix_len) == 0)) clear_entry(entry);
    }
    pthread_mutex_unlock(&table->lock);
}

void he_fetch_table_counts(he_fetch_table *table, unsigned long long counts[4], unsigned long long micros[4]) {
    for (int i = 0; i < 4; i++) {
        counts[i] = atomic_load_explicit(&table->answered[i], memory_order_relaxed);
        micros[i] = atomic_load_explicit(&table->micros[i], memory_order_relaxed);
    }
}

static int equal_ignoring_case(const char *a, size_t a_len, const char *b) {
    size_t b_len = strlen(b);
    if (a_len != b_len) return 0;
    for (size_t i = 0; i < a_len; i++) {
        char c = a[i];
        if (c >= 'A' && c <= 'Z') c = (char)(c + 32);
        if (c != b[i]) return 0;
    }
    return 1;
}

static double now_seconds(clockid_t clock) {
    struct timespec now;
    clock_gettime(clock, &now);
    return (double)now.tv_sec + (double)now.tv_nsec / 1e9;
}

he_prepared *he_fetch_table_answer(he_fetch_table *table, const he_request *request, int is_head, double *started) {
    if (request->body_len != 0 || request->query_len == 0) return NULL;
    if (!(request->method_len == 3 && memcmp(request->method, "GET", 3) == 0) && !is_head) return NULL;
    // Fields that could change the answer: If-None-Match is handled here when it is exactly the tag; anything
    // else conditional or ranged goes to the application.
    const char *if_none_match = NULL;
    size_t if_none_match_len = 0;
    for (size_t i = 0; i < request->field_count; i++) {
        const he_field *field = &request->fields[i];
        if (equal_ignoring_case(field->name, field->name_len, "if-none-match")) {
            if (if_none_match) return NULL;
            if_none_match = field->value;
            if_none_match_len = field->value_len;
        } else if (field->name_len > 3 && (field->name[0] == 'i' || field->name[0] == 'I') && (field->name[1] == 'f' || field->name[1] == 'F') && field->name[2] == '-') {
            return NULL;
        } else if (equal_ignoring_case(field->name, field->name_len, "range")) {
            return NULL;
        }
    }
    fetch_entry *entry = &table->slots[slot_of(request->path, request->path_len, request->query, request->query_len)];
    he_prepared *answer = NULL;
    pthread_mutex_lock(&table->lock);
    if (entry->ok && entry->target_len == request->path_len + 1 + request->query_len
        && memcmp(entry->target, request->path, request->path_len) == 0 && entry->target[request->path_len] == '?'
        && memcmp(entry->target + request->path_len + 1, request->query, request->query_len) == 0) {
        if (!if_none_match) {
            answer = entry->ok;
        } else if (if_none_match_len == entry->etag_len && memcmp(if_none_match, entry->etag, entry->etag_len) == 0) {
            answer = entry->not_modified;
        }
        if (answer) he_prepared_retain(answer);
    }
    pthread_mutex_unlock(&table->lock);
    if (answer) *started = now_seconds(CLOCK_MONOTONIC);
    return answer;
}

void he_fetch_table_record(he_fetch_table *table, const he_request *request, int is_head, he_prepared *answer, double started) {
    double duration = now_seconds(CLOCK_MONOTONIC) - started;
    if (duration < 0) duration = 0;
    int status = he_prepared_status(answer);
    int index = (is_head ? 2 : 0) + (status == 304 ? 1 : 0);
    atomic_fetch_add_explicit(&table->answered[index], 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&table->micros[index], (unsigned long long)(duration * 1e6), memory_order_relaxed);
    if (table->log_fd < 0) return;
    size_t body_len = 0;
    if (status != 304) he_prepared_body(answer, &body_len);
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    struct tm parts;
    time_t seconds = now.tv_sec;
    gmtime_r(&seconds, &parts);
    char line[512];
    int length = snprintf(line, sizeof line,
                          "{\"time\":\"%04d-%02d-%02dT%02d:%02d:%02d.%03dZ\",\"method\":\"%s\",\"route\":\"%s\",\"status\":%d,"
                          "\"bytes\":%zu,\"duration_ms\":%.3f,\"request_id\":\"%s\"}\n",
                          parts.tm_year + 1900, parts.tm_mon + 1, parts.tm_mday, parts.tm_hour, parts.tm_min, parts.tm_sec,
                          (int)(now.tv_nsec / 1000000), is_head ? "HEAD" : "GET", table->route, status, body_len,
                          duration * 1000, request->request_id);
    if (length > 0 && (size_t)length < sizeof line) {
        ssize_t written = write(table->log_fd, line, (size_t)length);
        (void)written;
    }
}
