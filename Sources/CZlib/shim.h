// The only header that includes <zlib.h> (zlib 1.2.13 in Debian 12).
#ifndef LOOKD_ZLIB_SHIM_H
#define LOOKD_ZLIB_SHIM_H
#include <zlib.h>

/// inflateInit2 (a macro, which Swift does not import) for a gzip stream only (`window_bits` 31: a gzip wrapper,
/// RFC 1952, around a 32 KiB window).
static inline int lookd_inflate_init_gzip(z_stream *stream) {
    return inflateInit2(stream, 31);
}
#endif
