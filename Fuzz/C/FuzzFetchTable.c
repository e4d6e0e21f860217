// sources: Sources/HTTPEngine/request_head.c Sources/HTTPEngine/fetch_table.c Sources/HTTPEngine/prepared.c
// cflags: -ISources/HTTPEngine -ISources/HTTPEngine/include
//
// libFuzzer target for the engine's fetch table, in C, built by scripts/fuzz.sh with clang
// -fsanitize=fuzzer,address,undefined. The input drives a small table (a capacity that forces eviction): its first
// bytes are operations — fill one language of one of four app keys at version 1 or 2, invalidate one app or all —
// and the rest is a request head off the wire, parsed by the engine's parser and then offered to the table. An
// answer must be a 200 whose body is exactly the pieces of that app and language at a version that was filled, or a
// 304 for an If-None-Match equal to that version's tag; an app or language never filled must not be answered.
#include "request_head.h"
#include "response.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { max_fields = 100, max_target = 4096, language_count = 3, key_count = 4 };

static const char *const keys[key_count] = {"pk_a", "pk_b", "pk_c", "pk_d"};
static const char *const languages = "de ar pt-BR";
static const char *const language_ids[language_count] = {"de", "ar", "pt-BR"};
static int filled[key_count][language_count][3];   // [key][language][version]: ever filled

/// The pieces of `key` at `version` in `language`: deterministic, of lengths that vary with all three.
static size_t shared_of(int key, int version, unsigned char *out, size_t *cut1, size_t *cut2) {
    size_t length = 0;
    length += (size_t)sprintf((char *)out + length, "{\"appKey\":\"%s\",\"v\":%d,", keys[key], version);
    *cut1 = length;
    for (int i = 0; i < 40 * (key + 1); i++) out[length++] = (unsigned char)('a' + (i + version) % 26);
    out[length++] = ',';
    *cut2 = length;
    length += (size_t)sprintf((char *)out + length, "\"version\":%d}", version);
    return length;
}

static size_t language_of(int key, int language, int version, unsigned char *out, size_t *cut) {
    size_t length = (size_t)sprintf((char *)out, "\"locale\":\"%s\",", language_ids[language]);
    *cut = length;
    length += (size_t)sprintf((char *)out + length, "\"texts\":\"%d-%d-%d\",", key, language, version);
    return length;
}

static size_t etag_of(int key, int language, int version, char *out) {
    return (size_t)sprintf(out, "\"v%d-%d%d\"", version, key, language);
}

static size_t body_of(int key, int language, int version, unsigned char *out) {
    unsigned char shared[512], own[128];
    size_t cut1, cut2, cut;
    size_t shared_len = shared_of(key, version, shared, &cut1, &cut2);
    size_t own_len = language_of(key, language, version, own, &cut);
    size_t length = 0;
    memcpy(out + length, shared, cut1); length += cut1;
    memcpy(out + length, own, cut); length += cut;
    memcpy(out + length, shared + cut1, cut2 - cut1); length += cut2 - cut1;
    memcpy(out + length, own + cut, own_len - cut); length += own_len - cut;
    memcpy(out + length, shared + cut2, shared_len - cut2); length += shared_len - cut2;
    return length;
}

static void fill(he_fetch_table *table, int key, int language, int version) {
    unsigned char shared[512], own[128];
    char etag[64];
    size_t cut1, cut2, cut;
    he_fetch_fill request = {0};
    request.key = keys[key];
    request.key_len = strlen(keys[key]);
    request.version = version;
    request.shared = shared;
    request.shared_len = shared_of(key, version, shared, &cut1, &cut2);
    request.cut1 = cut1;
    request.cut2 = cut2;
    request.language = (size_t)language;
    request.language_bytes = own;
    request.language_len = language_of(key, language, version, own, &cut);
    request.language_cut = cut;
    request.etag = etag;
    request.etag_len = etag_of(key, language, version, etag);
    if (he_fetch_table_fill(table, he_fetch_table_generation(table), &request) >= 1) filled[key][language][version] = 1;   // 2: the app's first
    size_t apps, bytes;
    he_fetch_table_usage(table, &apps, &bytes);
    if (bytes > 1200 || apps > key_count) abort();
}

static void check_answer(const he_request *request, he_prepared *answer) {
    // The target named the app and language: find them.
    int key = -1, language = -1;
    for (int i = 0; i < key_count; i++) {
        size_t key_len = strlen(keys[i]);
        if (request->path_len == 9 + key_len + 5 && memcmp(request->path + 9, keys[i], key_len) == 0) key = i;
    }
    for (int i = 0; i < language_count; i++) {
        size_t id_len = strlen(language_ids[i]);
        if (request->query_len == 5 + id_len && memcmp(request->query + 5, language_ids[i], id_len) == 0) language = i;
    }
    if (key < 0 || language < 0) abort();
    size_t body_len;
    const unsigned char *body = he_prepared_body(answer, &body_len);
    int status = he_prepared_status(answer);
    int matched = 0;
    for (int version = 1; version <= 2; version++) {
        if (!filled[key][language][version]) continue;
        if (status == 200) {
            unsigned char expected[1024];
            size_t expected_len = body_of(key, language, version, expected);
            if (expected_len == body_len && memcmp(expected, body, body_len) == 0) matched = 1;
        } else if (status == 304) {
            matched = body_len == 0;
        }
    }
    if (!matched) abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    he_fetch_table *table = he_fetch_table_create(-1, "/v1/apps/{appKey}/look", "/v1/apps/", "/look", languages,
                                                  "ETag: \x01\r\nContent-Language: \x02\r\n", "ETag: \x01\r\n", 1200);
    if (!table) abort();
    memset(filled, 0, sizeof filled);
    size_t offset = 0;
    // Operations until a 0xFF byte (or the input ends).
    while (offset < size && data[offset] != 0xFF) {
        uint8_t operation = data[offset++];
        int key = operation & 3, language = (operation >> 2) % language_count, version = 1 + ((operation >> 4) & 1);
        if (operation & 0x40) {
            he_fetch_table_invalidate(table, (operation & 0x20) ? NULL : keys[key], strlen(keys[key]));
            // What was invalidated may never be answered again until filled again.
            for (int k = 0; k < key_count; k++) {
                if ((operation & 0x20) || k == key) memset(filled[k], 0, sizeof filled[k]);
            }
        } else {
            fill(table, key, language, version);
        }
    }
    if (offset < size) offset++;
    size_t length = size - offset;
    char *bytes = malloc(length ? length : 1);
    memcpy(bytes, data + offset, length);
    he_head_limits limits = {max_target, 16384, max_fields};
    he_head_scan scan;
    memset(&scan, 0, sizeof scan);
    he_refusal refusal = {0, NULL, NULL};
    if (he_head_scan_feed(&scan, bytes, length, &limits, &refusal) == 1) {
        he_field fields[max_fields];
        char path[max_target];
        he_head head;
        memset(&head, 0, sizeof head);
        if (he_head_parse(bytes, scan.position, &limits, fields, path, &head, &refusal) == 0) {
            double started = 0;
            he_prepared *answer = he_fetch_table_answer(table, &head.request, head.is_head_method, &started);
            if (answer) {
                check_answer(&head.request, answer);
                he_fetch_table_record(table, &head.request, head.is_head_method, answer, started);
                he_prepared_release(answer);
            }
        }
    }
    free(bytes);
    he_fetch_table_destroy(table);
    return 0;
}
