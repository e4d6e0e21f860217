// The only header lookd's Swift code sees of OpenSSL's libcrypto (Debian's libssl-dev, found with pkg-config
// `libcrypto`). It names no OpenSSL type: four functions over plain byte buffers, each safe to call from any
// thread at the same time (OpenSSL 3 initialises itself once, thread-safely), also while the process exits: the
// shim keeps OpenSSL from freeing its state in an atexit handler (OPENSSL_INIT_NO_ATEXIT).
#ifndef LOOKD_CRYPTO_H
#define LOOKD_CRYPTO_H

#include <stddef.h>
#include <stdint.h>

/// Bytes in a SHA-256 digest and in an HMAC-SHA256 tag.
#define LOOKD_CRYPTO_DIGEST_LENGTH 32

/// HMAC-SHA256 (RFC 2104, FIPS 180-4) of `data` under `key`, written to `out` (32 bytes). A key of any length
/// (0 included; longer than 64 bytes is hashed first, as RFC 2104 says). NULL with a zero length is allowed.
/// Returns 1 on success, 0 on failure (out of memory); `out` is then unspecified.
int lookd_crypto_hmac_sha256(const void *key, size_t key_length, const void *data, size_t data_length,
                             uint8_t out[LOOKD_CRYPTO_DIGEST_LENGTH]);

/// SHA-256 of `data`, written to `out` (32 bytes). Returns 1 on success, 0 on failure.
int lookd_crypto_sha256(const void *data, size_t length, uint8_t out[LOOKD_CRYPTO_DIGEST_LENGTH]);

/// 1 when the `length` bytes at `a` and `b` are equal, else 0, in time that depends only on `length`
/// (OpenSSL's CRYPTO_memcmp). Compare lengths yourself first: a length is not a secret.
int lookd_crypto_equal(const void *a, const void *b, size_t length);

/// Fills `out` with `length` bytes from OpenSSL's CSPRNG (RAND_bytes). Returns 1 on success, 0 when the
/// generator could not be seeded (then `out` must not be used). `length` at most INT_MAX.
int lookd_crypto_random(void *out, size_t length);

#endif
