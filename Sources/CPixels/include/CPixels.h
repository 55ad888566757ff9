#ifndef MERIDIAN_CPIXELS_H
#define MERIDIAN_CPIXELS_H

#include <stdint.h>

/* Pixels are 32-bit words 0xAARRGGBB with premultiplied alpha (Cairo's ARGB32), laid out
   row after row `stride` words apart. What these functions draw into is opaque (a window's
   XRGB surface, or a picture whose tiles are opaque): the alpha byte of the result is not
   relied upon. */

typedef struct {
    uint32_t *pixels;
    int32_t width, height, stride;
} mp_target;

typedef struct {
    const uint32_t *pixels;
    int32_t width, height, stride;
} mp_image;

/* A box of whole pixels, x0 <= x < x1, y0 <= y < y1. */
typedef struct {
    int32_t x0, y0, x1, y1;
} mp_box;

enum {
    /* Every source pixel has alpha 255 (tiles): drawn by copying where opacity is 255. */
    MP_OPAQUE = 1,
    /* Scaled copies are filtered (bilinear); else they take the nearest texel. */
    MP_FILTER = 2,
};

/* Draws the texels (sx, sy, sw, sh) of `src` onto the device rectangle (dx, dy, dw, dh),
   inside `clip` (already inside the target), at `opacity` 0…255. A pixel is drawn when its
   centre lies inside the rectangle; it samples the texel under its centre. Any doubles
   (huge, negative, NaN) are safe: only the clipped part is ever converted to integers. */
void mp_draw_image(mp_target dst, mp_image src, double sx, double sy, double sw, double sh,
                   double dx, double dy, double dw, double dh, mp_box clip, uint32_t opacity, uint32_t flags);

/* The same image turned clockwise by `degrees` about the centre (cx, cy) of a dw×dh
   rectangle, filtered: the pixels whose centres fall inside the turned rectangle. */
void mp_draw_rotated(mp_target dst, mp_image src, double sx, double sy, double sw, double sh,
                     double cx, double cy, double dw, double dh, double degrees, mp_box clip, uint32_t opacity);

/* Lays the premultiplied colour `argb` over the pixels of `box`. */
void mp_fill(mp_target dst, mp_box box, uint32_t argb);

/* Copies the pixels of `box` from `src` (the same size as the target). */
void mp_copy(mp_target dst, mp_image src, mp_box box);

#endif
