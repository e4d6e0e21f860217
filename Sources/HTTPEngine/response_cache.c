// The response cache: request target (+ the request fields an entry varies on) -> prepared 200 and 304, purged by
// tag, bounded by CLOCK (see http_engine.h). It knows HTTP only; what the responses mean is the application's.
#define _GNU_SOURCE
#include "fnv1a.h"
#include "response.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum {
    SHARDS = 64,
    SHARD_BUCKETS = 2048,    // per shard: 131,072 chains in all
    STAT_SLOTS = 16,         // counters per thread slot, so loops do not share cache lines
    MAX_STRING = HE_CACHE_FIELDS_MAX,
    VARY_ABSENT = 0xFFFF,    // a vary_lens value: the field absent
};

/// The status line every 304 starts with (he_write_head's).
static const char not_modified_line[] = "HTTP/1.1 304 Not Modified\r\n";

/// One held coding of an entry: its 200, and its 304 or NULL when the 304's fields are a run of the 200's head (the
/// usual case: the 304 is then written from that run, see derived_304; `nm_offset` and `nm_len` place the run). Not
/// keeping a second head per entry is what let the bound hold 81,000 of the 3,000-app spread's 150,000 responses
/// instead of 54,000 (docs/benchmarks.md, run H). Its tag is a run of the 200's head when the head carries it (an
/// ETag field does: `etag_at`), else stored in the entry's bytes (ETAG_STORED).
typedef struct variant {
    he_prepared *ok;
    he_prepared *not_modified;
    unsigned short nm_offset, nm_len, etag_len, etag_at;
} variant;

/// 72 bytes before its strings (x86-64): with the two responses' blocks, what an entry costs is documented in
/// docs/http.md ("The engine's response cache") and checked by hand in ResponseCacheCostTests. Every byte counts:
/// the bound holds ~9,000 more of the spread's targets for each 64 bytes an entry loses (docs/benchmarks.md, runs M, O).
typedef struct cache_entry {
    struct cache_entry *next;    // the bucket's chain
    unsigned long long hash;     // of the target
    variant identity;
    variant *coded;              // gzip and br (HE_CODINGS - 1 of them), allocated only when one is held; else NULL
    uint32_t cost;
    uint32_t ring_slot;
    // The tag is a run of the target when it occurs in it (an SDK fetch's app key does: not stored twice, 41 bytes an
    // entry), else stored after it: `tag_offset` places it from the target's start.
    unsigned short target_len, tag_offset, tag_len, etags_len;   // etags_len: the stored tags together
    unsigned char referenced;    // CLOCK: answered since the hand last passed
    unsigned char label;
    unsigned char vary_mask;
    unsigned char held, offered; // codings held (bit i: coding i's ok is set) and made by the application
    unsigned char bytes[];       // one 16-bit length per bit of vary_mask (VARY_ABSENT: the field absent), the target,
                                 // the tag unless it is a run of the target, the stored tags in coding order, then the
                                 // vary values in mask order
} cache_entry;

enum { ETAG_STORED = 0xFFFF };

/// Coding `c`'s variant (NULL when the entry has no room for it: not held).
static variant *variant_of(const cache_entry *entry, int c) {
    if (c == HE_CODING_IDENTITY) return (variant *)&entry->identity;
    return entry->coded ? &entry->coded[c - 1] : NULL;
}

/// The number of vary lengths an entry stores.
static size_t vary_fields(const cache_entry *entry) { return (size_t)__builtin_popcount(entry->vary_mask); }

/// Where the target starts in `bytes`: after the vary lengths.
static size_t target_start(const cache_entry *entry) { return 2 * vary_fields(entry); }

/// The length of the value of vary field `index` (its bit set in vary_mask), or VARY_ABSENT.
static unsigned short vary_len(const cache_entry *entry, size_t index) {
    size_t slot = (size_t)__builtin_popcount(entry->vary_mask & ((1u << index) - 1));
    unsigned short length;
    memcpy(&length, entry->bytes + 2 * slot, sizeof length);
    return length;
}

/// Where the entry's stored tags start in `bytes`: after the target and the tag when the tag is stored on its own.
static size_t etags_start(const cache_entry *entry) {
    return target_start(entry) + entry->target_len + (entry->tag_offset < entry->target_len ? 0 : entry->tag_len);
}

typedef struct shard {
    pthread_mutex_t lock;
    cache_entry *buckets[SHARD_BUCKETS];
    cache_entry **ring;          // CLOCK ring; NULL slots are free
    size_t ring_len, ring_cap, hand;
    size_t *free_slots;
    size_t free_count, free_cap;
    size_t entries, bytes;
} shard;

typedef struct stat_slot {
    _Alignas(64) atomic_ullong counts[HE_CACHE_LABELS][2][2];
    atomic_ullong buckets[HE_CACHE_BUCKETS_MAX + 1];
    atomic_ullong micros;
} stat_slot;

struct he_response_cache {
    atomic_ullong generation;
    size_t shard_capacity;
    size_t vary_count;
    char vary_names[HE_CACHE_VARY_MAX][64];
    size_t vary_name_lens[HE_CACHE_VARY_MAX];
    double bounds[HE_CACHE_BUCKETS_MAX];
    size_t bound_count;
    stat_slot stats[STAT_SLOTS];
    shard shards[SHARDS];
};

/// The shard of a target's hash: its low bits.
static size_t shard_of(unsigned long long hash) { return (size_t)(hash % SHARDS); }

/// The chain of a target's hash within its shard: the bits above the shard's. (Taking the low bits again, as the
/// shard does, left every shard's entries on 1 chain in 64: with 55,000 entries, chains of ~54 made lookups and
/// unlinks 33% of the daemon's time in the 3,000-app spread: docs/benchmarks.md, run H.)
static size_t bucket_of(unsigned long long hash) { return (size_t)((hash / SHARDS) % SHARD_BUCKETS); }

/// Where `needle` first occurs in `haystack`, or NULL: memchr for its first byte, then memcmp. The heads and targets a
/// put searches are a few hundred bytes and the needles a few dozen; glibc's memmem (two-way, set up on every call) took
/// 2.24 M of the 47.5 M instructions of 21 app versions' first fills, ~2,100 a language (callgrind, docs/benchmarks.md,
/// run U).
static const void *find_bytes(const void *haystack, size_t length, const void *needle, size_t needle_len) {
    if (needle_len == 0 || needle_len > length) return NULL;
    const unsigned char *at = haystack, *end = at + (length - needle_len) + 1;
    const unsigned char first = *(const unsigned char *)needle;
    while (at < end && (at = memchr(at, first, (size_t)(end - at))) != NULL) {
        if (memcmp(at, needle, needle_len) == 0) return at;
        at++;
    }
    return NULL;
}

static int lower(int c) { return (c >= 'A' && c <= 'Z') ? c + 32 : c; }

static int name_is(const char *name, size_t name_len, const char *wanted, size_t wanted_len) {
    if (name_len != wanted_len) return 0;
    for (size_t i = 0; i < name_len; i++) {
        if (lower((unsigned char)name[i]) != lower((unsigned char)wanted[i])) return 0;
    }
    return 1;
}

he_response_cache *he_response_cache_create(size_t capacity_bytes, const char *vary_names, const double *bounds, size_t bound_count) {
    if (bound_count > HE_CACHE_BUCKETS_MAX) return NULL;
    // Aligned: each thread slot's counters on cache lines of their own.
    he_response_cache *cache = aligned_alloc(64, (sizeof *cache + 63) / 64 * 64);
    if (!cache) return NULL;
    memset(cache, 0, sizeof *cache);
    atomic_init(&cache->generation, 0);
    cache->shard_capacity = capacity_bytes / SHARDS;
    const char *at = vary_names ? vary_names : "";
    while (*at) {
        const char *end = strchr(at, ' ');
        size_t length = end ? (size_t)(end - at) : strlen(at);
        if (cache->vary_count == HE_CACHE_VARY_MAX || length == 0 || length >= sizeof cache->vary_names[0]) {
            free(cache);
            return NULL;
        }
        memcpy(cache->vary_names[cache->vary_count], at, length);
        cache->vary_name_lens[cache->vary_count++] = length;
        at += length + (end ? 1 : 0);
    }
    if (bound_count) memcpy(cache->bounds, bounds, bound_count * sizeof *bounds);
    cache->bound_count = bound_count;
    for (int i = 0; i < SHARDS; i++) pthread_mutex_init(&cache->shards[i].lock, NULL);
    return cache;
}

static void free_entry(cache_entry *entry) {
    for (int c = 0; c < HE_CODINGS; c++) {
        variant *v = variant_of(entry, c);
        if (!v) continue;
        he_prepared_release(v->ok);
        he_prepared_release(v->not_modified);
    }
    free(entry->coded);
    free(entry);
}

/// Coding `coding`'s tag in the entry (held codings only): in its 200's head, or stored.
static const unsigned char *entry_etag(const cache_entry *entry, int coding) {
    const variant *v = variant_of(entry, coding);
    if (v->etag_at != ETAG_STORED) return he_prepared_head_run(v->ok, v->etag_at, v->etag_len);
    const unsigned char *at = entry->bytes + etags_start(entry);
    for (int c = 0; c < coding; c++) {
        const variant *before = (entry->held >> c) & 1 ? variant_of(entry, c) : NULL;
        if (before && before->etag_at == ETAG_STORED) at += before->etag_len;
    }
    return at;
}

void he_response_cache_destroy(he_response_cache *cache) {
    if (!cache) return;
    for (int i = 0; i < SHARDS; i++) {
        shard *s = &cache->shards[i];
        for (size_t k = 0; k < s->ring_len; k++) {
            if (s->ring[k]) free_entry(s->ring[k]);
        }
        free(s->ring);
        free(s->free_slots);
        pthread_mutex_destroy(&s->lock);
    }
    free(cache);
}

unsigned long long he_response_cache_generation(he_response_cache *cache) {
    return atomic_load_explicit(&cache->generation, memory_order_acquire);
}

static const unsigned char *entry_vary_value(const cache_entry *entry, size_t index) {
    const unsigned char *at = entry->bytes + etags_start(entry) + entry->etags_len;
    for (size_t i = 0; i < index; i++) {
        if (!((entry->vary_mask >> i) & 1)) continue;
        unsigned short length = vary_len(entry, i);
        at += length == VARY_ABSENT ? 0 : length;
    }
    return at;
}

/// Whether two entries answer the same requests (same target, same vary fields and values).
static int same_key(const cache_entry *a, const cache_entry *b) {
    if (a->hash != b->hash || a->target_len != b->target_len || a->vary_mask != b->vary_mask) return 0;
    if (memcmp(a->bytes + target_start(a), b->bytes + target_start(b), a->target_len) != 0) return 0;
    for (size_t i = 0; i < HE_CACHE_VARY_MAX; i++) {
        if (!((a->vary_mask >> i) & 1)) continue;
        unsigned short length = vary_len(a, i);
        if (length != vary_len(b, i)) return 0;
        if (length != VARY_ABSENT && memcmp(entry_vary_value(a, i), entry_vary_value(b, i), length) != 0) return 0;
    }
    return 1;
}

/// Unlinks `entry` from its shard (lock held); the caller frees it after unlocking.
static void unlink_entry(shard *s, cache_entry *entry) {
    cache_entry **link = &s->buckets[bucket_of(entry->hash)];
    while (*link && *link != entry) link = &(*link)->next;
    if (*link) *link = entry->next;
    s->ring[entry->ring_slot] = NULL;
    if (s->free_count < s->free_cap) s->free_slots[s->free_count++] = entry->ring_slot;
    s->entries--;
    s->bytes -= entry->cost;
}

/// The 200's whole head (its prefix's and its own, he_prepared_head_length) as one run: in `room` when it fits, else
/// allocated (free it when it is not `room`). NULL when out of memory.
static unsigned char *whole_head(he_prepared *ok, unsigned char *room, size_t room_len, size_t *length) {
    *length = he_prepared_head_length(ok);
    unsigned char *head = *length <= room_len ? room : malloc(*length ? *length : 1);
    if (head) he_prepared_head_copy(ok, 0, *length, head);
    return head;
}

/// Whether a 304 with header fields `fields` can be written from its 200, whose whole head is `ok_head`: they appear
/// as one run of it (a 304 carries the 200's fields but for Content-Type, Content-Encoding and Content-Length, which
/// a head lists around them). Then `*offset` and `*length` place the run.
static int derived_304(const unsigned char *ok_head, size_t ok_len, const unsigned char *fields, size_t fields_len, unsigned short *offset,
                       unsigned short *length) {
    if (fields_len == 0 || fields_len > MAX_STRING) return 0;
    const unsigned char *found = find_bytes(ok_head, ok_len, fields, fields_len);
    // A run that starts a field: right after a CRLF.
    while (found && (found - ok_head < 2 || found[-1] != '\n' || found[-2] != '\r')) {
        size_t from = (size_t)(found - ok_head) + 1;
        found = find_bytes(ok_head + from, ok_len - from, fields, fields_len);
    }
    if (!found || (size_t)(found - ok_head) > 0xFFFF) return 0;
    *offset = (unsigned short)(found - ok_head);
    *length = (unsigned short)fields_len;
    return 1;
}

/// The header fields of a prepared 304 (after its status line), or NULL when it is not a plain 304.
static const unsigned char *not_modified_fields(he_prepared *not_modified, size_t *fields_len) {
    size_t nm_len;
    const unsigned char *nm_head = he_prepared_head(not_modified, &nm_len);
    size_t line = sizeof not_modified_line - 1;
    if (he_prepared_status(not_modified) != 304 || he_prepared_part_count(not_modified) != 0 || nm_len < line ||
        memcmp(nm_head, not_modified_line, line) != 0) return NULL;
    *fields_len = nm_len - line;
    return nm_head + line;
}

int he_response_cache_put(he_response_cache *cache, unsigned long long generation, const he_cache_entry *spec) {
    if (!spec->ok || spec->label < 0 || spec->label >= HE_CACHE_LABELS) return 0;
    if (spec->target_len > MAX_STRING || spec->tag_len > MAX_STRING || spec->etag_len > MAX_STRING) return 0;
    // The identity representation is the spec's own fields; the others come from `coded`.
    he_cache_variant variants[HE_CODINGS];
    variants[HE_CODING_IDENTITY] = (he_cache_variant){spec->ok, spec->not_modified, spec->etag, spec->etag_len, spec->not_modified_fields,
                                                      spec->not_modified_fields_len};
    // A tag the 200's head carries (its ETag field) is read from there; others are stored.
    unsigned short etag_at[HE_CODINGS];
    size_t etags_len = 0;
    int any_coded = 0;
    for (int c = 0; c < HE_CODINGS; c++) {
        if (c != HE_CODING_IDENTITY) variants[c] = spec->coded[c];
        if (!variants[c].ok) continue;
        if ((!variants[c].not_modified && variants[c].not_modified_fields_len > 0 && !variants[c].not_modified_fields) ||
            variants[c].etag_len > MAX_STRING || variants[c].not_modified_fields_len > MAX_STRING) return 0;
        if (c != HE_CODING_IDENTITY) any_coded = 1;
        unsigned char room[1024];
        size_t head_len;
        unsigned char *head = whole_head(variants[c].ok, room, sizeof room, &head_len);
        if (!head) return 0;
        const unsigned char *found = variants[c].etag_len ? find_bytes(head, head_len, variants[c].etag, variants[c].etag_len) : NULL;
        etag_at[c] = found && found - head < ETAG_STORED ? (unsigned short)(found - head) : ETAG_STORED;
        // Read from the head only when it lies within one of its pieces.
        if (etag_at[c] != ETAG_STORED && !he_prepared_head_run(variants[c].ok, etag_at[c], variants[c].etag_len)) etag_at[c] = ETAG_STORED;
        if (head != room) free(head);
        if (etag_at[c] == ETAG_STORED) etags_len += variants[c].etag_len;
    }
    if (spec->vary_mask >> cache->vary_count) return 0;
    size_t vary_bytes = 0;
    for (size_t i = 0; i < cache->vary_count; i++) {
        if (!((spec->vary_mask >> i) & 1)) continue;
        vary_bytes += 2;
        if (!spec->vary_values[i]) continue;
        if (spec->vary_lens[i] > MAX_STRING) return 0;
        vary_bytes += spec->vary_lens[i];
    }
    // Built entirely before taking the shard's lock. The tag, when it is a run of the target, is not stored again.
    const char *tag_in_target = spec->tag_len ? find_bytes(spec->target, spec->target_len, spec->tag, spec->tag_len) : NULL;
    size_t own = spec->target_len + (tag_in_target ? 0 : spec->tag_len) + etags_len + vary_bytes;
    cache_entry *entry = malloc(sizeof *entry + own);
    if (!entry) return 0;
    entry->coded = any_coded ? calloc(HE_CODINGS - 1, sizeof *entry->coded) : NULL;
    if (any_coded && !entry->coded) {
        free(entry);
        return 0;
    }
    entry->next = NULL;
    entry->hash = he_fnv1a64(HE_FNV1A64_BASIS, spec->target, spec->target_len);
    entry->referenced = 0;
    entry->label = spec->label;
    entry->vary_mask = spec->vary_mask;
    entry->target_len = spec->target_len;
    entry->tag_len = spec->tag_len;
    entry->tag_offset = tag_in_target ? (unsigned short)(tag_in_target - spec->target) : spec->target_len;
    entry->etags_len = etags_len;
    entry->offered = (spec->offered | 1u << HE_CODING_IDENTITY) & ((1u << HE_CODINGS) - 1);
    entry->held = 0;
    memset(&entry->identity, 0, sizeof entry->identity);
    unsigned char *at = entry->bytes;
    unsigned char *values = entry->bytes + own - (vary_bytes - 2 * vary_fields(entry));   // the vary values, last
    for (size_t i = 0; i < cache->vary_count; i++) {
        if (!((spec->vary_mask >> i) & 1)) continue;
        unsigned short length = spec->vary_values[i] ? (unsigned short)spec->vary_lens[i] : VARY_ABSENT;
        memcpy(at, &length, sizeof length);
        at += sizeof length;
        if (!spec->vary_values[i]) continue;
        if (spec->vary_lens[i]) memcpy(values, spec->vary_values[i], spec->vary_lens[i]);
        values += spec->vary_lens[i];
    }
    memcpy(at, spec->target, spec->target_len);
    at += spec->target_len;
    if (!tag_in_target) {
        if (spec->tag_len) memcpy(at, spec->tag, spec->tag_len);
        at += spec->tag_len;
    }
    size_t prepared_bytes = any_coded ? (HE_CODINGS - 1) * sizeof *entry->coded : 0;
    for (int c = 0; c < HE_CODINGS; c++) {
        if (!variants[c].ok) continue;
        variant *v = variant_of(entry, c);
        entry->held |= 1u << c;
        v->etag_len = (unsigned short)variants[c].etag_len;
        v->etag_at = etag_at[c];
        if (etag_at[c] == ETAG_STORED) {
            if (variants[c].etag_len) memcpy(at, variants[c].etag, variants[c].etag_len);
            at += variants[c].etag_len;
        }
        he_prepared_retain(variants[c].ok);
        v->ok = variants[c].ok;
        prepared_bytes += he_prepared_size(variants[c].ok);
        // The 304: written from a run of the 200's head when its fields are one; else kept (built from its fields).
        const unsigned char *fields = (const unsigned char *)variants[c].not_modified_fields;
        size_t fields_len = variants[c].not_modified_fields_len;
        if (variants[c].not_modified) fields = not_modified_fields(variants[c].not_modified, &fields_len);
        unsigned char room[1024];
        size_t head_len;
        unsigned char *head = fields ? whole_head(variants[c].ok, room, sizeof room, &head_len) : NULL;
        int derived = head && derived_304(head, head_len, fields, fields_len, &v->nm_offset, &v->nm_len);
        if (head != room) free(head);
        if (derived) continue;
        if (variants[c].not_modified) {
            he_prepared_retain(variants[c].not_modified);
            v->not_modified = variants[c].not_modified;
        } else {
            v->not_modified = he_prepared_create(304, (const char *)fields, fields_len, NULL, 0);
            if (!v->not_modified) {
                free_entry(entry);
                return 0;
            }
            if (he_prepared_shareable(variants[c].ok)) he_prepared_set_shareable(v->not_modified);
        }
        prepared_bytes += he_prepared_size(v->not_modified);
    }
    size_t cost = sizeof *entry + own + prepared_bytes;
    entry->cost = (uint32_t)cost;
    shard *s = &cache->shards[shard_of(entry->hash)];
    if (cost > cache->shard_capacity || cost > UINT32_MAX) {
        free_entry(entry);
        return 0;
    }
    cache_entry *evicted = NULL;   // unlinked under the lock, freed after it
    cache_entry **new_ring = NULL;   // a larger ring and free list, allocated with the lock released
    size_t *new_free = NULL;
    size_t new_cap = 0;
    int kept = 0;
    for (;;) {
        pthread_mutex_lock(&s->lock);
        if (atomic_load_explicit(&cache->generation, memory_order_acquire) != generation) break;
        if (s->free_count == 0 && s->ring_len == s->ring_cap) {
            if (new_cap <= s->ring_cap) {
                // Grow outside the lock, then try again.
                new_cap = s->ring_cap ? s->ring_cap * 2 : 256;
                pthread_mutex_unlock(&s->lock);
                free(new_ring);
                free(new_free);
                new_ring = malloc(new_cap * sizeof *new_ring);
                new_free = malloc(new_cap * sizeof *new_free);
                if (!new_ring || !new_free) {
                    free(new_ring);
                    free(new_free);
                    free_entry(entry);
                    return 0;
                }
                continue;
            }
            if (s->ring_len) memcpy(new_ring, s->ring, s->ring_len * sizeof *new_ring);
            cache_entry **old_ring = s->ring;
            size_t *old_free = s->free_slots;
            s->ring = new_ring;
            s->free_slots = new_free;   // empty: free_count is 0
            s->ring_cap = new_cap;
            s->free_cap = new_cap;
            new_ring = old_ring;        // freed after the lock
            new_free = old_free;
        }
        // Replace the entry with the same key, then evict by CLOCK while over the shard's capacity.
        for (cache_entry *other = s->buckets[bucket_of(entry->hash)]; other; other = other->next) {
            if (same_key(other, entry)) {
                unlink_entry(s, other);
                other->next = evicted;
                evicted = other;
                break;
            }
        }
        while (s->entries > 0 && s->bytes + entry->cost > cache->shard_capacity) {
            if (s->hand >= s->ring_len) s->hand = 0;
            cache_entry *candidate = s->ring[s->hand++];
            if (!candidate) continue;
            if (candidate->referenced) {
                candidate->referenced = 0;
                continue;
            }
            unlink_entry(s, candidate);
            candidate->next = evicted;
            evicted = candidate;
        }
        size_t slot = s->free_count ? s->free_slots[--s->free_count] : s->ring_len++;
        s->ring[slot] = entry;
        entry->ring_slot = (uint32_t)slot;
        cache_entry **bucket = &s->buckets[bucket_of(entry->hash)];
        entry->next = *bucket;
        *bucket = entry;
        s->entries++;
        s->bytes += entry->cost;
        kept = 1;
        break;
    }
    pthread_mutex_unlock(&s->lock);
    free(new_ring);
    free(new_free);
    if (!kept) free_entry(entry);
    while (evicted) {
        cache_entry *next = evicted->next;
        free_entry(evicted);
        evicted = next;
    }
    return kept;
}

void he_response_cache_refuse_puts(he_response_cache *cache) {
    atomic_fetch_add_explicit(&cache->generation, 1, memory_order_acq_rel);
}

void he_response_cache_purge(he_response_cache *cache, const char *tag, size_t tag_len) {
    atomic_fetch_add_explicit(&cache->generation, 1, memory_order_acq_rel);
    for (int i = 0; i < SHARDS; i++) {
        shard *s = &cache->shards[i];
        cache_entry *dropped = NULL;
        pthread_mutex_lock(&s->lock);
        for (size_t k = 0; k < s->ring_len; k++) {
            cache_entry *entry = s->ring[k];
            if (!entry) continue;
            if (tag && (entry->tag_len != tag_len || memcmp(entry->bytes + target_start(entry) + entry->tag_offset, tag, tag_len) != 0)) continue;
            unlink_entry(s, entry);
            entry->next = dropped;
            dropped = entry;
        }
        pthread_mutex_unlock(&s->lock);
        while (dropped) {
            cache_entry *next = dropped->next;
            free_entry(dropped);
            dropped = next;
        }
    }
}

void he_response_cache_usage(he_response_cache *cache, size_t *entries, size_t *bytes) {
    *entries = 0;
    *bytes = 0;
    for (int i = 0; i < SHARDS; i++) {
        shard *s = &cache->shards[i];
        pthread_mutex_lock(&s->lock);
        *entries += s->entries;
        *bytes += s->bytes;
        pthread_mutex_unlock(&s->lock);
    }
}

he_prepared *he_response_cache_answer(he_response_cache *cache, const he_request *request, int *label, int *status,
                                      size_t *fields_offset, size_t *fields_len) {
    *fields_offset = *fields_len = 0;
    // One pass over the fields: the conditional fields, Accept-Encoding, and the values of the fields entries vary on.
    const char *none_match = NULL, *accept_encoding = NULL;
    size_t none_match_len = 0, accept_encoding_len = 0;
    const char *values[HE_CACHE_VARY_MAX] = {0};
    size_t lens[HE_CACHE_VARY_MAX];
    for (size_t i = 0; i < request->field_count; i++) {
        const he_field *field = &request->fields[i];
        const char *name = field->name;
        size_t n = field->name_len;
        if (n >= 5 && lower((unsigned char)name[0]) == 'i' && lower((unsigned char)name[1]) == 'f') {
            if (!name_is(name, n, "if-none-match", 13) || none_match) return NULL;   // other preconditions: the handler's
            none_match = field->value;
            none_match_len = field->value_len;
            continue;
        }
        if (name_is(name, n, "range", 5) || name_is(name, n, "authorization", 13)) return NULL;
        if (name_is(name, n, "accept-encoding", 15)) {
            if (accept_encoding) return NULL;   // repeated: the handler combines them
            accept_encoding = field->value;
            accept_encoding_len = field->value_len;
            continue;
        }
        for (size_t k = 0; k < cache->vary_count; k++) {
            if (!name_is(name, n, cache->vary_names[k], cache->vary_name_lens[k])) continue;
            if (values[k]) return NULL;   // repeated: the handler decides how to combine them
            values[k] = field->value;
            lens[k] = field->value_len;
        }
    }
    // The target: the decoded path, then '?' and the raw query when there is one.
    unsigned long long hash = he_fnv1a64(HE_FNV1A64_BASIS, request->path, request->path_len);
    if (request->query_len) {
        hash = he_fnv1a64(hash, "?", 1);
        hash = he_fnv1a64(hash, request->query, request->query_len);
    }
    size_t target_len = request->path_len + (request->query_len ? 1 + request->query_len : 0);
    shard *s = &cache->shards[shard_of(hash)];
    he_prepared *answer = NULL;
    int answered_304 = 0;
    pthread_mutex_lock(&s->lock);
    for (cache_entry *entry = s->buckets[bucket_of(hash)]; entry; entry = entry->next) {
        if (entry->hash != hash || entry->target_len != target_len) continue;
        const unsigned char *target = entry->bytes + target_start(entry);
        if (memcmp(target, request->path, request->path_len) != 0) continue;
        if (request->query_len && (target[request->path_len] != '?' ||
                                   memcmp(target + request->path_len + 1, request->query, request->query_len) != 0)) continue;
        int matches = 1;
        for (size_t k = 0; matches && k < cache->vary_count; k++) {
            if (!((entry->vary_mask >> k) & 1)) continue;
            size_t wanted = vary_len(entry, k);
            if (wanted == VARY_ABSENT) matches = values[k] == NULL;
            else matches = values[k] && lens[k] == wanted && memcmp(values[k], entry_vary_value(entry, k), wanted) == 0;
        }
        if (!matches) continue;
        // Written only when it changes: a popular entry is read by every loop, and a store on each answer would move its
        // line between their cores every time.
        if (!entry->referenced) entry->referenced = 1;
        // The representation: the request's choice among the codings offered; when the entry does not hold it (or
        // nothing offered is acceptable), the handler's. If-None-Match may name any held representation the request
        // accepts: the chosen one is tried first.
        int weights[HE_CODINGS];
        he_accept_encoding(accept_encoding, accept_encoding_len, accept_encoding != NULL, weights);
        int coding = he_choose_coding(weights, entry->offered);
        if (coding < 0 || !((entry->held >> coding) & 1)) break;
        int not_modified = 0;
        for (int k = -1; none_match && !not_modified && k < HE_CODINGS; k++) {
            int c = k < 0 ? coding : k;
            if (!((entry->held >> c) & 1) || weights[c] <= 0) continue;
            if (he_if_none_match(none_match, none_match_len, (const char *)entry_etag(entry, c), variant_of(entry, c)->etag_len)) {
                coding = c;
                not_modified = 1;
            }
        }
        const variant *chosen = variant_of(entry, coding);
        answer = not_modified && chosen->not_modified ? chosen->not_modified : chosen->ok;
        if (not_modified && !chosen->not_modified) {
            *fields_offset = chosen->nm_offset;
            *fields_len = chosen->nm_len;
        }
        he_prepared_retain(answer);
        *label = entry->label;
        *status = not_modified ? 1 : 0;
        answered_304 = not_modified;
        break;
    }
    pthread_mutex_unlock(&s->lock);
    // Among many entries (the 3,000-app spread's 150,000) the answer's bytes are rarely in the CPU's caches: asked for
    // now, they load side by side while the loop writes the head, not line by line in the kernel's copy. What a spread
    // answer costs beyond a pinned one, in lookd's CPU time a request: 2.2 → 1.4 µs (of ~11 µs; six pairs each, heap on
    // huge pages, docs/benchmarks.md, run Z). After the shard's lock: reading the prefix's and shared runs' places
    // waits for memory, and the answer is retained.
    if (answer && !answered_304) he_prepared_prefetch(answer);
    return answer;
}

void he_response_cache_count(he_response_cache *cache, int slot, int label, int is_head, int status, double seconds) {
    stat_slot *stats = &cache->stats[(unsigned)slot % STAT_SLOTS];
    atomic_fetch_add_explicit(&stats->counts[label][is_head ? 1 : 0][status], 1, memory_order_relaxed);
    size_t bucket = 0;
    while (bucket < cache->bound_count && seconds > cache->bounds[bucket]) bucket++;
    atomic_fetch_add_explicit(&stats->buckets[bucket], 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&stats->micros, (unsigned long long)(seconds * 1e6 + 0.5), memory_order_relaxed);
}

void he_response_cache_stats(he_response_cache *cache, unsigned long long counts[HE_CACHE_LABELS][2][2], unsigned long long *buckets, double *seconds) {
    memset(counts, 0, sizeof(unsigned long long) * HE_CACHE_LABELS * 4);
    memset(buckets, 0, sizeof(unsigned long long) * (cache->bound_count + 1));
    unsigned long long micros = 0;
    for (int i = 0; i < STAT_SLOTS; i++) {
        stat_slot *stats = &cache->stats[i];
        for (int l = 0; l < HE_CACHE_LABELS; l++) {
            for (int m = 0; m < 2; m++) {
                for (int k = 0; k < 2; k++) counts[l][m][k] += atomic_load_explicit(&stats->counts[l][m][k], memory_order_relaxed);
            }
        }
        for (size_t b = 0; b <= cache->bound_count; b++) buckets[b] += atomic_load_explicit(&stats->buckets[b], memory_order_relaxed);
        micros += atomic_load_explicit(&stats->micros, memory_order_relaxed);
    }
    *seconds = (double)micros / 1e6;
}
