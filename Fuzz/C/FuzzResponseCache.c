// sources: Sources/HTTPEngine/request_head.c Sources/HTTPEngine/response_cache.c Sources/HTTPEngine/prepared.c Sources/HTTPEngine/accept_encoding.c Sources/HTTPEngine/if_none_match.c
// cflags: -ISources/HTTPEngine -ISources/HTTPEngine/include
//
// libFuzzer target for the engine's response cache, in C, built by scripts/fuzz.sh with clang
// -fsanitize=fuzzer,address,undefined. The input drives a small cache (a capacity that forces eviction): its first
// bytes are operations — put one of four targets (two that vary on Accept-Language: with "de", or without the
// field) at a new version, tagged with one of two tags, with a body composed of shared and own runs; purge a tag or
// everything — and the rest is a request head off the wire, parsed by the engine's parser and offered to the cache.
// An answer must be the latest put of exactly that target and variant that no purge removed since (never an older
// one, never another target's): its 200's body byte for byte, or its 304 when If-None-Match names its tag. Every
// entry offers identity and br; some puts hold a br form too (body "br:" + the identity body, tag "v<N>-br"): a br
// answer must come from an entry that holds it, to a request whose Accept-Encoding accepts br. Some puts give the 304s
// as their fields alone (he_cache_variant.not_modified_fields); some make their 200s from a shared head prefix
// (he_prepared_create_prefixed), whose 304 fields span the prefix and the response's own fields.
#define _GNU_SOURCE
#include "request_head.h"
#include "response.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { max_fields = 100, max_target = 4096, target_count = 4, variant_count = 2 };

static const char *const targets[target_count] = {"/a", "/b?x=1", "/c", "/c?lang=de"};
static const char *const tags[2] = {"tag-one", "tag-two"};
// [target][variant]: the version the cache may answer (0: none); the tag it was put with.
static int current[target_count][variant_count];
static int tag_of[target_count][variant_count];
static int next_version;

/// The body of `target` at `version`: a shared run, an own run, the shared run's tail.
static size_t body_of(int target, int variant, int version, unsigned char *out) {
    return (size_t)sprintf((char *)out, "{\"shared\":\"%.*s\",\"own\":\"%d-%d-%d\",\"end\":true}", 40 + target * 30,
                           "0123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789",
                           target, variant, version);
}

static size_t etag_of(int version, int br, char *out) { return (size_t)sprintf(out, br ? "\"v%d-br\"" : "\"v%d\"", version); }

// [target][variant]: whether the current version holds a br form.
static int has_br[target_count][variant_count];

static int varies(int target) { return target >= 2; }

/// The head prefix some puts share (he_prepared_create_prefixed): the status line and one field.
static const char shared_field[] = "Vary: Accept-Language\r\n";
static he_prepared *prefix;

static void put(he_response_cache *cache, int target, int variant, int tag, int br, int fields_only, int prefixed) {
    if (!varies(target)) variant = 0;   // one entry per target that does not vary
    int version = ++next_version;
    unsigned char body[512];
    size_t length = body_of(target, variant, version, body);
    // Shared bytes: the body's first 20 bytes and its last 11, referenced; the rest owned.
    he_prepared *shared = he_prepared_bytes(body, length);
    he_body_part parts[3] = {{shared, 0, NULL, 20}, {NULL, 0, body + 20, length - 31}, {shared, length - 11, NULL, 11}};
    char etag[32];
    size_t etag_len = etag_of(version, 0, etag);
    char fields[96], own[64];
    int own_len = sprintf(own, "ETag: %s\r\n", etag);
    // Prefixed: a shared head prefix (a field, then the response's own ETag), so the 304's fields span both pieces.
    int fields_len = sprintf(fields, "%s%s", prefixed ? shared_field : "", own);
    he_prepared *ok = prefixed ? he_prepared_create_prefixed(prefix, own, (size_t)own_len, parts, 3)
                               : he_prepared_create_parts(200, fields, (size_t)fields_len, parts, 3);
    he_prepared *not_modified = he_prepared_create(304, fields, (size_t)fields_len, NULL, 0);
    he_prepared_release(shared);
    if (!ok || !not_modified) abort();
    he_cache_entry entry;
    memset(&entry, 0, sizeof entry);
    entry.target = targets[target];
    entry.target_len = strlen(targets[target]);
    if (varies(target)) {
        entry.vary_mask = 1;
        entry.vary_values[0] = variant ? "de" : NULL;
        entry.vary_lens[0] = variant ? 2 : 0;
    }
    entry.tag = tags[tag];
    entry.tag_len = strlen(tags[tag]);
    entry.etag = etag;
    entry.etag_len = etag_len;
    entry.label = target % HE_CACHE_LABELS;
    entry.ok = ok;
    if (fields_only) {
        // The 304 given as its fields alone: the cache writes it from the 200's head.
        entry.not_modified_fields = fields;
        entry.not_modified_fields_len = (size_t)fields_len;
    } else {
        entry.not_modified = not_modified;
    }
    entry.offered = 1u << HE_CODING_BR;
    char br_etag[40], br_fields[96];
    he_prepared *br_ok = NULL, *br_not_modified = NULL;
    if (br) {
        unsigned char coded[520] = "br:";
        memcpy(coded + 3, body, length);
        size_t br_etag_len = etag_of(version, 1, br_etag);
        int br_own_len = sprintf(br_fields, "%sETag: %s\r\nContent-Encoding: br\r\n", prefixed ? shared_field : "", br_etag);
        int br_fields_len = br_own_len;
        he_body_part coded_part = {NULL, 0, coded, length + 3};
        size_t skip = prefixed ? strlen(shared_field) : 0;
        br_ok = prefixed ? he_prepared_create_prefixed(prefix, br_fields + skip, (size_t)br_own_len - skip, &coded_part, 1)
                         : he_prepared_create(200, br_fields, (size_t)br_fields_len, coded, length + 3);
        br_not_modified = he_prepared_create(304, br_fields, (size_t)br_fields_len, NULL, 0);
        if (!br_ok || !br_not_modified) abort();
        entry.coded[HE_CODING_BR] = fields_only ? (he_cache_variant){br_ok, NULL, br_etag, br_etag_len, br_fields, (size_t)br_fields_len}
                                                : (he_cache_variant){br_ok, br_not_modified, br_etag, br_etag_len, NULL, 0};
    }
    // Kept: it replaces the variant's entry. Refused (too large for its shard): the entry before it stays answerable.
    if (he_response_cache_put(cache, he_response_cache_generation(cache), &entry)) {
        current[target][variant] = version;
        tag_of[target][variant] = tag;
        has_br[target][variant] = br;
    }
    he_prepared_release(ok);
    he_prepared_release(not_modified);
    he_prepared_release(br_ok);
    he_prepared_release(br_not_modified);
}

static void purge(he_response_cache *cache, int tag) {
    he_response_cache_purge(cache, tag < 0 ? NULL : tags[tag], tag < 0 ? 0 : strlen(tags[tag]));
    for (int t = 0; t < target_count; t++) {
        for (int v = 0; v < variant_count; v++) {
            if (tag < 0 || tag_of[t][v] == tag) current[t][v] = 0;
        }
    }
}

/// Checks an answer against the model: the right version's 200 (body byte for byte) or 304 (its own, or a run of the
/// 200's head when `fields_len` > 0).
static void check(he_prepared *answer, int status, size_t fields_offset, size_t fields_len, const he_head *head, const char *none_match,
                  size_t none_match_len) {
    const he_request *request = &head->request;
    char target[max_target + 8];
    size_t target_len = request->path_len;
    memcpy(target, request->path, request->path_len);
    if (request->query_len) {
        target[target_len++] = '?';
        memcpy(target + target_len, request->query, request->query_len);
        target_len += request->query_len;
    }
    int found = -1;
    for (int t = 0; t < target_count; t++) {
        if (strlen(targets[t]) == target_len && memcmp(targets[t], target, target_len) == 0) found = t;
    }
    if (found < 0) abort();   // answered a target never put
    int variant = 0;
    for (size_t i = 0; i < request->field_count; i++) {
        const he_field *f = &request->fields[i];
        if (f->name_len == 15 && strncasecmp(f->name, "accept-language", 15) == 0) {
            if (!(f->value_len == 2 && memcmp(f->value, "de", 2) == 0)) {
                if (varies(found)) abort();   // a value no entry was put with
            } else {
                variant = 1;
            }
        }
    }
    if (!varies(found)) variant = 0;
    int version = current[found][variant];
    if (version == 0) abort();   // purged, refused or never put: must not be answered
    // The whole head (a prefixed response's prefix, then its own fields).
    size_t head_len = he_prepared_head_length(answer);
    static unsigned char whole[8192];
    if (head_len > sizeof whole) abort();
    he_prepared_head_copy(answer, 0, head_len, whole);
    const unsigned char *wire = whole;
    if (fields_len) {
        // A 304 written from its 200's head: the run lies inside that head, and is what the loop writes.
        if (status != 1 || he_prepared_status(answer) != 200 || fields_offset + fields_len > head_len) abort();
        const unsigned char *run = he_prepared_head_run(answer, fields_offset, fields_len);
        if (run && memcmp(run, whole + fields_offset, fields_len) != 0) abort();
        wire += fields_offset;
        head_len = fields_len;
    }
    int br = memmem(wire, head_len, "Content-Encoding: br", 20) != NULL;
    if (br) {
        // Only from an entry holding br, to a request that accepts it.
        const char *accept = NULL;
        size_t accept_len = 0;
        for (size_t i = 0; i < request->field_count; i++) {
            if (request->fields[i].name_len == 15 && strncasecmp(request->fields[i].name, "accept-encoding", 15) == 0) {
                accept = request->fields[i].value;
                accept_len = request->fields[i].value_len;
            }
        }
        int weights[HE_CODINGS];
        he_accept_encoding(accept, accept_len, accept != NULL, weights);
        if (!has_br[found][variant] || weights[HE_CODING_BR] <= 0) abort();
    }
    char etag[40];
    size_t etag_len = etag_of(version, br, etag);
    if (!memmem(wire, head_len, etag, etag_len)) abort();   // another version's (or coding's) answer
    if (status == 1) {
        if (!none_match || (!fields_len && he_prepared_status(answer) != 304)) abort();
        return;
    }
    if (he_prepared_status(answer) != 200) abort();
    (void)none_match_len;
    unsigned char expected[520] = "br:", actual[520];
    size_t expected_len = body_of(found, variant, version, expected + (br ? 3 : 0)) + (br ? 3 : 0), actual_len = 0;
    if (he_prepared_body_length(answer) != expected_len) abort();
    for (size_t i = 0; i < he_prepared_part_count(answer); i++) {
        size_t length;
        he_prepared *owner;
        const unsigned char *bytes = he_prepared_part(answer, i, &length, &owner);
        if (actual_len + length > sizeof actual) abort();
        memcpy(actual + actual_len, bytes, length);
        actual_len += length;
    }
    if (actual_len != expected_len || memcmp(actual, expected, expected_len) != 0) abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size == 0) return 0;
    size_t operations = data[0] % 32;
    if (1 + operations > size) return 0;
    memset(current, 0, sizeof current);
    memset(tag_of, 0, sizeof tag_of);
    memset(has_br, 0, sizeof has_br);
    double bounds[3] = {0.001, 0.01, 0.1};
    // 64 shards of 1,500 bytes: one or two entries each, so puts into one shard evict.
    he_response_cache *cache = he_response_cache_create(64 * 1500, "Accept-Language", bounds, 3);
    if (!cache) abort();
    if (!prefix && !(prefix = he_head_prefix(200, shared_field, sizeof shared_field - 1))) abort();
    for (size_t i = 0; i < operations; i++) {
        uint8_t operation = data[1 + i];
        if (operation & 0x80) purge(cache, (operation & 0x40) ? -1 : (operation & 1));
        else put(cache, operation % target_count, (operation >> 2) & 1, (operation >> 3) & 1, (operation >> 4) & 1, (operation >> 5) & 1,
                 (operation >> 6) & 1);
    }
    size_t length = size - 1 - operations;
    char *bytes = malloc(length ? length : 1);
    memcpy(bytes, data + 1 + operations, length);
    he_head_limits limits = {max_target, 16384, max_fields};
    he_head_scan scan;
    memset(&scan, 0, sizeof scan);
    he_refusal refusal;
    if (he_head_scan_feed(&scan, bytes, length, &limits, &refusal) == 1) {
        he_field fields[max_fields];
        char path[max_target];
        he_head head;
        if (he_head_parse(bytes, scan.position, &limits, fields, path, &head, &refusal) == 0) {
            int label = -1, status = -1;
            size_t fields_offset, fields_len;
            he_prepared *answer = he_response_cache_answer(cache, &head.request, &label, &status, &fields_offset, &fields_len);
            if (answer) {
                const char *none_match = NULL;
                size_t none_match_len = 0;
                for (size_t i = 0; i < head.request.field_count; i++) {
                    if (fields[i].name_len == 13 && strncasecmp(fields[i].name, "if-none-match", 13) == 0) {
                        none_match = fields[i].value;
                        none_match_len = fields[i].value_len;
                    }
                }
                if (label < 0 || label >= HE_CACHE_LABELS || (status != 0 && status != 1)) abort();
                check(answer, status, fields_offset, fields_len, &head, none_match, none_match_len);
                he_response_cache_count(cache, 0, label, head.is_head_method, status, 0.002);
                he_prepared_release(answer);
            }
        }
    }
    unsigned long long counts[HE_CACHE_LABELS][2][2], buckets[4];
    double seconds;
    he_response_cache_stats(cache, counts, buckets, &seconds);
    size_t entries, held;
    he_response_cache_usage(cache, &entries, &held);
    if (held > 64 * 1500) abort();
    he_response_cache_destroy(cache);
    free(bytes);
    return 0;
}
