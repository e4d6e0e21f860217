// OpenSSL's libcrypto headers. Swift code reaches libcrypto through CCrypto's byte-buffer API only.
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
