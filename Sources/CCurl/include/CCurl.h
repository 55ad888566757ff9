#ifndef MERIDIAN_CCURL_H
#define MERIDIAN_CCURL_H

// libcurl, opened when the first transfer that needs it starts (https, or a proxy), not at
// start: with what it links (OpenSSL, GnuTLS, Kerberos, LDAP, SSH, RTMP…) it is 8 MiB of a
// process that may only ever draw the embedded basemap or a plain-http tile server.
// Only the header is compiled against; the library is found with dlopen.
#include <curl/curl.h>

/// NULL once libcurl is loaded and initialised (curl_global_init); else why it cannot be.
/// Safe from any thread; the work is done once. Call it before any other mc_ function.
const char *mc_load(void);

CURLM *mc_multi_init(void);
CURLMcode mc_multi_cleanup(CURLM *m);
CURLMcode mc_multi_wakeup(CURLM *m);
CURLMcode mc_multi_add_handle(CURLM *m, CURL *e);
CURLMcode mc_multi_remove_handle(CURLM *m, CURL *e);
CURLMcode mc_multi_perform(CURLM *m, int *running);
CURLMsg *mc_multi_info_read(CURLM *m, int *left);
CURLMcode mc_multi_poll(CURLM *m, int timeout_ms, int *events);
CURL *mc_easy_init(void);
void mc_easy_cleanup(CURL *e);
const char *mc_easy_strerror(CURLcode code);
struct curl_slist *mc_slist_append(struct curl_slist *list, const char *line);
void mc_slist_free_all(struct curl_slist *list);

// curl_easy_setopt, curl_easy_getinfo and curl_multi_setopt are variadic, which Swift cannot
// call: one typed wrapper per kind of argument.
CURLcode mc_easy_long(CURL *h, CURLoption o, long v);
CURLcode mc_easy_offset(CURL *h, CURLoption o, curl_off_t v);
CURLcode mc_easy_string(CURL *h, CURLoption o, const char *v);
CURLcode mc_easy_pointer(CURL *h, CURLoption o, void *v);
CURLcode mc_easy_list(CURL *h, CURLoption o, struct curl_slist *v);
CURLcode mc_easy_write(CURL *h, CURLoption o, curl_write_callback f);
CURLcode mc_info_long(CURL *h, CURLINFO i, long *v);
CURLMcode mc_multi_long(CURLM *m, CURLMoption o, long v);

#endif
