// The only header that includes libdeflate's (1.14 in Debian 12). Whole-buffer gzip encoding.
#ifndef LOOKD_DEFLATE_SHIM_H
#define LOOKD_DEFLATE_SHIM_H
#include <libdeflate.h>
#endif
