#include "CXlib.h"
#include <X11/Xlib.h>
#include <X11/Xproto.h>
#include <stdio.h>

static int (*previous)(Display *, XErrorEvent *) = 0;
static int installed = 0;
// The display whose frames the server draws, RENDER's request code on it (-1: none), and
// whether a request of that path has failed.
static Display *render_display = 0;
static int render_opcode = -1;
static volatile int render_failed = 0;

// The requests of the server-drawn path (XRender.c): RENDER's, and the core ones it sends.
static int is_frame_request(XErrorEvent *error) {
    switch (error->request_code) {
    case X_CreatePixmap: case X_FreePixmap: case X_CopyArea: case X_PutImage: case X_CreateGC: case X_FreeGC: return 1;
    default: return error->request_code == render_opcode;
    }
}

// What follows a refused pixmap or picture: core requests naming it.
static int is_consequence(XErrorEvent *error) {
    switch (error->error_code) {
    case BadAlloc: case BadDrawable: case BadPixmap: case BadGC: case BadMatch: return 1;
    default: return 0;
    }
}

static int handler(Display *display, XErrorEvent *error) {
    if (error->error_code == BadWindow && error->request_code == X_SendEvent) return 0;
    // A server out of memory refusing the frame or a picture (BadAlloc), or refusing a RENDER
    // request: that path stops and the app draws the frames itself, rather than the process
    // ending. Only on the frame's display, and only the frame's requests.
    if (display == render_display && render_opcode >= 0 && is_frame_request(error) &&
        (error->error_code == BadAlloc || error->request_code == render_opcode || (render_failed && is_consequence(error)))) {
        if (!render_failed) {
            fprintf(stderr, "meridian: the X server refused a request of the frame it draws (error %d, request %d.%d)\n",
                    error->error_code, error->request_code, error->minor_code);
        }
        render_failed = 1;
        return 0;
    }
    return previous ? previous(display, error) : 0;
}

void meridian_watch_server_frames(Display *display, int opcode) {
    meridian_tolerate_stale_wakeups();
    render_display = display;
    render_opcode = opcode;
}

int meridian_server_frames_failed(void) { return render_failed; }

void meridian_tolerate_stale_wakeups(void) {
    if (installed) return;
    installed = 1;
    previous = XSetErrorHandler(handler);
}
