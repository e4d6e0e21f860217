// lookd's shim over OpenSSL's libcrypto: see include/lookd_crypto.h.
#include "lookd_crypto.h"

#include <limits.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>

static const unsigned char empty_byte = 0;

// OpenSSL frees its global state in an atexit handler unless its first initialisation says not to. The daemon
// exits after a stop while webhook attempts may still be signing on their own threads (WebhookDeliverer.stop);
// one such thread then took a freed lock and the process died with SIGSEGV in CRYPTO_THREAD_read_lock (seen under
// ThreadSanitizer in CI). The first initialisation decides, so this runs before main, ahead of libpq and libcurl,
// which use OpenSSL too. The state then lives until the process ends, as any process's memory does.
__attribute__((constructor)) static void lookd_crypto_keep_state_until_exit(void) {
    OPENSSL_init_crypto(OPENSSL_INIT_NO_ATEXIT, NULL);
}

int lookd_crypto_hmac_sha256(const void *key, size_t key_length, const void *data, size_t data_length,
                             uint8_t out[LOOKD_CRYPTO_DIGEST_LENGTH]) {
    if (key_length > INT_MAX) return 0;
    unsigned int written = 0;
    // HMAC() treats a NULL key as "reuse the previous key" in some versions: never hand it NULL.
    const void *k = key != NULL ? key : &empty_byte;
    const unsigned char *d = data != NULL ? (const unsigned char *)data : &empty_byte;
    unsigned char *result = HMAC(EVP_sha256(), k, (int)key_length, d, data_length, out, &written);
    return result != NULL && written == LOOKD_CRYPTO_DIGEST_LENGTH;
}

int lookd_crypto_sha256(const void *data, size_t length, uint8_t out[LOOKD_CRYPTO_DIGEST_LENGTH]) {
    unsigned int written = 0;
    const void *d = data != NULL ? data : &empty_byte;
    return EVP_Digest(d, length, out, &written, EVP_sha256(), NULL) == 1 && written == LOOKD_CRYPTO_DIGEST_LENGTH;
}

int lookd_crypto_equal(const void *a, const void *b, size_t length) {
    if (length == 0) return 1;
    return CRYPTO_memcmp(a, b, length) == 0;
}

int lookd_crypto_random(void *out, size_t length) {
    if (length == 0) return 1;
    if (length > INT_MAX) return 0;
    return RAND_bytes((unsigned char *)out, (int)length) == 1;
}
