#ifndef MERIDIAN_CXLIB_H
#define MERIDIAN_CXLIB_H

/// Makes a wake-up sent to an X window that is already gone harmless. SDL wakes a loop
/// waiting in SDL_WaitEvent with an XSendEvent from another thread; one that reaches the
/// server after the window was destroyed comes back as BadWindow, and Xlib's default
/// handler ends the process (exit 1) when the error is finally read, at SDL_Quit. Installed
/// before SDL_Init, so SDL chains to it and restores it at SDL_Quit; every other error goes
/// on to Xlib's default handler.
void meridian_tolerate_stale_wakeups(void);

/// Errors of the frames the X server draws (XRender.h; `opcode`: RENDER's major request
/// code) no longer end the process: they are counted as the path failing, and
/// meridian_server_frames_failed() says so from then on (the app then draws the frames).
struct _XDisplay;
void meridian_watch_server_frames(struct _XDisplay *display, int opcode);
int meridian_server_frames_failed(void);

#include "XRender.h"

#endif
