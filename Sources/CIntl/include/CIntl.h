#ifndef CINTL_H
#define CINTL_H
// glibc's gettext for Swift, whose Glibc module does not export <libintl.h>; and the locale's
// number conventions, read without making them the process's (the C library's number
// reading and writing stays in the C locale: files and programs read them so).
#include <libintl.h>
#include <locale.h>

// The message of `context` (msgctxt) and `message`, or `message` when the catalogue has none:
// pgettext is a macro of gettext.h, not a function of libintl.
const char *meridian_dpgettext(const char *domain, const char *context, const char *message);
const char *meridian_dnpgettext(const char *domain, const char *context, const char *singular,
                                const char *plural, unsigned long n);

// Sets every category from the environment except LC_NUMERIC and LC_CTYPE, which stay "C".
// Returns 0 when the environment named a locale this machine lacks (then "C" is used).
int meridian_setlocale_from_environment(void);

// The decimal point and thousands separator of the environment's LC_NUMERIC locale, as
// UTF-8 into the buffers (empty separator when the locale groups none).
void meridian_numeric_conventions(char *point, int point_size, char *group, int group_size);

// The locale name LC_MESSAGES was set to ("de_DE.UTF-8", "C").
const char *meridian_messages_locale(void);
#endif
