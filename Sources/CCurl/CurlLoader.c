#include "CCurl.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

// The functions used, typed from the header's own prototypes.
#define MC_API(X) \
    X(global_init) X(multi_init) X(multi_cleanup) X(multi_wakeup) X(multi_add_handle) \
    X(multi_remove_handle) X(multi_perform) X(multi_info_read) X(multi_poll) X(multi_setopt) \
    X(easy_init) X(easy_cleanup) X(easy_strerror) X(easy_setopt) X(easy_getinfo) \
    X(slist_append) X(slist_free_all)

#define MC_POINTER(name) static __typeof__(curl_##name) *p_##name;
MC_API(MC_POINTER)

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded;
static char failure[512];

static void load(void) {
    // The soname of libcurl 4 (every libcurl since 7.16; 7.85 is needed, see CurlEngine).
    void *library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        const char *why = dlerror();
        snprintf(failure, sizeof failure, "libcurl cannot be loaded (%s)", why ? why : "not found");
        return;
    }
#define MC_RESOLVE(name) \
    if (!(p_##name = (__typeof__(curl_##name) *)dlsym(library, "curl_" #name))) { \
        snprintf(failure, sizeof failure, "libcurl lacks curl_%s (too old?)", #name); \
        return; \
    }
    MC_API(MC_RESOLVE)
    CURLcode code = p_global_init(CURL_GLOBAL_DEFAULT);
    if (code != CURLE_OK) {
        snprintf(failure, sizeof failure, "libcurl cannot start (%s)", p_easy_strerror(code));
        return;
    }
    loaded = 1;
}

const char *mc_load(void) {
    pthread_once(&once, load);
    return loaded ? NULL : failure;
}

CURLM *mc_multi_init(void) { return p_multi_init(); }
CURLMcode mc_multi_cleanup(CURLM *m) { return p_multi_cleanup(m); }
CURLMcode mc_multi_wakeup(CURLM *m) { return p_multi_wakeup(m); }
CURLMcode mc_multi_add_handle(CURLM *m, CURL *e) { return p_multi_add_handle(m, e); }
CURLMcode mc_multi_remove_handle(CURLM *m, CURL *e) { return p_multi_remove_handle(m, e); }
CURLMcode mc_multi_perform(CURLM *m, int *running) { return p_multi_perform(m, running); }
CURLMsg *mc_multi_info_read(CURLM *m, int *left) { return p_multi_info_read(m, left); }
CURLMcode mc_multi_poll(CURLM *m, int timeout_ms, int *events) { return p_multi_poll(m, NULL, 0, timeout_ms, events); }
CURL *mc_easy_init(void) { return p_easy_init(); }
void mc_easy_cleanup(CURL *e) { p_easy_cleanup(e); }
const char *mc_easy_strerror(CURLcode code) { return p_easy_strerror(code); }
struct curl_slist *mc_slist_append(struct curl_slist *list, const char *line) { return p_slist_append(list, line); }
void mc_slist_free_all(struct curl_slist *list) { p_slist_free_all(list); }

CURLcode mc_easy_long(CURL *h, CURLoption o, long v) { return p_easy_setopt(h, o, v); }
CURLcode mc_easy_offset(CURL *h, CURLoption o, curl_off_t v) { return p_easy_setopt(h, o, v); }
CURLcode mc_easy_string(CURL *h, CURLoption o, const char *v) { return p_easy_setopt(h, o, v); }
CURLcode mc_easy_pointer(CURL *h, CURLoption o, void *v) { return p_easy_setopt(h, o, v); }
CURLcode mc_easy_list(CURL *h, CURLoption o, struct curl_slist *v) { return p_easy_setopt(h, o, v); }
CURLcode mc_easy_write(CURL *h, CURLoption o, curl_write_callback f) { return p_easy_setopt(h, o, f); }
CURLcode mc_info_long(CURL *h, CURLINFO i, long *v) { return p_easy_getinfo(h, i, v); }
CURLMcode mc_multi_long(CURLM *m, CURLMoption o, long v) { return p_multi_setopt(m, o, v); }
