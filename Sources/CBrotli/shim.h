// The only header that includes libbrotli's (1.0.9 in Debian 12). One-shot encoding and decoding of byte buffers.
#ifndef LOOKD_BROTLI_SHIM_H
#define LOOKD_BROTLI_SHIM_H
#include <brotli/decode.h>
#include <brotli/encode.h>
#endif
