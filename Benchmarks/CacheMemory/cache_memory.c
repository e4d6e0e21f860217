// The engine's response cache in the 3,000-app spread's shape, without sockets: 3,000 app versions × 50 languages,
// each response a shared head prefix, its own ETag field and its language's ~350 bytes, and three runs of its app
// version's ~3,000 shared bytes (as the SDK fetch's entries are: docs/http.md, "The engine's response cache"). Times
// he_response_cache_answer plus a copy of the answer's head and body runs (what the kernel's send copies), for one
// target asked again and again ("pinned") and for targets at random among the 150,000 ("spread"): the difference is
// what finding a response in memory not touched lately costs. Built and run by scripts/cache-memory-bench.sh.
#define _GNU_SOURCE
#include "http_engine.h"
#include "response.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { APPS = 3000, LANGUAGES = 50, OWN = 350, SHARED = 3000, ROUNDS = 2000000 };

static const char *languages[LANGUAGES] = {
    "ar", "bn", "bg", "ca", "zh-Hans", "zh-Hant", "zh-HK", "hr", "cs", "da", "nl", "en", "fi", "fr", "fr-CA", "de", "el",
    "gu", "he", "hi", "hu", "id", "it", "ja", "kn", "ko", "ms", "ml", "mr", "nb", "or", "fa", "pl", "pt-BR", "pt-PT",
    "pa", "ro", "ru", "sk", "sl", "es", "es-419", "sv", "ta", "te", "th", "tr", "uk", "ur", "vi"};

static int app_path(char *out, int app) { return sprintf(out, "/v1/apps/lk_%038d/look", app * 7919 % 1000003); }

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/// Fills the cache, putting the 150,000 responses in a random order (as interleaved publishes allocate them).
static int fill(he_response_cache *cache) {
    static const char prefix_fields[] = "Content-Type: application/json\r\nCache-Control: max-age=30,stale-while-revalidate=60\r\n"
                                        "Vary: Accept-Encoding, Lookd-Preview\r\n";
    static char shared_bytes[SHARED], own[OWN];
    memset(own, 'o', sizeof own);
    static he_prepared *shared[APPS], *prefix[APPS];
    for (int a = 0; a < APPS; a++) {
        memset(shared_bytes, 'a' + a % 26, sizeof shared_bytes);
        shared[a] = he_prepared_bytes(shared_bytes, sizeof shared_bytes);
        prefix[a] = he_head_prefix(200, prefix_fields, sizeof prefix_fields - 1);
    }
    static int order[APPS * LANGUAGES];
    for (int i = 0; i < APPS * LANGUAGES; i++) order[i] = i;
    srand(42);
    for (int i = APPS * LANGUAGES - 1; i > 0; i--) {
        int j = rand() % (i + 1), t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    for (int n = 0; n < APPS * LANGUAGES; n++) {
        int a = order[n] / LANGUAGES, l = order[n] % LANGUAGES;
        char target[128], tag[64], etag[32], fields[64];
        int target_len = app_path(target, a);
        memcpy(tag, target + 9, 41);   // the app key, as the SDK fetch's entries are tagged
        target_len += sprintf(target + target_len, "?lang=%s", languages[l]);
        int etag_len = sprintf(etag, "\"v1_%05d%02d\"", a, l);
        int fields_len = sprintf(fields, "ETag: %s\r\n", etag);
        he_body_part parts[5] = {{shared[a], 0, NULL, 400}, {NULL, 0, own, 60}, {shared[a], 400, NULL, 2500},
                                 {NULL, 0, own, OWN - 60}, {shared[a], 2900, NULL, SHARED - 2900}};
        he_prepared *ok = he_prepared_create_prefixed(prefix[a], fields, (size_t)fields_len, parts, 5);
        if (!ok) return 0;
        he_prepared_set_shareable(ok);
        he_cache_entry entry = {0};
        entry.target = target;
        entry.target_len = (size_t)target_len;
        entry.tag = tag;
        entry.tag_len = 41;
        entry.etag = etag;
        entry.etag_len = (size_t)etag_len;
        entry.ok = ok;
        entry.not_modified_fields = fields;
        entry.not_modified_fields_len = (size_t)fields_len;
        entry.offered = 1;
        int kept = he_response_cache_put(cache, he_response_cache_generation(cache), &entry);
        he_prepared_release(ok);
        if (!kept) return 0;
    }
    return 1;
}

/// Nanoseconds per answer and copy, over ROUNDS requests (spread: each at random; else always the same one).
static double measure(he_response_cache *cache, int spread) {
    static unsigned char out[16384];
    unsigned long long checksum = 0;
    unsigned random = 12345;
    double start = now();
    for (int i = 0; i < ROUNDS; i++) {
        random = random * 1103515245u + 12345u;
        int a = spread ? (int)((random >> 8) % APPS) : 0, l = spread ? (int)((random >> 3) % LANGUAGES) : 15;
        char path[128], query[32];
        he_request request = {0};
        request.method = "GET";
        request.method_len = 3;
        request.path = path;
        request.path_len = (size_t)app_path(path, a);
        request.query = query;
        request.query_len = (size_t)sprintf(query, "lang=%s", languages[l]);
        int label, status;
        size_t fields_offset, fields_len;
        he_prepared *answer = he_response_cache_answer(cache, &request, &label, &status, &fields_offset, &fields_len);
        if (!answer) {
            fprintf(stderr, "cache-memory: no answer for %.*s\n", (int)request.path_len, path);
            exit(1);
        }
        size_t at = 0, length;
        const unsigned char *bytes = he_prepared_head(he_prepared_prefix(answer), &length);
        memcpy(out, bytes, length);
        at += length;
        bytes = he_prepared_head(answer, &length);
        memcpy(out + at, bytes, length);
        at += length;
        for (size_t part = 0; part < he_prepared_part_count(answer); part++) {
            he_prepared *owner;
            bytes = he_prepared_part(answer, part, &length, &owner);
            memcpy(out + at, bytes, length);
            at += length;
        }
        checksum += out[at / 2] + at;
        he_prepared_release(answer);
    }
    double seconds = now() - start;
    if (checksum == 0) fprintf(stderr, "cache-memory: nothing copied\n");
    return seconds / ROUNDS * 1e9;
}

int main(void) {
    double bounds[] = {0.001};
    he_response_cache *cache = he_response_cache_create((size_t)200 << 20, "lookd-preview", bounds, 1);
    if (!cache || !fill(cache)) {
        fprintf(stderr, "cache-memory: the cache refused the responses\n");
        return 1;
    }
    size_t entries, bytes;
    he_response_cache_usage(cache, &entries, &bytes);
    // A warm-up pass each, then the measured passes, interleaved; the best of three of each.
    measure(cache, 0);
    measure(cache, 1);
    double pinned = 1e18, spread = 1e18;
    for (int round = 0; round < 3; round++) {
        double p = measure(cache, 0), s = measure(cache, 1);
        if (p < pinned) pinned = p;
        if (s < spread) spread = s;
    }
    printf("%zu entries, %.1f MB: pinned %.0f ns, spread %.0f ns an answer and copy (spread − pinned %.0f ns)\n", entries,
           (double)bytes / 1e6, pinned, spread, spread - pinned);
    he_response_cache_destroy(cache);
    return 0;
}
