#!/bin/bash
# The response cache's memory cost in the 3,000-app spread's shape (Benchmarks/CacheMemory/cache_memory.c), with the
# engine's C sources of this tree, or of ENGINE_DIR (another checkout's Sources/HTTPEngine, to compare two versions):
# first with glibc's default heap, then with the heap on transparent huge pages (docs/deployment.md, "Memory").
set -euo pipefail
cd "$(dirname "$0")/.."
engine=${ENGINE_DIR:-Sources/HTTPEngine}
binary=$(mktemp /tmp/cache-memory.XXXXXX)
trap 'rm -f "$binary"' EXIT
cc -O2 -I"$engine/include" -I"$engine" Benchmarks/CacheMemory/cache_memory.c "$engine/prepared.c" "$engine/response_cache.c" \
    "$engine/accept_encoding.c" "$engine/if_none_match.c" -lpthread -o "$binary"
echo "glibc's default heap:      $("$binary")"
echo "heap on huge pages:        $(GLIBC_TUNABLES=glibc.malloc.hugetlb=1:glibc.malloc.top_pad=67108864 "$binary")"
