// Accept-Encoding (RFC 9110 §12.5.3): the weight a request gives each content coding the engine knows, and the
// coding to send. Pure: no allocation, no state.
#include "http_engine.h"

static int lower(int c) { return c >= 'A' && c <= 'Z' ? c + 32 : c; }

static int equals_token(const char *text, size_t length, const char *token) {
    size_t n = 0;
    while (token[n]) n++;
    if (length != n) return 0;
    for (size_t i = 0; i < n; i++) {
        if (lower((unsigned char)text[i]) != token[i]) return 0;
    }
    return 1;
}

static int is_space(char c) { return c == ' ' || c == '\t'; }

/// A qvalue (RFC 9110 §12.4.2: "0" ["." 0*3DIGIT] / "1" ["." 0*3"0"]) in thousandths, or -1 when malformed.
static int parse_qvalue(const char *text, size_t length) {
    if (length == 0 || (text[0] != '0' && text[0] != '1')) return -1;
    if (length == 1) return (text[0] - '0') * 1000;
    if (text[1] != '.' || length > 5) return -1;
    int value = (text[0] - '0') * 1000, scale = 100;
    for (size_t i = 2; i < length; i++, scale /= 10) {
        if (text[i] < '0' || text[i] > '9') return -1;
        value += (text[i] - '0') * scale;
    }
    return value > 1000 ? -1 : value;
}

void he_accept_encoding(const char *value, size_t length, int present, int weights[HE_CODINGS]) {
    // Listed weights: -1 while not listed. Slot HE_CODINGS is `*`.
    int listed[HE_CODINGS + 1] = {-1, -1, -1, -1};
    int elements = 0;   // non-empty elements seen
    size_t start = 0;
    while (present && start < length) {
        size_t end = start;
        while (end < length && value[end] != ',') end++;
        // One element: coding *( OWS ";" OWS parameter ).
        size_t at = start;
        while (at < end && is_space(value[at])) at++;
        size_t name = at;
        while (at < end && value[at] != ';' && !is_space(value[at])) at++;
        size_t name_len = at - name;
        if (name_len) elements++;
        int weight = 1000, malformed = 0;
        while (at < end) {
            while (at < end && is_space(value[at])) at++;
            if (at == end) break;
            if (value[at] != ';') { malformed = 1; break; }
            at++;
            while (at < end && is_space(value[at])) at++;
            size_t parameter = at;
            while (at < end && value[at] != ';' && !is_space(value[at])) at++;
            // Only "q=" is defined for Accept-Encoding (its name case-insensitive); other parameters are ignored.
            if (at - parameter >= 2 && lower((unsigned char)value[parameter]) == 'q' && value[parameter + 1] == '=') {
                weight = parse_qvalue(value + parameter + 2, at - parameter - 2);
                if (weight < 0) malformed = 1;
            }
        }
        int slot = -1;
        if (equals_token(value + name, name_len, "identity")) slot = HE_CODING_IDENTITY;
        else if (equals_token(value + name, name_len, "gzip") || equals_token(value + name, name_len, "x-gzip")) slot = HE_CODING_GZIP;
        else if (equals_token(value + name, name_len, "br")) slot = HE_CODING_BR;
        else if (name_len == 1 && value[name] == '*') slot = HE_CODINGS;
        // A malformed element is ignored; a coding listed twice keeps its first weight.
        if (slot >= 0 && !malformed && listed[slot] < 0) listed[slot] = weight;
        start = end + 1;
    }
    for (int coding = 0; coding < HE_CODINGS; coding++) {
        // No field, or an empty one ("the user agent does not want any content coding"): identity only.
        if (!present || elements == 0) weights[coding] = coding == HE_CODING_IDENTITY ? 1000 : 0;
        else if (listed[coding] >= 0) weights[coding] = listed[coding];
        else if (listed[HE_CODINGS] >= 0) weights[coding] = listed[HE_CODINGS];
        // Not named, no `*`: identity stays acceptable, after every coding the request names.
        else weights[coding] = coding == HE_CODING_IDENTITY ? 1 : 0;
    }
}

int he_choose_coding(const int weights[HE_CODINGS], unsigned available) {
    // Equal weights: the smaller representation (br, then gzip, then identity).
    static const int order[HE_CODINGS] = {HE_CODING_BR, HE_CODING_GZIP, HE_CODING_IDENTITY};
    int best = -1;
    for (int i = 0; i < HE_CODINGS; i++) {
        int coding = order[i];
        if (!((available >> coding) & 1) || weights[coding] <= 0) continue;
        if (best < 0 || weights[coding] > weights[best]) best = coding;
    }
    return best;
}
