#ifndef MERIDIAN_XRENDER_H
#define MERIDIAN_XRENDER_H

#include <stdint.h>
#include "CPixels.h"

/* Frames drawn by the X server with the RENDER extension: tile and sprite pictures live in
   the server, each frame is a few dozen composite requests into a picture the size of the
   window, and a present copies the boxes that changed onto the window. Without a GPU this
   moves every scaled copy out of the app (the server's pixman draws them, with SIMD); with
   one (glamor) the server draws them on it; over a network, only requests travel.
   Pixels handed over are 0xAARRGGBB premultiplied words, as CPixels draws. Every call is on
   the thread that runs the window's event loop (Xlib's display is the window's: SDL's). */

typedef struct mx_render mx_render;

/* The server-side frame of the X11 window `window` on `display` (an Xlib Display *), or NULL:
   a server without RENDER 0.10. The caller finds the two (MapWindow asks SDL), so that
   nothing here knows the toolkit. */
mx_render *mx_render_open(void *display, unsigned long window);
/* Lets go of what the server holds, before the display closes; every call after does nothing. */
void mx_render_close(mx_render *r);
void mx_render_free(mx_render *r);

/* Makes the frame picture `width`×`height` (what the window shows is kept where it fits);
   0 on failure. */
int mx_render_resize(mx_render *r, int32_t width, int32_t height);

/* A picture of `pixels` in the server (opaque: alpha ignored, drawn by copying), 0 on
   failure. Freed with mx_picture_free. */
unsigned long mx_picture_upload(mx_render *r, const uint32_t *pixels, int32_t width, int32_t height, int32_t stride, int opaque);
void mx_picture_free(mx_render *r, unsigned long picture);

/* Draws until the next present go onto the window itself (on) or into the frame (off, and
   after each present). A frame in motion drawn on the window spares the server the copy of
   it; the server's frame then shows something older than the window. */
void mx_render_on_window(mx_render *r, int on);

/* Later draws touch only these boxes of the frame, or of the window when drawing on it
   (none: all of it). The boxes must not overlap: a turned tile is drawn box by box. */
void mx_render_clip(mx_render *r, const mp_box *boxes, int32_t count);

/* Lays the premultiplied colour over the box (`replace`: the box becomes the colour). */
void mx_render_fill(mx_render *r, mp_box box, uint32_t argb, int replace);

/* As mp_draw_image: texels (sx, sy, sw, sh) of a picture onto the device
   rectangle (dx, dy, dw, dh); pixels whose centres lie in it. MP_OPAQUE, MP_FILTER flags. */
void mx_render_draw(mx_render *r, unsigned long picture, double sx, double sy, double sw, double sh,
                    double dx, double dy, double dw, double dh, uint32_t opacity, uint32_t flags);

/* A turned tile: as mx_render_draw_rotated at full opacity, its edges antialiased and
   `outset` pixels (0…1) wide of the tile, its edge texels repeated: half a pixel for an
   opaque tile, so that turned neighbours show no seam; 0 for a translucent one, which would
   show the overlap. `filter`: bilinear. `whole`: the tile is the whole picture (not part of an
   ancestor's): unfiltered, it is then drawn without a mask, each pixel by its centre. */
void mx_render_draw_turned(mx_render *r, unsigned long picture, double sx, double sy, double sw, double sh,
                           double cx, double cy, double dw, double dh, double degrees, int filter, double outset, int whole);
/* As mp_draw_rotated, filtered. */
void mx_render_draw_rotated(mx_render *r, unsigned long picture, double sx, double sy, double sw, double sh,
                            double cx, double cy, double dw, double dh, double degrees, uint32_t opacity);

/* Waits until the server has carried out every request; 0 if one of this path failed
   (meridian_server_frames_failed). */
int mx_render_sync(mx_render *r);

/* Moves the window's pixels by (dx, dy): what a sliding map keeps of its last frame. The
   frame is not moved: only what is drawn next into it is presented. */
void mx_render_scroll(mx_render *r, int32_t dx, int32_t dy);

/* Copies the boxes of the frame onto the window (sent at once; every few frames, waits
   until the server has drawn them). */
void mx_render_present(mx_render *r, const mp_box *boxes, int32_t count);

#endif
