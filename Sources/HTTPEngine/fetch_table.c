// The fetch table: per app, the parts of its fetch response, which the loops compose and write without calling the
// application (see http_engine.h).
#include "response.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define FETCH_KEY_MAX 128
#define FETCH_ETAG_MAX 96
#define FETCH_LANGUAGE_ID_MAX 32
#define FETCH_FIELDS_MAX 1024
#define FETCH_ETAG_MARK '\x01'
#define FETCH_LANGUAGE_MARK '\x02'

/// One language's own bytes of an app's response: `bytes[0, cut)` go between the shared head and middle,
/// `bytes[cut, length)` between the middle and the tail; its entity tag follows them (`etag_len` bytes).
typedef struct fetch_language {
    unsigned int length;
    unsigned int cut;
    unsigned int etag_len;
    unsigned int not_modified_cost;   // what the 304 counts against the capacity once built
    he_prepared *not_modified;        // the 304, built on its first use and then reused (NULL until then)
    unsigned char bytes[];
} fetch_language;

/// What a language counts against the capacity: its bytes, its tag and its 304 once built.
static size_t language_cost(const fetch_language *language) {
    return sizeof *language + language->length + language->etag_len + language->not_modified_cost;
}

static void free_language(fetch_language *language) {
    if (!language) return;
    he_prepared_release(language->not_modified);
    free(language);
}

static const char *etag_of(const fetch_language *language) { return (const char *)language->bytes + language->length; }

#define FETCH_TEMPLATE_SEGMENTS 16

/// A fields template cut at its marks: literal runs, and the places where the tag or the language's id go.
typedef struct fields_template {
    size_t count;
    struct { unsigned short offset, length; char mark; } segments[FETCH_TEMPLATE_SEGMENTS];
    size_t length;
    char text[FETCH_FIELDS_MAX];
} fields_template;

/// One app version: the bytes every language shares (`shared[0, cut1)` head, `[cut1, cut2)` middle, `[cut2,
/// shared_len)` tail) and the languages filled so far.
typedef struct fetch_app {
    struct fetch_app *next;   // the bucket's chain
    unsigned long long hash;
    long long version;
    int referenced;           // CLOCK: answered since the hand last passed
    size_t cost;              // what it counts against the capacity
    size_t key_len;
    char key[FETCH_KEY_MAX];
    size_t shared_len, cut1, cut2;
    unsigned char *shared;        // in the same block, after the language slots
    fetch_language *languages[];  // language_count slots, NULL until filled
} fetch_app;

struct he_fetch_table {
    pthread_mutex_t lock;
    unsigned long long generation;
    int log_fd;
    char route[96];
    char prefix[64];
    size_t prefix_len;
    char suffix[32];
    size_t suffix_len;
    size_t language_count;
    char (*language_ids)[FETCH_LANGUAGE_ID_MAX];
    size_t *language_id_lens;
    fields_template ok_fields;
    fields_template not_modified_fields;
    size_t capacity;
    size_t bytes;
    size_t app_count;
    size_t bucket_count;   // a power of two
    fetch_app **buckets;
    size_t hand;           // CLOCK: the bucket the hand is at
    atomic_ullong answered[4];   // GET 200, GET 304, HEAD 200, HEAD 304
    atomic_ullong micros[4];     // their total duration in microseconds
};

static unsigned long long hash_key(const char *key, size_t key_len) {
    unsigned long long hash = 1469598103934665603ULL;
    for (size_t i = 0; i < key_len; i++) hash = (hash ^ (unsigned char)key[i]) * 1099511628211ULL;
    return hash ^ (hash >> 29);
}

static void free_app(he_fetch_table *table, fetch_app *app) {
    for (size_t i = 0; i < table->language_count; i++) free_language(app->languages[i]);
    free(app);
}

/// Unlinks and frees `app`, found in bucket `bucket` after `previous` (NULL: first in the chain).
static void remove_app(he_fetch_table *table, size_t bucket, fetch_app *previous, fetch_app *app) {
    if (previous) previous->next = app->next;
    else table->buckets[bucket] = app->next;
    table->bytes -= app->cost;
    table->app_count--;
    free_app(table, app);
}

static int is_app(const fetch_app *app, const char *key, size_t key_len, unsigned long long hash) {
    return app->hash == hash && app->key_len == key_len && memcmp(app->key, key, key_len) == 0;
}

static fetch_app *find_app(he_fetch_table *table, const char *key, size_t key_len, unsigned long long hash) {
    for (fetch_app *app = table->buckets[hash & (table->bucket_count - 1)]; app; app = app->next) {
        if (is_app(app, key, key_len, hash)) return app;
    }
    return NULL;
}

/// Unlinks and frees the app `key` names, if the table holds it.
static void remove_key(he_fetch_table *table, const char *key, size_t key_len, unsigned long long hash) {
    size_t bucket = hash & (table->bucket_count - 1);
    for (fetch_app *previous = NULL, *app = table->buckets[bucket]; app; previous = app, app = app->next) {
        if (is_app(app, key, key_len, hash)) {
            remove_app(table, bucket, previous, app);
            return;
        }
    }
}

/// Evicts apps by CLOCK (second chance), never `keep`, until `needed` more bytes fit or nothing else is left.
static void make_room(he_fetch_table *table, size_t needed, const fetch_app *keep) {
    size_t passes = 0;
    while (table->bytes + needed > table->capacity && table->app_count > (keep ? 1u : 0u)) {
        if (table->hand >= table->bucket_count) {
            table->hand = 0;
            // Two full turns clear every bit; a third finds a victim. Guards against a miscount looping forever.
            if (++passes > 3) return;
        }
        size_t bucket = table->hand;
        fetch_app *previous = NULL, *victim = NULL, *victim_previous = NULL;
        for (fetch_app *app = table->buckets[bucket]; app; previous = app, app = app->next) {
            if (app == keep) continue;
            if (app->referenced) {
                app->referenced = 0;
            } else if (!victim) {
                victim = app;
                victim_previous = previous;
            }
        }
        if (victim) remove_app(table, bucket, victim_previous, victim);
        else table->hand++;
    }
}

static int grow(he_fetch_table *table) {
    size_t count = table->bucket_count * 2;
    fetch_app **buckets = calloc(count, sizeof *buckets);
    if (!buckets) return -1;
    for (size_t i = 0; i < table->bucket_count; i++) {
        fetch_app *app = table->buckets[i];
        while (app) {
            fetch_app *next = app->next;
            size_t bucket = app->hash & (count - 1);
            app->next = buckets[bucket];
            buckets[bucket] = app;
            app = next;
        }
    }
    free(table->buckets);
    table->buckets = buckets;
    table->bucket_count = count;
    table->hand = 0;
    return 0;
}

static size_t copy_text(char *out, size_t room, const char *text, size_t length) {
    if (!text || length >= room) return 0;
    memcpy(out, text, length);
    out[length] = 0;
    return length;
}

/// Cuts `text` at its marks. Returns -1 when it is too long or has too many marks.
static int cut_template(fields_template *template, const char *text) {
    size_t length = strlen(text);
    if (length >= sizeof template->text) return -1;
    memcpy(template->text, text, length);
    template->length = length;
    template->count = 0;
    size_t start = 0;
    for (size_t i = 0; i <= length; i++) {
        int is_mark = i < length && (text[i] == FETCH_ETAG_MARK || text[i] == FETCH_LANGUAGE_MARK);
        if (i < length && !is_mark) continue;
        if (template->count + 2 > FETCH_TEMPLATE_SEGMENTS) return -1;
        if (i > start) {
            template->segments[template->count].offset = (unsigned short)start;
            template->segments[template->count].length = (unsigned short)(i - start);
            template->segments[template->count].mark = 0;
            template->count++;
        }
        if (is_mark) {
            template->segments[template->count].offset = 0;
            template->segments[template->count].length = 0;
            template->segments[template->count].mark = text[i];
            template->count++;
        }
        start = i + 1;
    }
    return 0;
}

/// The next id of a space-separated list at `*cursor`: its length (0 at the end), and `*cursor` moved past it.
static size_t next_id(const char **cursor, const char **id) {
    const char *end = strchr(*cursor, ' ');
    size_t length = end ? (size_t)(end - *cursor) : strlen(*cursor);
    *id = *cursor;
    *cursor += length + (end ? 1 : 0);
    return length;
}

he_fetch_table *he_fetch_table_create(int access_log_fd, const char *route, const char *prefix, const char *suffix,
                                      const char *languages, const char *ok_fields, const char *not_modified_fields,
                                      size_t capacity_bytes) {
    if (!route || !prefix || !suffix || !languages || !ok_fields || !not_modified_fields) return NULL;
    size_t language_count = 0;
    for (const char *cursor = languages, *id; *cursor; language_count++) {
        size_t length = next_id(&cursor, &id);
        if (length == 0 || length >= FETCH_LANGUAGE_ID_MAX) return NULL;
    }
    he_fetch_table *table = calloc(1, sizeof *table);
    if (!table) return NULL;
    table->bucket_count = 1024;
    table->buckets = calloc(table->bucket_count, sizeof *table->buckets);
    table->language_ids = calloc(language_count ? language_count : 1, sizeof *table->language_ids);
    table->language_id_lens = calloc(language_count ? language_count : 1, sizeof *table->language_id_lens);
    table->prefix_len = copy_text(table->prefix, sizeof table->prefix, prefix, strlen(prefix));
    table->suffix_len = copy_text(table->suffix, sizeof table->suffix, suffix, strlen(suffix));
    int templates_fit = cut_template(&table->ok_fields, ok_fields) == 0 && cut_template(&table->not_modified_fields, not_modified_fields) == 0;
    if (!table->buckets || !table->language_ids || !table->language_id_lens || table->prefix_len != strlen(prefix)
        || table->suffix_len != strlen(suffix) || !templates_fit || strlen(route) >= sizeof table->route) {
        free(table->buckets);
        free(table->language_ids);
        free(table->language_id_lens);
        free(table);
        return NULL;
    }
    pthread_mutex_init(&table->lock, NULL);
    table->log_fd = access_log_fd;
    snprintf(table->route, sizeof table->route, "%s", route);
    size_t index = 0;
    for (const char *cursor = languages, *id; *cursor; index++) {
        size_t length = next_id(&cursor, &id);
        table->language_id_lens[index] = copy_text(table->language_ids[index], FETCH_LANGUAGE_ID_MAX, id, length);
    }
    table->language_count = language_count;
    table->capacity = capacity_bytes;
    return table;
}

void he_fetch_table_destroy(he_fetch_table *table) {
    if (!table) return;
    for (size_t i = 0; i < table->bucket_count; i++) {
        fetch_app *app = table->buckets[i];
        while (app) {
            fetch_app *next = app->next;
            free_app(table, app);
            app = next;
        }
    }
    free(table->buckets);
    free(table->language_ids);
    free(table->language_id_lens);
    pthread_mutex_destroy(&table->lock);
    free(table);
}

unsigned long long he_fetch_table_generation(he_fetch_table *table) {
    pthread_mutex_lock(&table->lock);
    unsigned long long generation = table->generation;
    pthread_mutex_unlock(&table->lock);
    return generation;
}

int he_fetch_table_fill(he_fetch_table *table, unsigned long long generation, const he_fetch_fill *fill) {
    if (fill->key_len == 0 || fill->key_len > FETCH_KEY_MAX || fill->etag_len > FETCH_ETAG_MAX
        || fill->language >= table->language_count || fill->cut1 > fill->cut2 || fill->cut2 > fill->shared_len
        || fill->language_cut > fill->language_len || fill->language_len > (1u << 30)) return 0;
    // Built before taking the lock: the copies of the bytes.
    fetch_language *language = malloc(sizeof *language + fill->language_len + fill->etag_len);
    if (!language) return 0;
    language->length = (unsigned int)fill->language_len;
    language->cut = (unsigned int)fill->language_cut;
    language->etag_len = (unsigned int)fill->etag_len;
    language->not_modified = NULL;
    language->not_modified_cost = 0;
    memcpy(language->bytes, fill->language_bytes, fill->language_len);
    memcpy(language->bytes + fill->language_len, fill->etag, fill->etag_len);
    size_t cost = language_cost(language);

    unsigned long long hash = hash_key(fill->key, fill->key_len);
    pthread_mutex_lock(&table->lock);
    int kept = 0, created = 0;
    if (table->generation != generation) goto done;
    fetch_app *app = find_app(table, fill->key, fill->key_len, hash);
    if (app && app->version != fill->version) {
        remove_key(table, fill->key, fill->key_len, hash);
        app = NULL;
    }
    if (!app) {
        created = 1;
        // One block: the app, its language slots, then the shared bytes (one allocation, fewer cache misses per answer).
        size_t app_cost = sizeof *app + table->language_count * sizeof(fetch_language *) + fill->shared_len;
        if (app_cost + cost > table->capacity) goto done;
        if (table->app_count >= table->bucket_count && grow(table) != 0) goto done;
        app = calloc(1, app_cost);
        if (!app) goto done;
        make_room(table, app_cost, NULL);
        app->hash = hash;
        app->version = fill->version;
        app->key_len = fill->key_len;
        memcpy(app->key, fill->key, fill->key_len);
        app->shared = (unsigned char *)&app->languages[table->language_count];
        memcpy(app->shared, fill->shared, fill->shared_len);
        app->shared_len = fill->shared_len;
        app->cut1 = fill->cut1;
        app->cut2 = fill->cut2;
        app->cost = app_cost;
        size_t bucket = hash & (table->bucket_count - 1);
        app->next = table->buckets[bucket];
        table->buckets[bucket] = app;
        table->app_count++;
        table->bytes += app_cost;
    } else if (app->cost + cost > table->capacity) {
        goto done;
    }
    if (app->languages[fill->language]) {
        size_t old = language_cost(app->languages[fill->language]);
        app->cost -= old;
        table->bytes -= old;
        free_language(app->languages[fill->language]);
        app->languages[fill->language] = NULL;
    }
    make_room(table, cost, app);
    app->languages[fill->language] = language;
    language = NULL;
    app->cost += cost;
    table->bytes += cost;
    kept = created ? 2 : 1;
done:
    pthread_mutex_unlock(&table->lock);
    free(language);
    return kept;
}

void he_fetch_table_invalidate(he_fetch_table *table, const char *key, size_t key_len) {
    unsigned long long hash = key ? hash_key(key, key_len) : 0;
    pthread_mutex_lock(&table->lock);
    table->generation++;
    if (key) {
        remove_key(table, key, key_len, hash);
    } else {
        for (size_t bucket = 0; bucket < table->bucket_count; bucket++) {
            while (table->buckets[bucket]) remove_app(table, bucket, NULL, table->buckets[bucket]);
        }
    }
    pthread_mutex_unlock(&table->lock);
}

void he_fetch_table_usage(he_fetch_table *table, size_t *apps, size_t *bytes) {
    pthread_mutex_lock(&table->lock);
    *apps = table->app_count;
    *bytes = table->bytes;
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

/// The fields template with the marks replaced by the tag and the language id. Returns the length, or 0 when it
/// does not fit `out` (then the application answers).
static size_t expand_fields(const fields_template *template, const char *etag, size_t etag_len, const char *language,
                            size_t language_len, char *out, size_t room) {
    size_t length = 0;
    for (size_t i = 0; i < template->count; i++) {
        const char *piece = template->text + template->segments[i].offset;
        size_t piece_len = template->segments[i].length;
        if (template->segments[i].mark == FETCH_ETAG_MARK) {
            piece = etag;
            piece_len = etag_len;
        } else if (template->segments[i].mark == FETCH_LANGUAGE_MARK) {
            piece = language;
            piece_len = language_len;
        }
        if (length + piece_len > room) return 0;
        memcpy(out + length, piece, piece_len);
        length += piece_len;
    }
    return length;
}

/// The index of the language a query names, when it is exactly `lang=<one of the table's ids>`; -1 otherwise.
static long language_of(const he_fetch_table *table, const char *query, size_t query_len) {
    if (query_len <= 5 || memcmp(query, "lang=", 5) != 0) return -1;
    const char *value = query + 5;
    size_t value_len = query_len - 5;
    for (size_t i = 0; i < table->language_count; i++) {
        if (table->language_id_lens[i] == value_len && memcmp(table->language_ids[i], value, value_len) == 0) return (long)i;
    }
    return -1;
}

he_prepared *he_fetch_table_answer(he_fetch_table *table, const he_request *request, int is_head, double *started) {
    if (request->body_len != 0 || request->query_len == 0) return NULL;
    if (!(request->method_len == 3 && memcmp(request->method, "GET", 3) == 0) && !is_head) return NULL;
    // The path: prefix, an app key without '/', suffix.
    if (request->path_len <= table->prefix_len + table->suffix_len || memcmp(request->path, table->prefix, table->prefix_len) != 0
        || memcmp(request->path + request->path_len - table->suffix_len, table->suffix, table->suffix_len) != 0) return NULL;
    const char *key = request->path + table->prefix_len;
    size_t key_len = request->path_len - table->prefix_len - table->suffix_len;
    if (key_len > FETCH_KEY_MAX || memchr(key, '/', key_len)) return NULL;
    long language_index = language_of(table, request->query, request->query_len);
    if (language_index < 0) return NULL;
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
    const char *language_id = table->language_ids[language_index];
    size_t language_id_len = table->language_id_lens[language_index];
    unsigned long long hash = hash_key(key, key_len);
    he_prepared *answer = NULL;
    char fields[FETCH_FIELDS_MAX + FETCH_ETAG_MAX + FETCH_LANGUAGE_ID_MAX];
    pthread_mutex_lock(&table->lock);
    fetch_app *app = find_app(table, key, key_len, hash);
    if (app) __builtin_prefetch(app->shared);   // the shared bytes' first line, while the language's loads
    fetch_language *language = app ? app->languages[language_index] : NULL;
    if (language) {
        app->referenced = 1;
        if (!if_none_match) {
            size_t fields_len = expand_fields(&table->ok_fields, etag_of(language), language->etag_len, language_id, language_id_len,
                                              fields, sizeof fields);
            const he_bytes parts[5] = {
                {app->shared, app->cut1},
                {language->bytes, language->cut},
                {app->shared + app->cut1, app->cut2 - app->cut1},
                {language->bytes + language->cut, language->length - language->cut},
                {app->shared + app->cut2, app->shared_len - app->cut2},
            };
            if (fields_len) answer = he_prepared_compose(200, fields, fields_len, parts, 5);
        } else if (if_none_match_len == language->etag_len && memcmp(if_none_match, etag_of(language), language->etag_len) == 0) {
            answer = language->not_modified;
            if (answer) {
                he_prepared_retain(answer);
            } else {
                size_t fields_len = expand_fields(&table->not_modified_fields, etag_of(language), language->etag_len, language_id,
                                                  language_id_len, fields, sizeof fields);
                if (fields_len) answer = he_prepared_compose(304, fields, fields_len, NULL, 0);
                // Kept for the next revalidation while the table has room for it (and counted from then on).
                size_t cost = he_head_bound(fields_len);
                if (answer && table->bytes + cost <= table->capacity) {
                    he_prepared_retain(answer);
                    language->not_modified = answer;
                    language->not_modified_cost = (unsigned int)cost;
                    app->cost += cost;
                    table->bytes += cost;
                }
            }
        }
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
