// OpenSSL's libcrypto, for the three digests mockstack needs (MockStackDigest), on platforms
// without CryptoKit. Debian/Ubuntu: libssl-dev. Only the one-shot functions are used: EVP_Digest
// and HMAC, which OpenSSL 3 keeps undeprecated.
#include <openssl/evp.h>
#include <openssl/hmac.h>
