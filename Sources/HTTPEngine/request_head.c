// The strict request-head parser and chunked decoder (RFC 9112). See request_head.h.
#include "request_head.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static int refuse(he_refusal *refusal, int status, const char *code, const char *message) {
    refusal->status = status;
    refusal->code = code;
    refusal->message = message;
    return -1;
}

#define BIT(c) (1ULL << ((c) % 64))

/// tchar (RFC 9110 §5.6.2) as a set of the 128 ASCII bytes: 0–63 in the first word, 64–127 in the second.
static const uint64_t tchar_set[2] = {
    BIT('!') | BIT('#') | BIT('$') | BIT('%') | BIT('&') | BIT('\'') | BIT('*') | BIT('+') | BIT('-') | BIT('.') |
        (0x3FFULL << ('0' % 64)),                                        // 0-9
    (0x3FFFFFFULL << ('A' % 64)) | BIT('^') | BIT('_') | BIT('`') |      // A-Z
        (0x3FFFFFFULL << ('a' % 64)) | BIT('|') | BIT('~'),              // a-z
};

#undef BIT

/// tchar (RFC 9110 §5.6.2). A bit test, not a strchr over the symbols: the field names' bytes cost 22 instructions
/// each through a call and strchr, 720 of a cached 304's 6,460 (docs/benchmarks.md, run V).
static inline int is_tchar(unsigned char c) {
    return c < 128 && ((tchar_set[c >> 6] >> (c & 63)) & 1);
}

/// Whether any of the 8 bytes of `word` is outside 0x21...0x7E (a control, a space, DEL or a byte over 0x7F). Exact
/// as "any": a borrow or carry between bytes starts only at a byte that is itself outside (Bit Twiddling Hacks'
/// hasless and hasmore). The target's byte loop was 577 of a cached 304's 6,460 instructions (docs/benchmarks.md, run V).
static int any_outside_visible(uint64_t word) {
    const uint64_t ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL;
    uint64_t below = (word - ones * 0x21) & ~word & highs;
    uint64_t above = ((word + ones * (0x7F - 0x7E)) | word) & highs;
    return (below | above) != 0;
}

/// Whether any of the 8 bytes of `word` is below 0x20 (a control, CR and tab included) or is DEL (0x7F); exact as "any"
/// for the same reason. The field values' byte loop was ~400 of a cached 304's 6,460 instructions (run V).
static int any_control(uint64_t word) {
    const uint64_t ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL;
    uint64_t below = (word - ones * 0x20) & ~word & highs;
    uint64_t del = word ^ (ones * 0x7F);
    del = (del - ones) & ~del & highs;
    return (below | del) != 0;
}

static int lower(int c) { return (c >= 'A' && c <= 'Z') ? c + 32 : c; }

static int equals_ignoring_case(const char *a, size_t a_len, const char *b) {
    size_t b_len = strlen(b);
    if (a_len != b_len) return 0;
    for (size_t i = 0; i < a_len; i++) {
        if (lower((unsigned char)a[i]) != lower((unsigned char)b[i])) return 0;
    }
    return 1;
}

static int hex_value(int c) {
    if (c >= '0' && c <= '9') return c - '0';
    c = lower(c);
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
}

long he_percent_decode(const char *input, size_t input_len, char *output, int plus_is_space) {
    size_t out = 0;
    for (size_t i = 0; i < input_len; i++) {
        char c = input[i];
        if (c == '%') {
            if (i + 2 >= input_len) return -1;
            int high = hex_value((unsigned char)input[i + 1]), low = hex_value((unsigned char)input[i + 2]);
            if (high < 0 || low < 0) return -1;
            output[out++] = (char)(high * 16 + low);
            i += 2;
        } else {
            output[out++] = (plus_is_space && c == '+') ? ' ' : c;
        }
    }
    return (long)out;
}

/// True when the %XX escapes of `text` are well formed and none decodes to a control character.
static int escapes_are_clean(const char *text, size_t length) {
    if (!memchr(text, '%', length)) return 1;
    for (size_t i = 0; i < length; i++) {
        if (text[i] != '%') continue;
        if (i + 2 >= length) return 0;
        int high = hex_value((unsigned char)text[i + 1]), low = hex_value((unsigned char)text[i + 2]);
        if (high < 0 || low < 0) return 0;
        int byte = high * 16 + low;
        if (byte < 0x20 || byte == 0x7F) return 0;
        i += 2;
    }
    return 1;
}

int he_head_scan_feed(he_head_scan *scan, const char *buffer, size_t length, const he_head_limits *limits, he_refusal *refusal) {
    // Every decision is made at one byte from the bytes before it, so the answer is the same however the head is split
    // into reads: a CR is judged by the byte after it (a CR that ends the bytes so far is scanned again with the next
    // read), and a line over its limit is refused at its first byte over the limit, not where it happens to end.
    // The request line may hold the method (bounded by the same budget), the target and " HTTP/1.1".
    const size_t max_request_line = limits->max_target_bytes + 64;
    for (size_t i = scan->position; i < length; i++) {
        char c = buffer[i];
        if (c == '\r') {
            if (i + 1 == length) {
                scan->position = i;   // judged with the byte after it, in the next call
                return 0;
            }
            if (buffer[i + 1] != '\n') return refuse(refusal, 400, "line_ending_invalid", "a CR not followed by LF");
            continue;
        }
        if (c != '\n') {
            // Content bytes of a line: over the request line's or the fields' budget, refused at once. The line's
            // first byte over its budget is at `over` (an offset from the line's start: the request line's budget, or
            // what is left of the fields' budget with this line's CRLF and a byte of slack, as max_field_bytes
            // counts them); the bytes up to the next CR or LF are skipped by two memchr calls (the first CR, then
            // the first LF before it). This scan is the engine's largest per-request cost in user space: 1,784 of a
            // cached fetch's 7,704 instructions byte by byte with the budget worked out for every byte
            // (docs/benchmarks.md run N), then 1,459 of a cached 304's 7,295 in a tight byte loop, 621 by memchr (run V).
            size_t over;
            if (scan->lines == 0) over = max_request_line;
            else over = scan->field_bytes + 3 > limits->max_field_bytes ? 0 : limits->max_field_bytes - scan->field_bytes - 2;
            size_t end = scan->line_start + over < length ? scan->line_start + over : length;
            if (i < end) {
                const char *cr = memchr(buffer + i, '\r', end - i);
                size_t stop = cr ? (size_t)(cr - buffer) : end;
                const char *lf = memchr(buffer + i, '\n', stop - i);
                i = lf ? (size_t)(lf - buffer) : stop;
            }
            if (i == length) break;
            if (buffer[i] == '\r' || buffer[i] == '\n') {
                i--;   // the loop's i++ brings it back to the line's end, judged above or below
                continue;
            }
            if (scan->lines == 0) return refuse(refusal, 414, "uri_too_long", "the request target is too long");
            return refuse(refusal, 431, "headers_too_large", "the request header fields are too large");
        }
        if (i == 0 || buffer[i - 1] != '\r') return refuse(refusal, 400, "line_ending_invalid", "a line ends with a bare LF; lines end with CRLF");
        size_t line_length = i - 1 - scan->line_start;
        if (line_length == 0) {
            if (scan->lines == 0) {
                // Empty lines before the request line are ignored (RFC 9112 §2.2), up to HE_MAX_LEADING_EMPTY_LINES.
                scan->skipped += 1;
                scan->line_start = i + 1;
                if (scan->skipped > HE_MAX_LEADING_EMPTY_LINES) return refuse(refusal, 400, "request_line_invalid", "too many empty lines before the request");
                continue;
            }
            scan->position = i + 1;
            return 1;
        }
        if (scan->lines > 0) {
            scan->field_bytes += line_length + 2;
            if (scan->lines > limits->max_fields) return refuse(refusal, 431, "headers_too_large", "the request has too many header fields");
        }
        scan->lines += 1;
        scan->line_start = i + 1;
    }
    scan->position = length;
    return 0;
}

/// Reduces the request target to its path and query and decodes the path. Returns 0 or -1 with `refusal` set.
static int parse_target(const char *target, size_t length, int is_options, const he_head_limits *limits, char *path,
                        he_head *head, he_refusal *refusal) {
    if (length > limits->max_target_bytes) return refuse(refusal, 414, "uri_too_long", "the request target is too long");
    if (length == 1 && target[0] == '*') {
        if (!is_options) return refuse(refusal, 400, "target_invalid", "the target * is only for OPTIONS");
        path[0] = '*';
        head->request.path = path;
        head->request.path_len = 1;
        head->request.query = target + 1;
        head->request.query_len = 0;
        return 0;
    }
    if (target[0] != '/') {
        // absolute-form (RFC 9112 §3.2.2): a server must accept it; only its path and query matter here.
        size_t scheme = 0;
        if (length > 7 && equals_ignoring_case(target, 7, "http://")) scheme = 7;
        else if (length > 8 && equals_ignoring_case(target, 8, "https://")) scheme = 8;
        if (scheme == 0) return refuse(refusal, 400, "target_invalid", "the request target is neither a path nor an absolute http URI");
        size_t start = scheme;
        while (start < length && target[start] != '/' && target[start] != '?') start++;
        if (start == scheme) return refuse(refusal, 400, "target_invalid", "the absolute URI has no host");
        target += start;
        length -= start;
    }
    // An absolute URI with an empty path means "/".
    size_t implicit_slash = (length == 0 || target[0] == '?') ? 1 : 0;
    if (implicit_slash) path[0] = '/';
    // memchr for '?', '#' and '%' rather than loops of our own: the target's parse was the engine's second largest
    // per-request cost in user space (callgrind, docs/benchmarks.md run N: 1,701 of a cached fetch's 6,876
    // instructions), and a fetch's target has no '%' to decode.
    const char *question = memchr(target, '?', length);
    size_t path_len = question ? (size_t)(question - target) : length;
    if (memchr(target, '#', length)) return refuse(refusal, 400, "target_invalid", "a request target has no fragment");
    const char *query = path_len < length ? target + path_len + 1 : target + length;
    size_t query_len = path_len < length ? length - path_len - 1 : 0;
    if (!escapes_are_clean(target, path_len) || !escapes_are_clean(query, query_len)) {
        return refuse(refusal, 400, "target_invalid", "the target has a malformed escape or an escaped control character");
    }
    long decoded = (long)path_len;
    if (memchr(target, '%', path_len)) decoded = he_percent_decode(target, path_len, path + implicit_slash, 0);
    else memcpy(path + implicit_slash, target, path_len);
    if (decoded < 0) return refuse(refusal, 400, "target_invalid", "the path has a malformed escape");
    head->request.path = path;
    head->request.path_len = (size_t)decoded + implicit_slash;
    head->request.query = query;
    head->request.query_len = query_len;
    return 0;
}

/// Parses the request line; returns the offset after its CRLF, or -1.
static long parse_request_line(const char *buffer, size_t length, const he_head_limits *limits, char *path, he_head *head,
                               he_refusal *refusal) {
    size_t i = 0;
    while (i < length && is_tchar((unsigned char)buffer[i])) i++;
    if (i == 0 || i > 32 || i >= length || buffer[i] != ' ') {
        return refuse(refusal, 400, "request_line_invalid", "the request line must be: METHOD SP target SP HTTP/1.x");
    }
    head->request.method = buffer;
    head->request.method_len = i;
    size_t target_start = ++i;
    // Eight bytes at a time while all are visible ASCII, then byte by byte to the first that is not.
    while (i + 8 <= length) {
        uint64_t word;
        memcpy(&word, buffer + i, 8);
        if (any_outside_visible(word)) break;
        i += 8;
    }
    while (i < length && buffer[i] > 0x20 && buffer[i] < 0x7F) i++;
    if (i == target_start || i >= length || buffer[i] != ' ') {
        if (i < length && (unsigned char)buffer[i] != ' ' && buffer[i] != '\r') {
            return refuse(refusal, 400, "target_invalid", "the target has a control character, a space or a non-ASCII byte");
        }
        return refuse(refusal, 400, "request_line_invalid", "the request line must be: METHOD SP target SP HTTP/1.x");
    }
    size_t target_len = i - target_start;
    i++;
    if (length - i < 10 || memcmp(buffer + i, "HTTP/", 5) != 0 || buffer[i + 5] < '0' || buffer[i + 5] > '9' ||
        buffer[i + 6] != '.' || buffer[i + 7] < '0' || buffer[i + 7] > '9' || buffer[i + 8] != '\r' || buffer[i + 9] != '\n') {
        return refuse(refusal, 400, "request_line_invalid", "the request line must end with HTTP/1.0 or HTTP/1.1");
    }
    if (buffer[i + 5] != '1') return refuse(refusal, 505, "version_unsupported", "only HTTP/1.x is served here");
    head->request.version_minor = buffer[i + 7] == '0' ? 0 : 1;
    int is_options = head->request.method_len == 7 && memcmp(buffer, "OPTIONS", 7) == 0;
    head->is_head_method = head->request.method_len == 4 && memcmp(buffer, "HEAD", 4) == 0;
    if (parse_target(buffer + target_start, target_len, is_options, limits, path, head, refusal) != 0) return -1;
    return (long)(i + 10);
}

/// The fields' meaning for framing and the connection, read once all are known.
typedef struct framing {
    int hosts;
    int transfer_encodings;
    int chunked_only;
    int content_lengths;
    long long content_length;
    int connection_close;
    int connection_keep_alive;
} framing;

/// Reads a comma-separated list of tokens for Connection.
static void read_connection_tokens(const char *value, size_t length, framing *frame) {
    size_t i = 0;
    while (i < length) {
        while (i < length && (value[i] == ' ' || value[i] == '\t' || value[i] == ',')) i++;
        size_t start = i;
        while (i < length && value[i] != ',' && value[i] != ' ' && value[i] != '\t') i++;
        if (equals_ignoring_case(value + start, i - start, "close")) frame->connection_close = 1;
        if (equals_ignoring_case(value + start, i - start, "keep-alive")) frame->connection_keep_alive = 1;
    }
}

static int is_hex(unsigned char c) { return (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'f'); }

/// RFC 3986 unreserved and sub-delims: what a reg-name (and an IP literal's inside) may hold besides pct-encoding.
static int is_host_char(unsigned char c) {
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) return 1;
    switch (c) {
    case '-': case '.': case '_': case '~': case '!': case '$': case '&': case '\'': case '(': case ')': case '*': case '+':
    case ',': case ';': case '=':
        return 1;
    default:
        return 0;
    }
}

/// Host = uri-host [ ":" port ] (RFC 9112 §3.2), uri-host = IP-literal / IPv4address / reg-name (RFC 3986 §3.2.2),
/// port = *DIGIT. An empty value is allowed (a target URI without authority). A reg-name covers IPv4 addresses.
static int host_is_valid(const char *value, size_t length) {
    size_t i = 0;
    if (length > 0 && value[0] == '[') {
        // IP-literal: "[" ( IPv6address / IPvFuture ) "]", checked as its character set (hex digits, ':', '.', and
        // for IPvFuture unreserved and sub-delims).
        i = 1;
        while (i < length && value[i] != ']') {
            if (!is_host_char((unsigned char)value[i]) && value[i] != ':') return 0;
            i++;
        }
        if (i >= length || i == 1) return 0;
        i++;
    } else {
        while (i < length && value[i] != ':') {
            unsigned char c = (unsigned char)value[i];
            if (c == '%') {
                if (i + 2 >= length || !is_hex((unsigned char)value[i + 1]) || !is_hex((unsigned char)value[i + 2])) return 0;
                i += 3;
                continue;
            }
            if (!is_host_char(c)) return 0;
            i++;
        }
    }
    if (i == length) return 1;
    if (value[i] != ':') return 0;
    for (i++; i < length; i++) {
        if (value[i] < '0' || value[i] > '9') return 0;
    }
    return 1;
}

static int read_field(const he_field *field, he_head *head, framing *frame, he_refusal *refusal) {
    if (equals_ignoring_case(field->name, field->name_len, "host")) {
        frame->hosts++;
        if (!host_is_valid(field->value, field->value_len)) {
            return refuse(refusal, 400, "host_invalid", "the Host field is not a host and optional port (RFC 9112 section 3.2)");
        }
    } else if (equals_ignoring_case(field->name, field->name_len, "content-length")) {
        // 1*DIGIT, nothing else: no sign, no list, not empty (RFC 9112 §6.3).
        if (field->value_len == 0) return refuse(refusal, 400, "content_length_invalid", "Content-Length must be a decimal number");
        long long value = 0;
        for (size_t i = 0; i < field->value_len; i++) {
            char c = field->value[i];
            if (c < '0' || c > '9') return refuse(refusal, 400, "content_length_invalid", "Content-Length must be a decimal number");
            if (value < 100000000000000000LL) value = value * 10 + (c - '0');
        }
        if (frame->content_lengths > 0 && value != frame->content_length) {
            return refuse(refusal, 400, "request_ambiguous", "the request has conflicting Content-Length fields");
        }
        frame->content_lengths++;
        frame->content_length = value;
    } else if (equals_ignoring_case(field->name, field->name_len, "transfer-encoding")) {
        frame->transfer_encodings++;
        frame->chunked_only = equals_ignoring_case(field->value, field->value_len, "chunked");
    } else if (equals_ignoring_case(field->name, field->name_len, "connection")) {
        read_connection_tokens(field->value, field->value_len, frame);
    } else if (equals_ignoring_case(field->name, field->name_len, "expect")) {
        if (equals_ignoring_case(field->value, field->value_len, "100-continue")) head->expect_continue = 1;
    }
    return 0;
}

int he_starts_with_head(const void *buffer, size_t length) {
    const char *bytes = buffer;
    size_t i = 0;
    while (i < length && (bytes[i] == '\r' || bytes[i] == '\n')) i++;
    return length - i >= 5 && memcmp(bytes + i, "HEAD ", 5) == 0;
}

int he_head_parse(const char *buffer, size_t length, const he_head_limits *limits, he_field *fields, char *path,
                  he_head *head, he_refusal *refusal) {
    memset(head, 0, sizeof *head);
    head->content_length = -1;
    head->head_len = length;
    size_t i = 0;
    while (i + 1 < length && buffer[i] == '\r' && buffer[i + 1] == '\n') i += 2;
    long line_end = parse_request_line(buffer + i, length - i, limits, path, head, refusal);
    if (line_end < 0) return -1;
    i += (size_t)line_end;
    framing frame = {0};
    int count = 0;
    while (i + 2 <= length && !(buffer[i] == '\r' && buffer[i + 1] == '\n')) {
        if (buffer[i] == ' ' || buffer[i] == '\t') {
            return refuse(refusal, 400, "field_folded", "a header line begins with whitespace (obsolete line folding)");
        }
        size_t name_start = i;
        while (i < length && is_tchar((unsigned char)buffer[i])) i++;
        if (i == name_start) return refuse(refusal, 400, "field_name_invalid", "a header field name is empty or not a token");
        if (i < length && (buffer[i] == ' ' || buffer[i] == '\t')) {
            // RFC 9112 §5.1: whitespace between a field name and the colon must be rejected (a smuggling vector).
            return refuse(refusal, 400, "field_name_invalid", "whitespace between a header field name and its colon");
        }
        if (i >= length || buffer[i] != ':') return refuse(refusal, 400, "field_name_invalid", "a header field name is not a token");
        size_t name_end = i++;
        while (i < length && (buffer[i] == ' ' || buffer[i] == '\t')) i++;
        size_t value_start = i;
        // Eight bytes at a time while none is a control or DEL, then byte by byte (a tab, the CR, or a refusal).
        while (i + 8 <= length) {
            uint64_t word;
            memcpy(&word, buffer + i, 8);
            if (any_control(word)) break;
            i += 8;
        }
        while (i < length && buffer[i] != '\r') {
            unsigned char c = (unsigned char)buffer[i];
            if ((c < 0x20 && c != '\t') || c == 0x7F) {
                return refuse(refusal, 400, "field_value_invalid", "a header field value has a control character");
            }
            i++;
        }
        size_t value_end = i;
        while (value_end > value_start && (buffer[value_end - 1] == ' ' || buffer[value_end - 1] == '\t')) value_end--;
        // CRLF (the scanner checked it too; the parser does not rely on that).
        if (i + 1 >= length || buffer[i + 1] != '\n') return refuse(refusal, 400, "line_ending_invalid", "a CR not followed by LF");
        i += 2;
        if (count >= limits->max_fields) return refuse(refusal, 431, "headers_too_large", "the request has too many header fields");
        he_field *field = &fields[count++];
        field->name = buffer + name_start;
        field->name_len = name_end - name_start;
        field->value = buffer + value_start;
        field->value_len = value_end - value_start;
        if (read_field(field, head, &frame, refusal) != 0) return -1;
    }
    head->request.fields = fields;
    head->request.field_count = (size_t)count;
    if (frame.transfer_encodings > 0) {
        if (head->request.version_minor == 0) {
            return refuse(refusal, 400, "transfer_encoding_invalid", "Transfer-Encoding is not HTTP/1.0");
        }
        if (frame.content_lengths > 0) {
            return refuse(refusal, 400, "request_ambiguous", "the request has both Transfer-Encoding and Content-Length");
        }
        if (frame.transfer_encodings > 1 || !frame.chunked_only) {
            return refuse(refusal, 501, "transfer_encoding_unsupported", "the only transfer coding served is chunked");
        }
        head->chunked = 1;
    }
    if (frame.hosts > 1) return refuse(refusal, 400, "host_invalid", "the request has more than one Host field");
    if (frame.hosts == 0 && head->request.version_minor == 1) return refuse(refusal, 400, "host_missing", "an HTTP/1.1 request needs a Host field");
    if (frame.content_lengths > 0) head->content_length = frame.content_length;
    head->keep_alive = head->request.version_minor == 1 ? !frame.connection_close
                                                        : (frame.connection_keep_alive && !frame.connection_close);
    return 0;
}

// The chunked decoder's phases.
enum { CHUNK_SIZE, CHUNK_EXTENSION, CHUNK_SIZE_LF, CHUNK_DATA, CHUNK_DATA_CR, CHUNK_DATA_LF, CHUNK_TRAILER, CHUNK_TRAILER_LF, CHUNK_DONE };

enum { MAX_CHUNK_EXTENSION = 256, MAX_TRAILER_BYTES = 4096 };

int he_chunked_feed(he_chunked *state, const char *input, size_t length, size_t *consumed,
                    unsigned char **output, size_t *output_length, size_t *output_capacity, size_t limit, he_refusal *refusal) {
    size_t i = 0;
    int result = 0;
    while (i < length && result == 0) {
        unsigned char c = (unsigned char)input[i];
        switch (state->phase) {
        case CHUNK_SIZE: {
            int digit = hex_value(c);
            if (digit >= 0) {
                if (++state->digits > 15) { result = refuse(refusal, 400, "chunked_invalid", "a chunk size is too long"); break; }
                state->remaining = state->remaining * 16 + (unsigned long long)digit;
                i++;
            } else if (state->digits > 0 && (c == ';' || c == ' ' || c == '\t')) {
                state->phase = CHUNK_EXTENSION;
            } else if (state->digits > 0 && c == '\r') {
                state->phase = CHUNK_SIZE_LF;
                i++;
            } else {
                result = refuse(refusal, 400, "chunked_invalid", "a chunk size is not hexadecimal");
            }
            break;
        }
        case CHUNK_EXTENSION:
            if (c == '\r') { state->phase = CHUNK_SIZE_LF; i++; break; }
            if ((c < 0x20 && c != '\t') || c == 0x7F) { result = refuse(refusal, 400, "chunked_invalid", "a chunk extension has a control character"); break; }
            if (++state->extension_bytes > MAX_CHUNK_EXTENSION) { result = refuse(refusal, 400, "chunked_invalid", "chunk extensions are too long"); break; }
            i++;
            break;
        case CHUNK_SIZE_LF:
            if (c != '\n') { result = refuse(refusal, 400, "chunked_invalid", "a chunk size line must end with CRLF"); break; }
            i++;
            state->digits = 0;
            state->extension_bytes = 0;
            if (state->remaining == 0) { state->phase = CHUNK_TRAILER; state->line_empty = 1; }
            else state->phase = CHUNK_DATA;
            break;
        case CHUNK_DATA: {
            size_t available = length - i;
            size_t take = state->remaining < available ? (size_t)state->remaining : available;
            if (*output_length + take > limit || state->remaining > limit) {
                result = refuse(refusal, 413, "body_too_large", "the request body is too large");
                break;
            }
            if (*output_length + take > *output_capacity) {
                size_t capacity = *output_capacity ? *output_capacity : 4096;
                while (capacity < *output_length + take) capacity *= 2;
                unsigned char *grown = realloc(*output, capacity);
                if (!grown) { result = refuse(refusal, 500, "internal", "out of memory"); break; }
                *output = grown;
                *output_capacity = capacity;
            }
            memcpy(*output + *output_length, input + i, take);
            *output_length += take;
            state->remaining -= take;
            i += take;
            if (state->remaining == 0) state->phase = CHUNK_DATA_CR;
            break;
        }
        case CHUNK_DATA_CR:
            if (c != '\r') { result = refuse(refusal, 400, "chunked_invalid", "chunk data must be followed by CRLF"); break; }
            state->phase = CHUNK_DATA_LF;
            i++;
            break;
        case CHUNK_DATA_LF:
            if (c != '\n') { result = refuse(refusal, 400, "chunked_invalid", "chunk data must be followed by CRLF"); break; }
            state->phase = CHUNK_SIZE;
            i++;
            break;
        case CHUNK_TRAILER:
            if (c == '\r') { state->phase = CHUNK_TRAILER_LF; i++; break; }
            if ((c < 0x20 && c != '\t') || c == 0x7F) { result = refuse(refusal, 400, "chunked_invalid", "a trailer field has a control character"); break; }
            if (++state->trailer_bytes > MAX_TRAILER_BYTES) { result = refuse(refusal, 400, "chunked_invalid", "the trailer fields are too large"); break; }
            state->line_empty = 0;
            i++;
            break;
        case CHUNK_TRAILER_LF:
            if (c != '\n') { result = refuse(refusal, 400, "chunked_invalid", "a trailer line must end with CRLF"); break; }
            i++;
            if (state->line_empty) { state->phase = CHUNK_DONE; result = 1; break; }
            state->line_empty = 1;
            state->phase = CHUNK_TRAILER;
            break;
        default:
            result = 1;
            break;
        }
    }
    *consumed = i;
    return result;
}
