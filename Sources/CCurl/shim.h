#ifndef MOCKSTACK_CCURL_SHIM_H
#define MOCKSTACK_CCURL_SHIM_H

// libcurl's declarations, for its types and constants only: mockstack does not link libcurl.
// MockStackUpstream opens it with dlopen when the first request is forwarded upstream, fills
// a `mockstack_curl` with dlsym (mockstack_curl_resolve), and calls libcurl through the
// functions below, which take that table. Swift never names a libcurl function itself (that
// would be an undefined symbol at link time), and never calls a C variadic (setopt, getinfo).
#define CURL_DISABLE_TYPECHECK 1
#include <dlfcn.h>
#include <stddef.h>
#include <curl/curl.h>

/// The libcurl functions the upstream client calls, resolved in an opened library.
typedef struct mockstack_curl {
    CURLcode (*global_init)(long flags);
    CURL *(*easy_init)(void);
    CURLcode (*easy_setopt)(CURL *easy, CURLoption option, ...);
    CURLcode (*easy_getinfo)(CURL *easy, CURLINFO info, ...);
    void (*easy_cleanup)(CURL *easy);
    const char *(*easy_strerror)(CURLcode code);
    CURLM *(*multi_init)(void);
    CURLMcode (*multi_add_handle)(CURLM *multi, CURL *easy);
    CURLMcode (*multi_remove_handle)(CURLM *multi, CURL *easy);
    CURLMcode (*multi_perform)(CURLM *multi, int *running);
    CURLMcode (*multi_poll)(CURLM *multi, struct curl_waitfd extra[], unsigned int extra_count, int timeout_ms, int *ready);
    CURLMcode (*multi_wakeup)(CURLM *multi);
    CURLMsg *(*multi_info_read)(CURLM *multi, int *queued);
    const char *(*multi_strerror)(CURLMcode code);
    struct curl_slist *(*slist_append)(struct curl_slist *list, const char *line);
    void (*slist_free_all)(struct curl_slist *list);
} mockstack_curl;

/// Fills `api` from `library` (a dlopen handle). Returns NULL when every function is there,
/// else the name of the first one missing (curl_multi_wakeup is libcurl 7.68's).
static inline const char *mockstack_curl_resolve(void *library, mockstack_curl *api) {
#define MOCKSTACK_CURL_RESOLVE(field) \
    if ((*(void **)(&api->field) = dlsym(library, "curl_" #field)) == NULL) return "curl_" #field;
    MOCKSTACK_CURL_RESOLVE(global_init)
    MOCKSTACK_CURL_RESOLVE(easy_init)
    MOCKSTACK_CURL_RESOLVE(easy_setopt)
    MOCKSTACK_CURL_RESOLVE(easy_getinfo)
    MOCKSTACK_CURL_RESOLVE(easy_cleanup)
    MOCKSTACK_CURL_RESOLVE(easy_strerror)
    MOCKSTACK_CURL_RESOLVE(multi_init)
    MOCKSTACK_CURL_RESOLVE(multi_add_handle)
    MOCKSTACK_CURL_RESOLVE(multi_remove_handle)
    MOCKSTACK_CURL_RESOLVE(multi_perform)
    MOCKSTACK_CURL_RESOLVE(multi_poll)
    MOCKSTACK_CURL_RESOLVE(multi_wakeup)
    MOCKSTACK_CURL_RESOLVE(multi_info_read)
    MOCKSTACK_CURL_RESOLVE(multi_strerror)
    MOCKSTACK_CURL_RESOLVE(slist_append)
    MOCKSTACK_CURL_RESOLVE(slist_free_all)
#undef MOCKSTACK_CURL_RESOLVE
    return NULL;
}

// Calls through the table, typed: each C variadic gets one signature per argument type.

static inline CURLcode mockstack_curl_global_init(const mockstack_curl *api) { return api->global_init(CURL_GLOBAL_DEFAULT); }
static inline CURL *mockstack_curl_easy_init(const mockstack_curl *api) { return api->easy_init(); }
static inline void mockstack_curl_easy_cleanup(const mockstack_curl *api, CURL *easy) { api->easy_cleanup(easy); }
static inline const char *mockstack_curl_easy_strerror(const mockstack_curl *api, CURLcode code) { return api->easy_strerror(code); }

static inline CURLcode mockstack_curl_set_long(const mockstack_curl *api, CURL *easy, CURLoption option, long value) {
    return api->easy_setopt(easy, option, value);
}
static inline CURLcode mockstack_curl_set_offset(const mockstack_curl *api, CURL *easy, CURLoption option, curl_off_t value) {
    return api->easy_setopt(easy, option, value);
}
/// A string libcurl copies (a URL, a method, a body with CURLOPT_COPYPOSTFIELDS).
static inline CURLcode mockstack_curl_set_string(const mockstack_curl *api, CURL *easy, CURLoption option, const char *value) {
    return api->easy_setopt(easy, option, value);
}
/// A buffer, a header list or a callback's user data: libcurl keeps the pointer.
static inline CURLcode mockstack_curl_set_pointer(const mockstack_curl *api, CURL *easy, CURLoption option, const void *value) {
    return api->easy_setopt(easy, option, value);
}
/// CURLOPT_WRITEFUNCTION and CURLOPT_HEADERFUNCTION.
static inline CURLcode mockstack_curl_set_callback(const mockstack_curl *api, CURL *easy, CURLoption option, curl_write_callback value) {
    return api->easy_setopt(easy, option, value);
}
static inline CURLcode mockstack_curl_get_long(const mockstack_curl *api, CURL *easy, CURLINFO info, long *value) {
    return api->easy_getinfo(easy, info, value);
}

static inline CURLM *mockstack_curl_multi_init(const mockstack_curl *api) { return api->multi_init(); }
static inline CURLMcode mockstack_curl_multi_add_handle(const mockstack_curl *api, CURLM *multi, CURL *easy) {
    return api->multi_add_handle(multi, easy);
}
static inline CURLMcode mockstack_curl_multi_remove_handle(const mockstack_curl *api, CURLM *multi, CURL *easy) {
    return api->multi_remove_handle(multi, easy);
}
static inline CURLMcode mockstack_curl_multi_perform(const mockstack_curl *api, CURLM *multi, int *running) {
    return api->multi_perform(multi, running);
}
static inline CURLMcode mockstack_curl_multi_poll(const mockstack_curl *api, CURLM *multi, int timeout_ms) {
    return api->multi_poll(multi, NULL, 0, timeout_ms, NULL);
}
static inline CURLMcode mockstack_curl_multi_wakeup(const mockstack_curl *api, CURLM *multi) { return api->multi_wakeup(multi); }
static inline const char *mockstack_curl_multi_strerror(const mockstack_curl *api, CURLMcode code) { return api->multi_strerror(code); }

/// Whether a transfer has finished: then its easy handle is in `easy`, its result in `result`.
static inline int mockstack_curl_next_done(const mockstack_curl *api, CURLM *multi, CURL **easy, CURLcode *result) {
    int queued = 0;
    CURLMsg *message;
    while ((message = api->multi_info_read(multi, &queued)) != NULL) {
        if (message->msg == CURLMSG_DONE) {
            *easy = message->easy_handle;
            *result = message->data.result;
            return 1;
        }
    }
    return 0;
}

static inline struct curl_slist *mockstack_curl_slist_append(const mockstack_curl *api, struct curl_slist *list, const char *line) {
    return api->slist_append(list, line);
}
static inline void mockstack_curl_slist_free_all(const mockstack_curl *api, struct curl_slist *list) { api->slist_free_all(list); }

#endif
