// OpenSSL's libcrypto, for the three digests mockstack needs (MockStackDigest), on platforms
// without CryptoKit. Debian/Ubuntu: libssl-dev. Only the one-shot functions are used: EVP_Digest
// and HMAC, which OpenSSL 3 keeps undeprecated. The module map links nothing: pkg-config's
// libcrypto.pc does (Scripts/release-flags.sh swaps in the static archive for release builds).
#include <openssl/evp.h>
#include <openssl/hmac.h>
