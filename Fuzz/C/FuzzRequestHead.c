// sources: Sources/HTTPEngine/request_head.c
// cflags: -ISources/HTTPEngine -ISources/HTTPEngine/include
//
// libFuzzer target for the HTTP engine's strict request-head parser and chunked decoder, in C, built by
// scripts/fuzz.sh with clang -fsanitize=fuzzer,address,undefined. The input is raw bytes off a socket: the
// first byte picks how they arrive (1 to 256 bytes per read), the scanner is fed read by read as the engine
// does, a complete head is parsed, and when it announces chunked framing the bytes after the head go through
// the chunked decoder in the same pieces. Every refusal must carry a 4xx/5xx status and a code.
// Framing must not depend on read boundaries: the same bytes are also scanned whole (one read) and split into two
// reads at every byte position, and every way must give the same answer (complete at the same length, or refused
// with the same status and code, or still incomplete) as the whole read.
#include "request_head.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { max_fields = 100, max_target = 4096, max_body = 1 << 16 };

static void check_refusal(const he_refusal *refusal) {
    if (refusal->status < 400 || refusal->status > 599 || refusal->code == NULL || refusal->message == NULL) abort();
}

static void decode_chunked(const char *body, size_t length, size_t step) {
    he_chunked state;
    memset(&state, 0, sizeof state);
    unsigned char *output = NULL;
    size_t output_length = 0, output_capacity = 0, offset = 0;
    he_refusal refusal = {0, NULL, NULL};
    while (offset < length) {
        size_t piece = length - offset < step ? length - offset : step;
        size_t consumed = 0;
        int result = he_chunked_feed(&state, body + offset, piece, &consumed, &output, &output_length, &output_capacity,
                                     max_body, &refusal);
        if (consumed > piece || output_length > max_body || output_length > output_capacity) abort();
        if (result < 0) { check_refusal(&refusal); break; }
        offset += consumed;
        // The decoder is byte-wise stateful: it takes every byte until the body ends or is refused.
        if (result == 1 || consumed == 0) break;
    }
    free(output);
}

/// The scanner's answer for `bytes[0..<length]` fed as reads ending at `cuts` (ascending, each below `length`), then whole.
typedef struct scan_answer {
    int result;
    size_t position;
    int status;
    const char *code;
} scan_answer;

static scan_answer scan_in_reads(const char *bytes, size_t length, const size_t *cuts, size_t cut_count, const he_head_limits *limits) {
    he_head_scan scan;
    memset(&scan, 0, sizeof scan);
    he_refusal refusal = {0, NULL, NULL};
    int result = 0;
    for (size_t k = 0; k <= cut_count; k++) {
        size_t arrived = k < cut_count ? cuts[k] : length;
        result = he_head_scan_feed(&scan, bytes, arrived, limits, &refusal);
        if (result != 0) break;
    }
    scan_answer answer = {result, result == 1 ? scan.position : 0, 0, NULL};
    if (result < 0) {
        check_refusal(&refusal);
        answer.status = refusal.status;
        answer.code = refusal.code;
    }
    return answer;
}

static void require_same(const scan_answer *a, const scan_answer *b) {
    if (a->result != b->result || a->position != b->position || a->status != b->status) abort();
    if (a->code != b->code && (a->code == NULL || b->code == NULL || strcmp(a->code, b->code) != 0)) abort();
}

/// Scans the bytes whole and split in two at every position: every answer must be the whole read's.
static void check_split_independence(const char *bytes, size_t length, const he_head_limits *limits) {
    scan_answer whole = scan_in_reads(bytes, length, NULL, 0, limits);
    // Past the end of a complete head, a split only adds bytes the scanner never reads.
    size_t decided = whole.result == 1 ? whole.position : length;
    for (size_t cut = 1; cut < length && cut <= decided; cut++) {
        scan_answer split = scan_in_reads(bytes, length, &cut, 1, limits);
        require_same(&whole, &split);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size == 0) return 0;
    size_t step = (size_t)data[0] + 1;
    // A private copy exactly as long as the input, so any read past the end is caught.
    size_t length = size - 1;
    char *bytes = malloc(length ? length : 1);
    memcpy(bytes, data + 1, length);
    he_head_limits limits = {max_target, 16384, max_fields};
    he_head_scan scan;
    memset(&scan, 0, sizeof scan);
    he_refusal refusal = {0, NULL, NULL};
    int scanned = 0;
    for (size_t arrived = step < length ? step : length;; arrived = arrived + step < length ? arrived + step : length) {
        scanned = he_head_scan_feed(&scan, bytes, arrived, &limits, &refusal);
        if (scanned != 0 || arrived == length) break;
    }
    if (scanned < 0) check_refusal(&refusal);
    check_split_independence(bytes, length, &limits);
    // The reads of `step` bytes above, too, must give the whole read's answer.
    scan_answer stepped = {scanned, scanned == 1 ? scan.position : 0, scanned < 0 ? refusal.status : 0, scanned < 0 ? refusal.code : NULL};
    scan_answer whole = scan_in_reads(bytes, length, NULL, 0, &limits);
    require_same(&whole, &stepped);
    if (scanned == 1) {
        if (scan.position == 0 || scan.position > length) abort();
        he_field fields[max_fields];
        char path[max_target];
        he_head head;
        memset(&head, 0, sizeof head);
        if (he_head_parse(bytes, scan.position, &limits, fields, path, &head, &refusal) == 0) {
            if (head.head_len != scan.position || head.request.field_count > max_fields || head.request.path_len > max_target)
                abort();
            if (head.chunked && head.content_length >= 0) abort();   // both framings: must have been refused
            if (head.chunked) decode_chunked(bytes + scan.position, length - scan.position, step);
        } else {
            check_refusal(&refusal);
        }
    }
    free(bytes);
    return 0;
}
