// FNV-1a, 64 bits (offset basis 0xcbf29ce484222325, prime 0x100000001b3; the same function as Swift's FNV1a64):
// the engine's one hash, for the response cache's targets and tags and the address table's buckets.
#ifndef LOOKD_FNV1A_H
#define LOOKD_FNV1A_H

#include <stddef.h>
#include <stdint.h>

#define HE_FNV1A64_BASIS 0xcbf29ce484222325ULL

// The hash of `length` bytes continued from `hash` (HE_FNV1A64_BASIS for a fresh one), so a value may be hashed in pieces.
static inline uint64_t he_fnv1a64(uint64_t hash, const void *bytes, size_t length) {
    const unsigned char *p = bytes;
    for (size_t i = 0; i < length; i++) hash = (hash ^ p[i]) * 0x100000001b3ULL;
    return hash;
}

#endif
