#include "CIntl.h"
#include <langinfo.h>
#include <stdlib.h>
#include <string.h>

// Context and message are joined by EOT in the catalogue, as gettext.h's pgettext does.
static const char *joined(const char *context, const char *message, char *small, size_t size, char **big) {
    size_t a = strlen(context), b = strlen(message);
    char *out = small;
    if (a + b + 2 > size) {
        *big = malloc(a + b + 2);
        if (!*big) return NULL;
        out = *big;
    }
    memcpy(out, context, a);
    out[a] = '\004';
    memcpy(out + a + 1, message, b + 1);
    return out;
}

const char *meridian_dpgettext(const char *domain, const char *context, const char *message) {
    char small[512], *big = NULL;
    const char *key = joined(context, message, small, sizeof small, &big);
    if (!key) return message;
    const char *found = dcgettext(domain, key, LC_MESSAGES);
    // An untranslated message comes back as the key itself (possibly the stack buffer).
    const char *result = (found == key) ? message : found;
    free(big);
    return result;
}

const char *meridian_dnpgettext(const char *domain, const char *context, const char *singular,
                                const char *plural, unsigned long n) {
    char small[512], *big = NULL;
    const char *key = joined(context, singular, small, sizeof small, &big);
    if (!key) return n == 1 ? singular : plural;
    const char *found = dcngettext(domain, key, plural, n, LC_MESSAGES);
    const char *result = (found == key) ? singular : found;
    free(big);
    return result;
}

int meridian_setlocale_from_environment(void) {
    int ok = setlocale(LC_ALL, "") != NULL;
    if (!ok) setlocale(LC_ALL, "C");
    setlocale(LC_NUMERIC, "C");
    // Character classes stay C too: Xlib writes window titles by LC_CTYPE (a UTF-8 one makes
    // WM_NAME a UTF8_STRING that tools in the C locale cannot read), and SDL sets the locale
    // itself while it opens the input method. Messages come as UTF-8 whatever it is
    // (bind_textdomain_codeset).
    setlocale(LC_CTYPE, "C");
    return ok;
}

static void copy(char *to, int size, const char *from) {
    if (size <= 0) return;
    strncpy(to, from ? from : "", (size_t)size - 1);
    to[size - 1] = 0;
}

void meridian_numeric_conventions(char *point, int point_size, char *group, int group_size) {
    copy(point, point_size, ".");
    copy(group, group_size, "");
    locale_t l = newlocale(LC_NUMERIC_MASK, "", (locale_t)0);
    if (!l) return;
    copy(point, point_size, nl_langinfo_l(RADIXCHAR, l));
    copy(group, group_size, nl_langinfo_l(THOUSEP, l));
    freelocale(l);
}

const char *meridian_messages_locale(void) {
    const char *name = setlocale(LC_MESSAGES, NULL);
    return name ? name : "C";
}
