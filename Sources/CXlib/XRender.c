// The server-side frame (XRender.h): Xlib and RENDER requests on the window's own display.
#include "XRender.h"
#include "CXlib.h"

#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <X11/extensions/Xrender.h>
#include <math.h>
#include <string.h>
#include <stdlib.h>

struct mx_render {
    Display *display;
    Window window;
    int depth;
    XRenderPictFormat *window_format, *argb, *rgb;
    Pixmap frame;
    Picture frame_picture;
    // The window as a picture, and where draws go now: the frame, or (a frame in motion) the
    // window itself.
    Picture window_picture, target;
    int32_t width, height;
    GC window_gc, gc24, gc32;
    unsigned presents;
    // Solid alpha masks for faded draws, made when first needed.
    Picture alpha[256];
    // The clip boxes set on `clip_picture`, which do not overlap (none: count 0): a turned tile
    // drawn under them is rasterized only where they are, box by box (the server makes its
    // triangles' mask whole otherwise, however little of it the clip lets through).
    mp_box *clips;
    int32_t clip_count;
    Picture clip_picture;
};

mx_render *mx_render_open(void *display, unsigned long window) {
    if (!display || !window) return NULL;
    Display *d = display;
    int event_base, error_base, major = 0, minor = 0;
    if (!XRenderQueryExtension(d, &event_base, &error_base) || !XRenderQueryVersion(d, &major, &minor)) return NULL;
    if (major == 0 && minor < 10) return NULL; // solid fills, filters and transforms
    int opcode = 0, first_event = 0, first_error = 0;
    if (!XQueryExtension(d, "RENDER", &opcode, &first_event, &first_error)) return NULL;
    XWindowAttributes a;
    if (!XGetWindowAttributes(d, (Window)window, &a)) return NULL;
    XRenderPictFormat *wf = XRenderFindVisualFormat(d, a.visual);
    XRenderPictFormat *argb = XRenderFindStandardFormat(d, PictStandardARGB32);
    XRenderPictFormat *rgb = XRenderFindStandardFormat(d, PictStandardRGB24);
    if (!wf || !argb || !rgb) return NULL;
    mx_render *r = calloc(1, sizeof *r);
    if (!r) return NULL;
    r->display = d;
    r->window = (Window)window;
    r->depth = a.depth;
    r->window_format = wf;
    r->argb = argb;
    r->rgb = rgb;
    XGCValues v = {.graphics_exposures = False};
    r->window_gc = XCreateGC(d, r->window, GCGraphicsExposures, &v);
    r->window_picture = XRenderCreatePicture(d, r->window, wf, 0, NULL);
    meridian_watch_server_frames(d, opcode);
    return r;
}

static void free_frame(mx_render *r) {
    if (r->frame_picture) XRenderFreePicture(r->display, r->frame_picture);
    if (r->frame) XFreePixmap(r->display, r->frame);
    r->frame_picture = 0;
    r->frame = 0;
    r->target = 0;
}

// Where draws go: the frame unless mx_render_on_window asked for the window.
static Picture target(mx_render *r) { return r->target ? r->target : r->frame_picture; }

void mx_render_on_window(mx_render *r, int on) {
    if (!r || !r->display) return;
    r->target = on && r->window_picture ? r->window_picture : 0;
}

void mx_render_close(mx_render *r) {
    if (!r || !r->display) return;
    free_frame(r);
    // The window's picture is not freed here: the server frees it with the window, which may
    // already be gone (a frame let go after its window is answered BadPicture).
    r->window_picture = 0;
    for (int i = 0; i < 256; i++) if (r->alpha[i]) XRenderFreePicture(r->display, r->alpha[i]);
    if (r->window_gc) XFreeGC(r->display, r->window_gc);
    if (r->gc24) XFreeGC(r->display, r->gc24);
    if (r->gc32) XFreeGC(r->display, r->gc32);
    free(r->clips);
    r->clips = NULL;
    r->clip_count = 0;
    XSync(r->display, False);
    r->display = NULL;
}

void mx_render_free(mx_render *r) {
    mx_render_close(r);
    free(r);
}

int mx_render_resize(mx_render *r, int32_t width, int32_t height) {
    if (!r || !r->display || width <= 0 || height <= 0 || width > 32767 || height > 32767) return 0;
    if (r->frame && r->width == width && r->height == height) return 1;
    Pixmap p = XCreatePixmap(r->display, r->window, (unsigned)width, (unsigned)height, (unsigned)r->depth);
    Picture pic = XRenderCreatePicture(r->display, p, r->window_format, 0, NULL);
    if (r->frame) {
        int w = width < r->width ? width : r->width, h = height < r->height ? height : r->height;
        XCopyArea(r->display, r->frame, p, r->window_gc, 0, 0, (unsigned)w, (unsigned)h, 0, 0);
    }
    free_frame(r);
    r->frame = p;
    r->frame_picture = pic;
    r->width = width;
    r->height = height;
    // A new frame is the request a server short of memory refuses: known now, not frames later.
    return mx_render_sync(r);
}

int mx_render_sync(mx_render *r) {
    if (!r || !r->display) return 0;
    XSync(r->display, False);
    return !meridian_server_frames_failed();
}

unsigned long mx_picture_upload(mx_render *r, const uint32_t *pixels, int32_t width, int32_t height, int32_t stride, int opaque) {
    if (!r || !r->display || !pixels || width <= 0 || height <= 0 || width > 32767 || height > 32767 || stride < width) return 0;
    int depth = opaque ? 24 : 32;
    Pixmap p = XCreatePixmap(r->display, r->window, (unsigned)width, (unsigned)height, (unsigned)depth);
    GC *gc = opaque ? &r->gc24 : &r->gc32;
    if (!*gc) *gc = XCreateGC(r->display, p, 0, NULL);
    XImage image = {0};
    image.width = width;
    image.height = height;
    image.format = ZPixmap;
    image.data = (char *)pixels;
    // Words in this machine's order (Xlib swaps them for a server of the other order).
    const uint32_t one = 1;
    int order = *(const unsigned char *)&one == 1 ? LSBFirst : MSBFirst;
    image.byte_order = order;
    image.bitmap_unit = 32;
    image.bitmap_bit_order = order;
    image.bitmap_pad = 32;
    image.depth = depth;
    image.bytes_per_line = stride * 4;
    image.bits_per_pixel = 32;
    image.red_mask = 0xFF0000;
    image.green_mask = 0xFF00;
    image.blue_mask = 0xFF;
    if (!XInitImage(&image)) { XFreePixmap(r->display, p); return 0; }
    XPutImage(r->display, p, *gc, &image, 0, 0, 0, 0, (unsigned)width, (unsigned)height);
    Picture pic = XRenderCreatePicture(r->display, p, opaque ? r->rgb : r->argb, 0, NULL);
    // The picture holds the pixmap.
    XFreePixmap(r->display, p);
    return pic;
}

void mx_picture_free(mx_render *r, unsigned long picture) {
    if (r && r->display && picture) XRenderFreePicture(r->display, picture);
}

enum { max_clips = 256 };

void mx_render_clip(mx_render *r, const mp_box *boxes, int32_t count) {
    if (!r || !r->display || !r->frame_picture) return;
    r->clip_count = 0;
    if (count > 0 && count <= max_clips && !r->clips) r->clips = malloc(max_clips * sizeof *r->clips);
    // More boxes than that: the tiles are drawn whole, the server's clip alone keeps them in.
    if (count > 0 && count <= max_clips && r->clips) {
        memcpy(r->clips, boxes, (size_t)count * sizeof *boxes);
        r->clip_count = count;
        r->clip_picture = target(r);
    }
    if (count <= 0) {
        XRenderPictureAttributes a = {.clip_mask = None};
        XRenderChangePicture(r->display, target(r), CPClipMask, &a);
        return;
    }
    XRectangle *rects = malloc((size_t)count * sizeof *rects);
    if (!rects) return;
    for (int32_t i = 0; i < count; i++) {
        rects[i] = (XRectangle){(short)boxes[i].x0, (short)boxes[i].y0,
                                (unsigned short)(boxes[i].x1 - boxes[i].x0), (unsigned short)(boxes[i].y1 - boxes[i].y0)};
    }
    XRenderSetPictureClipRectangles(r->display, target(r), 0, 0, rects, count);
    free(rects);
}

static XRenderColor colour(uint32_t argb) {
    // 8-bit channels to 16-bit ones: ×257.
    return (XRenderColor){(unsigned short)(((argb >> 16) & 0xFF) * 257), (unsigned short)(((argb >> 8) & 0xFF) * 257),
                          (unsigned short)((argb & 0xFF) * 257), (unsigned short)((argb >> 24) * 257)};
}

static int in_frame(mx_render *r, mp_box *b) {
    if (b->x0 < 0) b->x0 = 0;
    if (b->y0 < 0) b->y0 = 0;
    if (b->x1 > r->width) b->x1 = r->width;
    if (b->y1 > r->height) b->y1 = r->height;
    return b->x1 > b->x0 && b->y1 > b->y0;
}

void mx_render_fill(mx_render *r, mp_box box, uint32_t argb, int replace) {
    if (!r || !r->display || !r->frame_picture || !in_frame(r, &box) || (argb == 0 && !replace)) return;
    XRenderColor c = colour(argb);
    XRenderFillRectangle(r->display, replace ? PictOpSrc : PictOpOver, target(r), &c, box.x0, box.y0,
                         (unsigned)(box.x1 - box.x0), (unsigned)(box.y1 - box.y0));
}

// The pixels whose centres lie in [from, to), inside [lo, hi): as CPixels' span.
static int span(double from, double to, int32_t lo, int32_t hi, int32_t *a, int32_t *b) {
    double f = fmax(from, lo), t = fmin(to, hi);
    if (!(t > f)) return 0;
    *a = (int32_t)ceil(f - 0.5);
    *b = (int32_t)ceil(t - 0.5);
    return *b > *a;
}

static Picture alpha_mask(mx_render *r, uint32_t opacity) {
    if (opacity >= 255) return None;
    if (!r->alpha[opacity]) {
        XRenderColor c = {0, 0, 0, (unsigned short)(opacity * 257)};
        r->alpha[opacity] = XRenderCreateSolidFill(r->display, &c);
    }
    return r->alpha[opacity];
}

static XFixed fixed(double v) { return (XFixed)lround(v * 65536.0); }

// Destination pixel centre (x + ½, y + ½) ↦ source point: u = a·x + b·y + c, v = d·x + e·y + f.
static void set_transform(mx_render *r, Picture p, double a, double b, double c, double d, double e, double f, int filter) {
    XTransform t = {{{fixed(a), fixed(b), fixed(c)}, {fixed(d), fixed(e), fixed(f)}, {0, 0, XDoubleToFixed(1)}}};
    XRenderSetPictureTransform(r->display, p, &t);
    XRenderSetPictureFilter(r->display, p, filter ? FilterBilinear : FilterNearest, NULL, 0);
}

void mx_render_draw(mx_render *r, unsigned long picture, double sx, double sy, double sw, double sh,
                    double dx, double dy, double dw, double dh, uint32_t opacity, uint32_t flags) {
    if (!r || !r->display || !r->frame_picture || !picture || opacity == 0) return;
    if (opacity > 255) opacity = 255;
    if (!isfinite(sx) || !isfinite(sy) || !isfinite(sw) || !isfinite(sh) || !isfinite(dx) || !isfinite(dy) || !isfinite(dw) ||
        !isfinite(dh) || !(sw > 0) || !(sh > 0) || !(dw > 0) || !(dh > 0))
        return;
    int32_t x0, x1, y0, y1;
    if (!span(dx, dx + dw, 0, r->width, &x0, &x1) || !span(dy, dy + dh, 0, r->height, &y0, &y1)) return;
    double kx = sw / dw, ky = sh / dh;
    int aligned = kx == 1.0 && ky == 1.0 && sx - dx == floor(sx - dx) && sy - dy == floor(sy - dy);
    int filter = (flags & MP_FILTER) && !aligned;
    int src_x = 0, src_y = 0;
    if (kx == 1.0 && ky == 1.0 && !filter && fabs(sx - dx) < 32767 && fabs(sy - dy) < 32767) {
        // A plain copy of the texels under the pixels' centres: no transform, and the server
        // takes its fastest path (a memcpy).
        set_transform(r, picture, 1, 0, 0, 0, 1, 0, 0);
        src_x = (int)floor(sx - dx + x0 + 0.5);
        src_y = (int)floor(sy - dy + y0 + 0.5);
    } else {
        // The server samples as CPixels does: the texel under a pixel's centre, or the four
        // around it. Coordinates are taken from (x0, y0), so that the 16.16 translation stays small.
        set_transform(r, picture, kx, 0, sx + (x0 - dx) * kx, 0, ky, sy + (y0 - dy) * ky, filter);
    }
    // Sprites fade out past their edges; tiles repeat their edge texels (as CPixels clamps).
    XRenderPictureAttributes a = {.repeat = (flags & MP_OPAQUE) ? RepeatPad : RepeatNone};
    XRenderChangePicture(r->display, picture, CPRepeat, &a);
    int op = (flags & MP_OPAQUE) && opacity == 255 ? PictOpSrc : PictOpOver;
    XRenderComposite(r->display, op, picture, alpha_mask(r, opacity), target(r), src_x, src_y, 0, 0, x0, y0,
                     (unsigned)(x1 - x0), (unsigned)(y1 - y0));
}

/* Checks a turned draw, finds the frame's pixels it may touch (x0, y0, x1, y1) and sets
   the picture's transform from source coordinates back into the unturned rectangle, then
   into texels; source coordinates are the frame's, less (x0, y0) when `from_box`. 0: nothing
   to draw. */
static int turned(mx_render *r, unsigned long picture, double sx, double sy, double sw, double sh, double cx, double cy,
                  double dw, double dh, double degrees, int filter, int from_box, int32_t box[4]) {
    if (!r || !r->display || !r->frame_picture || !picture) return 0;
    if (!isfinite(sx) || !isfinite(sy) || !isfinite(sw) || !isfinite(sh) || !isfinite(cx) || !isfinite(cy) || !isfinite(dw) ||
        !isfinite(dh) || !isfinite(degrees) || !(sw > 0) || !(sh > 0) || !(dw > 0) || !(dh > 0))
        return 0;
    double an = degrees * M_PI / 180, c = cos(an), s = sin(an);
    double hw = dw / 2, hh = dh / 2, ex = fabs(c) * hw + fabs(s) * hh, ey = fabs(s) * hw + fabs(c) * hh;
    if (!span(cx - ex, cx + ex, 0, r->width, &box[0], &box[2]) || !span(cy - ey, cy + ey, 0, r->height, &box[1], &box[3])) return 0;
    double kx = sw / dw, ky = sh / dh;
    if (from_box) { cx -= box[0]; cy -= box[1]; }
    // lx = (x − cx)·c + (y − cy)·s + hw, ly = −(x − cx)·s + (y − cy)·c + hh, then texels.
    set_transform(r, picture, c * kx, s * kx, sx + (hw - cx * c - cy * s) * kx,
                  -s * ky, c * ky, sy + (hh + cx * s - cy * c) * ky, filter);
    return 1;
}

void mx_render_draw_rotated(mx_render *r, unsigned long picture, double sx, double sy, double sw, double sh,
                            double cx, double cy, double dw, double dh, double degrees, uint32_t opacity) {
    if (opacity == 0) return;
    if (opacity > 255) opacity = 255;
    int32_t b[4];
    // Source coordinates from the box's corner, as the composite below places it.
    if (!turned(r, picture, sx, sy, sw, sh, cx, cy, dw, dh, degrees, 1, 1, b)) return;
    XRenderPictureAttributes a = {.repeat = RepeatNone};
    XRenderChangePicture(r->display, picture, CPRepeat, &a);
    XRenderComposite(r->display, PictOpOver, picture, alpha_mask(r, opacity), target(r), 0, 0, 0, 0, b[0], b[1],
                     (unsigned)(b[2] - b[0]), (unsigned)(b[3] - b[1]));
}

/* The convex polygon (x, y) of 4 vertices cut to the box [x0, x1] × [y0, y1], in place
   (room for 8); returns its vertices left (fewer than 3: nothing). */
static int clip_quad(double *x, double *y, double x0, double y0, double x1, double y1) {
    int n = 4;
    for (int side = 0; side < 4 && n >= 3; side++) {
        double ox[8], oy[8];
        int m = 0;
        for (int i = 0; i < n; i++) {
            int j = (i + 1) % n;
            // Signed distance inside the side's line: left, top, right, bottom.
            double di = side == 0 ? x[i] - x0 : side == 1 ? y[i] - y0 : side == 2 ? x1 - x[i] : y1 - y[i];
            double dj = side == 0 ? x[j] - x0 : side == 1 ? y[j] - y0 : side == 2 ? x1 - x[j] : y1 - y[j];
            if (di >= 0 && m < 8) { ox[m] = x[i]; oy[m] = y[i]; m++; }
            if ((di < 0) != (dj < 0) && m < 8) {
                double k = di / (di - dj);
                ox[m] = x[i] + (x[j] - x[i]) * k;
                oy[m] = y[i] + (y[j] - y[i]) * k;
                // Exactly on the line (a whole pixel's edge): the mask's coverage there is whole.
                if (side == 0) ox[m] = x0; else if (side == 1) oy[m] = y0; else if (side == 2) ox[m] = x1; else oy[m] = y1;
                m++;
            }
        }
        n = m;
        for (int i = 0; i < n; i++) { x[i] = ox[i]; y[i] = oy[i]; }
    }
    return n;
}

/* The convex polygon (x, y) of n ≤ 8 vertices drawn as a fan of triangles from its first. */
static void composite_quad(mx_render *r, unsigned long picture, const double *x, const double *y, int n) {
    XTriangle t[6];
    XPointFixed p[8];
    if (n < 3 || n > 8) return;
    for (int i = 0; i < n; i++) { p[i].x = XDoubleToFixed(x[i]); p[i].y = XDoubleToFixed(y[i]); }
    for (int i = 0; i + 2 < n; i++) { t[i].p1 = p[0]; t[i].p2 = p[i + 1]; t[i].p3 = p[i + 2]; }
    // The server lines the source's (xSrc, ySrc) up with the first vertex's whole pixel:
    // given that pixel, source and frame coordinates are the same.
    XRenderCompositeTriangles(r->display, PictOpOver, picture, target(r), XRenderFindStandardFormat(r->display, PictStandardA8),
                              (int)(p[0].x >> 16), (int)(p[0].y >> 16), t, n - 2);
}

/* The turned tile's pixels inside the box [x0, x1) × [y0, y1), unfiltered: the pixels whose
   centres it holds take their texel and the others are left as they are (no repeat: outside
   the tile the picture is transparent), as CPixels draws it. No mask: the server composites
   the bounds of the tile's part of the box. (px, py): the tile's corners. */
static void composite_nearest(mx_render *r, unsigned long picture, const double *px, const double *py, int32_t x0, int32_t y0,
                              int32_t x1, int32_t y1) {
    double vx[8], vy[8];
    for (int k = 0; k < 4; k++) { vx[k] = px[k]; vy[k] = py[k]; }
    int n = clip_quad(vx, vy, x0, y0, x1, y1);
    if (n < 3) return;
    double bx0 = vx[0], bx1 = vx[0], by0 = vy[0], by1 = vy[0];
    for (int k = 1; k < n; k++) {
        bx0 = fmin(bx0, vx[k]); bx1 = fmax(bx1, vx[k]);
        by0 = fmin(by0, vy[k]); by1 = fmax(by1, vy[k]);
    }
    // Whole pixels, one more each way: a centre a hair outside the part is the tile's or the
    // neighbour's by the transform, not by this box.
    int32_t ix0 = (int32_t)floor(bx0) - 1, iy0 = (int32_t)floor(by0) - 1, ix1 = (int32_t)ceil(bx1) + 1, iy1 = (int32_t)ceil(by1) + 1;
    if (ix0 < x0) ix0 = x0;
    if (iy0 < y0) iy0 = y0;
    if (ix1 > x1) ix1 = x1;
    if (iy1 > y1) iy1 = y1;
    if (ix1 <= ix0 || iy1 <= iy0) return;
    // Source coordinates are the frame's own (as `turned` set them with from_box 0).
    XRenderComposite(r->display, PictOpOver, picture, None, target(r), ix0, iy0, 0, 0, ix0, iy0, (unsigned)(ix1 - ix0), (unsigned)(iy1 - iy0));
}

/* The corners (px, py) of a hw × hh half-size rectangle centred on (cx, cy), turned by the
   angle whose cosine and sine are c and s. */
static void turned_corners(double cx, double cy, double hw, double hh, double c, double s, double *px, double *py) {
    const double ux[4] = {-1, 1, 1, -1}, uy[4] = {-1, -1, 1, 1};
    for (int i = 0; i < 4; i++) {
        double lx = ux[i] * hw, ly = uy[i] * hh;
        px[i] = cx + lx * c - ly * s;
        py[i] = cy + lx * s + ly * c;
    }
}

/* Rows of the frame a turned tile is composited in unfiltered, each with its own bounds: a
   tile turned 30° fills 53 % of its bounding box, and 90 % of 64-row bands' boxes. */
enum { nearest_band = 64 };

void mx_render_draw_turned(mx_render *r, unsigned long picture, double sx, double sy, double sw, double sh,
                           double cx, double cy, double dw, double dh, double degrees, int filter, double outset, int whole) {
    double an = degrees * M_PI / 180, c = cos(an), s = sin(an);
    if (!filter && whole) {
        // Unfiltered (a map in motion): each pixel is one tile's, by its centre, so neither
        // antialiased edges nor an overlap are needed, nor the mask the server would draw
        // them with (rasterizing it cost the server more than all the rest of a turned pan).
        // Only for a whole picture: outside it nothing is drawn (no repeat), but outside part
        // of an ancestor's lie its neighbours' texels, which a mask keeps out.
        int32_t b[4];
        if (!turned(r, picture, sx, sy, sw, sh, cx, cy, dw, dh, degrees, 0, 0, b)) return;
        XRenderPictureAttributes a = {.repeat = RepeatNone};
        XRenderChangePicture(r->display, picture, CPRepeat, &a);
        double px[4], py[4];
        turned_corners(cx, cy, dw / 2, dh / 2, c, s, px, py);
        int clipped = r->clip_count > 0 && r->clip_picture == target(r);
        mp_box bounds = {b[0], b[1], b[2], b[3]};
        int32_t boxes = clipped ? r->clip_count : 1;
        for (int32_t i = 0; i < boxes; i++) {
            mp_box k = clipped ? r->clips[i] : bounds;
            // The box's part within the tile's bounds, band by band.
            int32_t x0 = k.x0 > b[0] ? k.x0 : b[0], x1 = k.x1 < b[2] ? k.x1 : b[2];
            int32_t y0 = k.y0 > b[1] ? k.y0 : b[1], y1 = k.y1 < b[3] ? k.y1 : b[3];
            for (int32_t y = y0; y < y1; y += nearest_band) {
                composite_nearest(r, picture, px, py, x0, y, x1, y + nearest_band < y1 ? y + nearest_band : y1);
            }
        }
        return;
    }
    // `outset` wider each way than the tile, its edge texels repeated: opaque neighbours'
    // antialiased edges overlap instead of leaving a seam between them.
    if (!(outset >= 0 && outset <= 1)) outset = 0;
    double px[4], py[4];
    turned_corners(cx, cy, dw / 2 + outset, dh / 2 + outset, c, s, px, py);
    for (int i = 0; i < 4; i++) {
        // Triangles are 16.16 fixed point: a tile magnified past that is drawn as a sprite.
        if (!(fabs(px[i]) <= 30000) || !(fabs(py[i]) <= 30000)) {
            mx_render_draw_rotated(r, picture, sx, sy, sw, sh, cx, cy, dw, dh, degrees, 255);
            return;
        }
    }
    int32_t b[4];
    // Source coordinates are the frame's own (see composite_quad).
    if (!turned(r, picture, sx, sy, sw, sh, cx, cy, dw, dh, degrees, filter, 0, b)) return;
    XRenderPictureAttributes a = {.repeat = RepeatPad};
    XRenderChangePicture(r->display, picture, CPRepeat, &a);
    if (r->clip_count <= 0 || r->clip_picture != target(r)) {
        composite_quad(r, picture, px, py, 4);
        return;
    }
    // Under a clip (a sliding map's strips, what changed): the tile cut to each box it meets,
    // drawn box by box (the boxes do not overlap, so no pixel is drawn twice).
    double qx0 = fmin(fmin(px[0], px[1]), fmin(px[2], px[3])), qx1 = fmax(fmax(px[0], px[1]), fmax(px[2], px[3]));
    double qy0 = fmin(fmin(py[0], py[1]), fmin(py[2], py[3])), qy1 = fmax(fmax(py[0], py[1]), fmax(py[2], py[3]));
    for (int32_t i = 0; i < r->clip_count; i++) {
        mp_box c = r->clips[i];
        if (c.x1 <= qx0 || qx1 <= c.x0 || c.y1 <= qy0 || qy1 <= c.y0) continue;
        if (c.x0 <= qx0 && qx1 <= c.x1 && c.y0 <= qy0 && qy1 <= c.y1) {
            composite_quad(r, picture, px, py, 4);
            continue;
        }
        double vx[8], vy[8];
        for (int k = 0; k < 4; k++) { vx[k] = px[k]; vy[k] = py[k]; }
        int n = clip_quad(vx, vy, c.x0, c.y0, c.x1, c.y1);
        if (n >= 3) composite_quad(r, picture, vx, vy, n);
    }
}

void mx_render_scroll(mx_render *r, int32_t dx, int32_t dy) {
    if (!r || !r->display || !r->window) return;
    int32_t w = r->width - (dx < 0 ? -dx : dx), h = r->height - (dy < 0 ? -dy : dy);
    if (w <= 0 || h <= 0) return;
    // One copy within the window (the server handles the overlap), as X scrolls a window.
    XCopyArea(r->display, r->window, r->window, r->window_gc, dx < 0 ? -dx : 0, dy < 0 ? -dy : 0, (unsigned)w, (unsigned)h,
              dx > 0 ? dx : 0, dy > 0 ? dy : 0);
}

void mx_render_present(mx_render *r, const mp_box *boxes, int32_t count) {
    if (!r || !r->display || !r->frame) return;
    // Drawn on the window already: nothing to copy.
    if (r->target) count = 0;
    r->target = 0;
    for (int32_t i = 0; i < count; i++) {
        mp_box b = boxes[i];
        if (!in_frame(r, &b)) continue;
        XCopyArea(r->display, r->frame, r->window, r->window_gc, b.x0, b.y0, (unsigned)(b.x1 - b.x0), (unsigned)(b.y1 - b.y0), b.x0, b.y0);
    }
    // A round trip costs the app a sleep and a wake-up, each frame: the requests are sent
    // now and every fourth present waits for the server, so a server slower than the frames
    // holds back at most a few of them.
    if (++r->presents % 4 == 0) XSync(r->display, False);
    else XFlush(r->display);
}
