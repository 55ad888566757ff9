#include "CXlib.h"
#include <X11/Xlib.h>
#include <X11/Xproto.h>

static int (*previous)(Display *, XErrorEvent *) = 0;
static int installed = 0;

static int handler(Display *display, XErrorEvent *error) {
    if (error->error_code == BadWindow && error->request_code == X_SendEvent) return 0;
    return previous ? previous(display, error) : 0;
}

void meridian_tolerate_stale_wakeups(void) {
    if (installed) return;
    installed = 1;
    previous = XSetErrorHandler(handler);
}
