#ifndef MOCKSTACK_CLIBCURLEASY_SHIM_H
#define MOCKSTACK_CLIBCURLEASY_SHIM_H

// The few libcurl "easy" calls MockStackTLSClient makes, declared here rather than taken from
// curl.h: a client's Linux tests build this, and need no libcurl headers for it. The option and
// info numbers are libcurl's public ABI (curl.h: CURLOPTTYPE_* + n). Swift calls libcurl only
// through the typed functions below: it cannot call a C variadic (setopt, getinfo).
#include <dlfcn.h>
#include <stddef.h>

typedef size_t (*mockstack_easy_data_callback)(char *bytes, size_t size, size_t count, void *context);
typedef int (*mockstack_easy_progress_callback)(void *context, long long, long long, long long, long long);

/// libcurl's `struct curl_blob`.
typedef struct mockstack_easy_blob {
    void *data;
    size_t len;
    unsigned int flags;
} mockstack_easy_blob;

typedef struct mockstack_easy {
    void *(*easy_init)(void);
    int (*setopt)(void *easy, int option, ...);
    int (*getinfo)(void *easy, int info, ...);
    int (*perform)(void *easy);
    void (*cleanup)(void *easy);
    const char *(*strerror)(int code);
    void *(*slist_append)(void *list, const char *line);
    void (*slist_free_all)(void *list);
} mockstack_easy;

/// Fills `api` from `library` (a dlopen handle); NULL when every function is there, else the
/// name of the first one missing.
static inline const char *mockstack_easy_resolve(void *library, mockstack_easy *api) {
#define MOCKSTACK_EASY_RESOLVE(field, name) \
    if ((*(void **)(&api->field) = dlsym(library, name)) == NULL) return name;
    MOCKSTACK_EASY_RESOLVE(easy_init, "curl_easy_init")
    MOCKSTACK_EASY_RESOLVE(setopt, "curl_easy_setopt")
    MOCKSTACK_EASY_RESOLVE(getinfo, "curl_easy_getinfo")
    MOCKSTACK_EASY_RESOLVE(perform, "curl_easy_perform")
    MOCKSTACK_EASY_RESOLVE(cleanup, "curl_easy_cleanup")
    MOCKSTACK_EASY_RESOLVE(strerror, "curl_easy_strerror")
    MOCKSTACK_EASY_RESOLVE(slist_append, "curl_slist_append")
    MOCKSTACK_EASY_RESOLVE(slist_free_all, "curl_slist_free_all")
#undef MOCKSTACK_EASY_RESOLVE
    return NULL;
}

static inline int mockstack_easy_set_long(const mockstack_easy *api, void *easy, int option, long value) {
    return api->setopt(easy, option, value);
}
static inline int mockstack_easy_set_offset(const mockstack_easy *api, void *easy, int option, long long value) {
    return api->setopt(easy, option, value);
}
/// A string or buffer libcurl copies or keeps (a URL, a method, a header list, callback data).
static inline int mockstack_easy_set_pointer(const mockstack_easy *api, void *easy, int option, const void *value) {
    return api->setopt(easy, option, value);
}
static inline int mockstack_easy_set_data_callback(const mockstack_easy *api, void *easy, int option, mockstack_easy_data_callback value) {
    return api->setopt(easy, option, value);
}
static inline int mockstack_easy_set_progress_callback(const mockstack_easy *api, void *easy, int option, mockstack_easy_progress_callback value) {
    return api->setopt(easy, option, value);
}
static inline int mockstack_easy_get_long(const mockstack_easy *api, void *easy, int info, long *value) {
    return api->getinfo(easy, info, value);
}

#endif
