#include "CXlib.h"
#include <X11/Xlib.h>
#include <X11/Xproto.h>

static int (*previous)(Display *, XErrorEvent *) = 0;
static int installed = 0;
// RENDER's request code on the display whose frames the server draws (-1: none), and
// whether a request of that path has failed.
static int render_opcode = -1;
static volatile int render_failed = 0;

// The requests of the server-drawn path (XRender.c): RENDER's, and the core ones it sends.
static int is_frame_request(XErrorEvent *error) {
    switch (error->request_code) {
    case X_CreatePixmap: case X_FreePixmap: case X_CopyArea: case X_PutImage: case X_CreateGC: case X_FreeGC: return 1;
    default: return error->request_code == render_opcode;
    }
}

static int handler(Display *display, XErrorEvent *error) {
    if (error->error_code == BadWindow && error->request_code == X_SendEvent) return 0;
    // A server out of memory (BadAlloc), or one refusing what the server-drawn path asked:
    // that path stops and the app draws the frames itself, rather than the process ending.
    if (render_opcode >= 0 && ((error->error_code == BadAlloc) || (error->request_code == render_opcode) ||
                               (render_failed && is_frame_request(error)))) {
        render_failed = 1;
        return 0;
    }
    return previous ? previous(display, error) : 0;
}

void meridian_watch_server_frames(int opcode) {
    meridian_tolerate_stale_wakeups();
    render_opcode = opcode;
}

int meridian_server_frames_failed(void) { return render_failed; }

void meridian_tolerate_stale_wakeups(void) {
    if (installed) return;
    installed = 1;
    previous = XSetErrorHandler(handler);
}
