// The software compositor's inner loops: copies, scaled copies and blends of 32-bit
// premultiplied pixels, in C with SSE2 (Rows.h). A scaled 1920×1080 frame of distinct tiles
// costs 1.5–1.7 ms of CPU here on its own; in the app, where tile workers share the memory
// bus, about twice that.
#include "CPixels.h"
#include "Rows.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static inline int32_t clampi(double v, int32_t lo, int32_t hi) {
    if (!(v >= lo)) return lo; // NaN too
    if (v > hi) return hi;
    return (int32_t)v;
}

static int finite8(double a, double b, double c, double d, double e, double f, double g, double h) {
    return isfinite(a) && isfinite(b) && isfinite(c) && isfinite(d) && isfinite(e) && isfinite(f) && isfinite(g) && isfinite(h);
}

// The clip box inside the target.
static mp_box inside(mp_box c, mp_target dst) {
    if (c.x0 < 0) c.x0 = 0;
    if (c.y0 < 0) c.y0 = 0;
    if (c.x1 > dst.width) c.x1 = dst.width;
    if (c.y1 > dst.height) c.y1 = dst.height;
    return c;
}

// The pixels whose centres lie in [from, to): ceil(from − ½) ..< ceil(to − ½).
static int span(double from, double to, int32_t lo, int32_t hi, int32_t *a, int32_t *b) {
    double f = fmax(from, lo), t = fmin(to, hi);
    if (!(t > f)) return 0;
    *a = (int32_t)ceil(f - 0.5);
    *b = (int32_t)ceil(t - 0.5);
    return *b > *a;
}

static void draw_nearest(mp_target dst, mp_image src, double sx, double sy, double kx, double ky, double dx, double dy,
                         int32_t x0, int32_t x1, int32_t y0, int32_t y1, uint32_t opacity, int opaque) {
    int32_t n = x1 - x0;
    int32_t *ix = malloc((size_t)n * sizeof *ix);
    uint32_t *row = malloc((size_t)n * sizeof *row);
    if (!ix || !row) { free(ix); free(row); return; }
    for (int32_t i = 0; i < n; i++) ix[i] = clampi(floor(sx + (x0 + i + 0.5 - dx) * kx), 0, src.width - 1);
    // A 1:1 copy reads a run of source pixels as it is.
    int contiguous = kx == 1.0 && ix[n - 1] - ix[0] == n - 1;
    int32_t previous = -1;
    uint32_t *last = NULL;
    for (int32_t y = y0; y < y1; y++) {
        int32_t r = clampi(floor(sy + (y + 0.5 - dy) * ky), 0, src.height - 1);
        uint32_t *out = dst.pixels + (size_t)y * dst.stride + x0;
        const uint32_t *s = src.pixels + (size_t)r * src.stride;
        if (opaque && opacity == 255 && r == previous) {
            // Magnified: this row repeats the one above.
            memcpy(out, last, (size_t)n * 4);
        } else if (contiguous) {
            put_row(out, s + ix[0], n, opacity, opaque);
        } else if (opaque && opacity == 255) {
            for (int32_t i = 0; i < n; i++) out[i] = s[ix[i]];
        } else {
            for (int32_t i = 0; i < n; i++) row[i] = s[ix[i]];
            put_row(out, row, n, opacity, opaque);
        }
        previous = r;
        last = out;
    }
    free(ix);
    free(row);
}

// Bilinear: each source row needed is filtered across once (two are kept), then each output
// row is the blend of the two around it.
static void draw_filtered(mp_target dst, mp_image src, double sx, double sy, double kx, double ky, double dx, double dy,
                          int32_t x0, int32_t x1, int32_t y0, int32_t y1, uint32_t opacity, int opaque) {
    int32_t n = x1 - x0;
    int32_t *i0 = malloc((size_t)n * sizeof *i0), *i1 = malloc((size_t)n * sizeof *i1);
    uint32_t *wx = malloc((size_t)n * sizeof *wx);
    uint16_t *w16 = malloc((size_t)n * 4 * sizeof *w16);
    uint32_t *ha = malloc((size_t)n * 4), *hb = malloc((size_t)n * 4), *row = malloc((size_t)n * 4);
    if (!i0 || !i1 || !wx || !w16 || !ha || !hb || !row) goto done;
    for (int32_t i = 0; i < n; i++) {
        double u = sx + (x0 + i + 0.5 - dx) * kx - 0.5, t = floor(u);
        i0[i] = clampi(t, 0, src.width - 1);
        i1[i] = clampi(t + 1, 0, src.width - 1);
        wx[i] = (uint32_t)((u - t) * 256 + 0.5);
        for (int c = 0; c < 4; c++) w16[4 * i + c] = (uint16_t)wx[i];
    }
    int32_t ra = -1, rb = -1;
    for (int32_t y = y0; y < y1; y++) {
        double v = sy + (y + 0.5 - dy) * ky - 0.5, t = floor(v);
        int32_t r0 = clampi(t, 0, src.height - 1), r1 = clampi(t + 1, 0, src.height - 1);
        uint32_t wy = (uint32_t)((v - t) * 256 + 0.5);
        if (ra != r0) {
            if (rb == r0) {
                uint32_t *tmp = ha; ha = hb; hb = tmp;
                rb = ra; ra = r0;
            } else {
                filter_row(ha, src.pixels + (size_t)r0 * src.stride, i0, i1, wx, w16, n);
                ra = r0;
            }
        }
        if (rb != r1) {
            filter_row(hb, src.pixels + (size_t)r1 * src.stride, i0, i1, wx, w16, n);
            rb = r1;
        }
        uint32_t *out = dst.pixels + (size_t)y * dst.stride + x0;
        if (wy == 0 || r0 == r1) {
            put_row(out, ha, n, opacity, opaque);
        } else {
            lerp_row(row, ha, hb, n, wy);
            put_row(out, row, n, opacity, opaque);
        }
    }
done:
    free(i0); free(i1); free(wx); free(w16); free(ha); free(hb); free(row);
}

void mp_draw_image(mp_target dst, mp_image src, double sx, double sy, double sw, double sh,
                   double dx, double dy, double dw, double dh, mp_box clip, uint32_t opacity, uint32_t flags) {
    if (opacity == 0 || !src.pixels || !dst.pixels || src.width <= 0 || src.height <= 0) return;
    if (opacity > 255) opacity = 255;
    if (!finite8(sx, sy, sw, sh, dx, dy, dw, dh) || !(sw > 0) || !(sh > 0) || !(dw > 0) || !(dh > 0)) return;
    mp_box b = inside(clip, dst);
    int32_t x0, x1, y0, y1;
    if (!span(dx, dx + dw, b.x0, b.x1, &x0, &x1) || !span(dy, dy + dh, b.y0, b.y1, &y0, &y1)) return;
    double kx = sw / dw, ky = sh / dh;
    if (!isfinite(kx) || !isfinite(ky)) return;
    int opaque = (flags & MP_OPAQUE) != 0;
    // At 1:1 on whole texels a filter changes nothing.
    int aligned = kx == 1.0 && ky == 1.0 && sx - dx == floor(sx - dx) && sy - dy == floor(sy - dy);
    if ((flags & MP_FILTER) && !aligned)
        draw_filtered(dst, src, sx, sy, kx, ky, dx, dy, x0, x1, y0, y1, opacity, opaque);
    else
        draw_nearest(dst, src, sx, sy, kx, ky, dx, dy, x0, x1, y0, y1, opacity, opaque);
}

// A texel of the rectangle [rx0, rx1) × [ry0, ry1), the nearest edge texel outside it.
static inline uint32_t texel(mp_image src, int32_t x, int32_t y, int32_t rx0, int32_t ry0, int32_t rx1, int32_t ry1) {
    x = x < rx0 ? rx0 : x >= rx1 ? rx1 - 1 : x;
    y = y < ry0 ? ry0 : y >= ry1 ? ry1 - 1 : y;
    return src.pixels[(size_t)y * src.stride + x];
}

void mp_draw_rotated(mp_target dst, mp_image src, double sx, double sy, double sw, double sh,
                     double cx, double cy, double dw, double dh, double degrees, mp_box clip, uint32_t opacity) {
    if (opacity == 0 || !src.pixels || !dst.pixels || src.width <= 0 || src.height <= 0) return;
    if (opacity > 255) opacity = 255;
    if (!finite8(sx, sy, sw, sh, cx, cy, dw, dh) || !isfinite(degrees) || !(sw > 0) || !(sh > 0) || !(dw > 0) || !(dh > 0)) return;
    double a = degrees * M_PI / 180, c = cos(a), s = sin(a);
    double hw = dw / 2, hh = dh / 2;
    double ex = fabs(c) * hw + fabs(s) * hh, ey = fabs(s) * hw + fabs(c) * hh;
    mp_box b = inside(clip, dst);
    int32_t x0, x1, y0, y1;
    if (!span(cx - ex, cx + ex, b.x0, b.x1, &x0, &x1) || !span(cy - ey, cy + ey, b.y0, b.y1, &y0, &y1)) return;
    int32_t rx0 = clampi(floor(sx), 0, src.width - 1), rx1 = clampi(ceil(sx + sw), rx0 + 1, src.width);
    int32_t ry0 = clampi(floor(sy), 0, src.height - 1), ry1 = clampi(ceil(sy + sh), ry0 + 1, src.height);
    double kx = sw / dw, ky = sh / dh;
    for (int32_t y = y0; y < y1; y++) {
        uint32_t *out = dst.pixels + (size_t)y * dst.stride;
        double py = y + 0.5 - cy;
        for (int32_t x = x0; x < x1; x++) {
            double px = x + 0.5 - cx;
            // Back into the unturned rectangle: turned counter-clockwise.
            double lx = px * c + py * s + hw, ly = -px * s + py * c + hh;
            // Pixels whose centres fall in the turned rectangle, filtered inside the source.
            if (!(lx >= 0) || !(ly >= 0) || !(lx < dw) || !(ly < dh)) continue;
            double u = sx + lx * kx - 0.5, v = sy + ly * ky - 0.5;
            double tu = floor(u), tv = floor(v);
            int32_t iu = clampi(tu, rx0 - 1, rx1), iv = clampi(tv, ry0 - 1, ry1);
            uint32_t wu = (uint32_t)((u - tu) * 256 + 0.5), wv = (uint32_t)((v - tv) * 256 + 0.5);
            uint32_t top = lerp(texel(src, iu, iv, rx0, ry0, rx1, ry1), texel(src, iu + 1, iv, rx0, ry0, rx1, ry1), wu);
            uint32_t bottom = lerp(texel(src, iu, iv + 1, rx0, ry0, rx1, ry1), texel(src, iu + 1, iv + 1, rx0, ry0, rx1, ry1), wu);
            uint32_t p = lerp(top, bottom, wv);
            if (!p) continue;
            out[x] = over(out[x], opacity == 255 ? p : mul(p, opacity));
        }
    }
}

void mp_fill(mp_target dst, mp_box box, uint32_t argb) {
    mp_box b = inside(box, dst);
    if (b.x1 <= b.x0 || b.y1 <= b.y0 || !dst.pixels || argb == 0) return;
    int32_t n = b.x1 - b.x0;
    uint32_t ia = 255 - (argb >> 24);
    for (int32_t y = b.y0; y < b.y1; y++) {
        uint32_t *out = dst.pixels + (size_t)y * dst.stride + b.x0;
        if (ia == 0) for (int32_t i = 0; i < n; i++) out[i] = argb;
        else for (int32_t i = 0; i < n; i++) out[i] = argb + mul(out[i], ia);
    }
}

void mp_copy(mp_target dst, mp_image src, mp_box box) {
    mp_box b = inside(box, dst);
    if (b.x1 > src.width) b.x1 = src.width;
    if (b.y1 > src.height) b.y1 = src.height;
    if (b.x1 <= b.x0 || b.y1 <= b.y0 || !dst.pixels || !src.pixels) return;
    for (int32_t y = b.y0; y < b.y1; y++)
        memcpy(dst.pixels + (size_t)y * dst.stride + b.x0, src.pixels + (size_t)y * src.stride + b.x0, (size_t)(b.x1 - b.x0) * 4);
}
