// mimalloc replaces malloc/free process-wide once linked (its shared library exports them and
// is searched before libc); the executable calls mi_version() so that the link is never
// dropped as unused. Debian/Ubuntu: libmimalloc-dev.
#include <mimalloc.h>
