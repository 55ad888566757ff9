#!/usr/bin/env python3
"""Compare Meridian's `render` with MapLibre Native (through PyPI `mapli`) on the same views.

For each style (OSM Bright from Tests/Fixtures/styles, and Meridian's built-in
Resources/styles/streets.json) and each view (a centre and a Meridian zoom; MapLibre is
given zoom - 1, because Meridian counts 256-pixel tiles and MapLibre 512-pixel ones), at
1024x768 and pixel ratio 1, it measures:

  1. MapLibre cold: wall and process CPU time (time.process_time, which counts every
     thread of this process: MapLibre's workers, Mesa llvmpipe's threads, the tile
     handler) of the first render of the view on a fresh map: a style id registered for
     that render only, so MapLibre loads the style, requests and parses the tiles, lays
     out the symbols and draws. Median of --reps fresh maps. One-time process costs
     (creating the render pool and its EGL/GL context, the first render in the process,
     the untimed priming pass) are reported separately under "startup".
  2. MapLibre warm: the same map rendered again at zoom + 0.5 (tiles already loaded),
     and, in the JSON only, at the same zoom again ("repeat").
  3. Meridian: wall time and CPU time (user + sys from os.wait4) of one
     `meridian render` process for the view, median of --reps runs (after one untimed
     warm-up run per style).
  4. Pixels differing: the share of pixels where any RGBA channel differs by more than
     24 of 255, once with labels (full styles) and once without (Meridian --no-labels;
     MapLibre with every `symbol` layer removed). Also given without the corners where
     Meridian's PNG has its window controls (source button, search, zoom buttons, scale
     bar, attribution), which MapLibre does not draw, and only inside the tileset's
     `bounds` (metadata), outside which Meridian and MapLibre fill the empty map
     differently.

Each view is drawn north-up and turned (--bearings, default 0 and 30 degrees: MapLibre's
bearing, Meridian's --bearing, the same meaning), so that what turning costs in agreement
shows beside what is apart north-up. A turned view's data bounds are the turned rectangle.

Meridian is run from a copy of the binary taken when its turn comes (with a link to
Resources/ beside it, where it looks for its built-in style), so that a rebuild during
the run cannot mix two builds; the JSON records the copy's SHA-1.

MapLibre is served offline: the style's vector source is rewritten to a scheme handler
that reads (and gunzips) tiles from the .mbtiles file, the sprite is removed (it is on
the web; Meridian leaves icons out too when it cannot fetch it), and glyphs are made by
this script: signed-distance-field glyph PBFs drawn with Pillow/FreeType from the local
TrueType fonts that fontconfig picks for each font stack (e.g. Noto Sans), cached under
/tmp/maplibre-compare-glyphs. Without Pillow, MapLibre gets empty glyph PBFs, draws no
text, and the JSON says labels_compared = false.

Run (from the repository root, after `swift build -c release`):

    EGL_PLATFORM=surfaceless python3 scripts/maplibre-compare.py --json /tmp/compare/compare.json

Options: --meridian PATH, --tiles MBTILES, --zooms 15,16,16.5,17,18,
--centre LAT,LON (repeatable), --bearings 0,30, --reps 3, --pair-zoom 16 (the view saved side by side),
--out-dir /tmp/compare. Side-by-side pictures (Meridian left, MapLibre right) and
difference masks go to --out-dir, every render to --out-dir/renders. Needs `mapli`
(pip install mapli); Pillow is optional (a slow pure-Python PNG path is used without it).
"""

import argparse
import gzip
import hashlib
import json
import math
import os
import shutil
import sqlite3
import statistics
import struct
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import zlib

# No GPU here: Mesa's software GL through EGL without a display. Must be set before mapli.
os.environ.setdefault("EGL_PLATFORM", "surfaceless")

import mapli  # noqa: E402

try:
    from PIL import Image, ImageChops, ImageDraw, ImageFont  # noqa: E402
    HAVE_PIL = True
except ImportError:  # pragma: no cover - depends on the machine
    HAVE_PIL = False

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCHEME = "mlcompare"
THRESHOLD = 24
WIDTH, HEIGHT = 1024, 768

# Corners of Meridian's PNG holding its window controls, as (corner, width, height) in
# pixels at scale 1: source menu (top left), search + zoom + help buttons (top right),
# scale bar (bottom left), attribution (bottom right).
CHROME = [("tl", 126, 42), ("tr", 82, 163), ("bl", 160, 35), ("br", 296, 18)]


# --------------------------------------------------------------------------- PNG
def png_decode(data):
    """(width, height, RGBA bytes) of a PNG; 8-bit RGB/RGBA/grey, not interlaced."""
    if HAVE_PIL:
        import io
        im = Image.open(io.BytesIO(data)).convert("RGBA")
        return im.size[0], im.size[1], im.tobytes()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat, w = 8, [], None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            w, h, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
            if depth != 8 or interlace or ctype not in (0, 2, 4, 6):
                raise ValueError("unsupported PNG (depth %d, colour type %d)" % (depth, ctype))
            bpp = {0: 1, 2: 3, 4: 2, 6: 4}[ctype]
        elif kind == b"IDAT":
            idat.append(body)
        elif kind == b"IEND":
            break
    raw = zlib.decompress(b"".join(idat))
    stride = w * bpp
    out = bytearray(h * stride)
    prev = bytearray(stride)
    p = 0
    for y in range(h):
        ftype = raw[p]
        line = bytearray(raw[p + 1:p + 1 + stride])
        p += 1 + stride
        if ftype == 1:
            for i in range(bpp, stride):
                line[i] = (line[i] + line[i - bpp]) & 255
        elif ftype == 2:
            for i in range(stride):
                line[i] = (line[i] + prev[i]) & 255
        elif ftype == 3:
            for i in range(stride):
                left = line[i - bpp] if i >= bpp else 0
                line[i] = (line[i] + ((left + prev[i]) >> 1)) & 255
        elif ftype == 4:
            for i in range(stride):
                a = line[i - bpp] if i >= bpp else 0
                b = prev[i]
                c = prev[i - bpp] if i >= bpp else 0
                pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[i] = (line[i] + pred) & 255
        out[y * stride:(y + 1) * stride] = line
        prev = line
    if bpp == 4:
        return w, h, bytes(out)
    rgba = bytearray(w * h * 4)
    for i in range(w * h):
        if bpp == 3:
            rgba[4 * i:4 * i + 3] = out[3 * i:3 * i + 3]
            rgba[4 * i + 3] = 255
        elif bpp == 1:
            v = out[i]
            rgba[4 * i:4 * i + 4] = bytes((v, v, v, 255))
        else:
            v = out[2 * i]
            rgba[4 * i:4 * i + 4] = bytes((v, v, v, out[2 * i + 1]))
    return w, h, bytes(rgba)


def png_encode(w, h, rgba):
    """A PNG (8-bit RGBA, no filtering) of `rgba`."""
    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
    stride = w * 4
    raw = b"".join(b"\x00" + rgba[y * stride:(y + 1) * stride] for y in range(h))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw, 6)) + chunk(b"IEND", b""))


def chrome_rects(w, h):
    rects = []
    for corner, cw, ch in CHROME:
        x0 = 0 if corner[1] == "l" else w - cw
        y0 = 0 if corner[0] == "t" else h - ch
        rects.append((x0, y0, x0 + cw, y0 + ch))
    return rects


def _row_spans(w, h, include, exclude):
    """Per row, the [x0, x1) spans of `include` (a rect, or None: the image) not in `exclude`."""
    x0, y0, x1, y1 = include or (0, 0, w, h)
    x0, y0, x1, y1 = max(0, x0), max(0, y0), min(w, x1), min(h, y1)
    for y in range(y0, y1):
        spans = [(x0, x1)] if x1 > x0 else []
        for ex0, ey0, ex1, ey1 in exclude:
            if ey0 <= y < ey1:
                cut = []
                for a, b in spans:
                    if ex1 <= a or ex0 >= b:
                        cut.append((a, b))
                    else:
                        if a < ex0:
                            cut.append((a, ex0))
                        if ex1 < b:
                            cut.append((ex1, b))
                spans = cut
        for a, b in spans:
            yield y, a, b


def _poly_row_spans(w, h, poly, exclude):
    """Per row, the [x0, x1) spans of the convex polygon `poly` (pixel centres inside) not in `exclude`."""
    ys = [p[1] for p in poly]
    for y in range(max(0, int(math.floor(min(ys)))), min(h, int(math.ceil(max(ys))) + 1)):
        yc = y + 0.5
        xs = []
        for (x0, y0), (x1, y1) in zip(poly, poly[1:] + poly[:1]):
            if (y0 <= yc < y1) or (y1 <= yc < y0):
                xs.append(x0 + (yc - y0) * (x1 - x0) / (y1 - y0))
        if len(xs) < 2:
            continue
        a, b = max(0, int(math.ceil(min(xs) - 0.5))), min(w, int(math.floor(max(xs) - 0.5)) + 1)
        if b <= a:
            continue
        for yy, sa, sb in _row_spans(w, h, (a, y, b, y + 1), exclude):
            yield yy, sa, sb


def _share(mask, w, h, include, exclude):
    counted = differing = 0
    spans = _poly_row_spans(w, h, include, exclude) if include is not None and len(include) and isinstance(include[0], tuple) \
        else _row_spans(w, h, include, exclude)
    for y, a, b in spans:
        counted += b - a
        differing += mask[y * w + a:y * w + b].count(255)
    return (differing / counted if counted else None), counted


def view_rect(bounds, lat, lon, zoom, w, h, bearing=0.0):
    """Pixel rect of a west,south,east,north box in a Meridian view (256-pixel tiles); in a
    turned view, the turned rectangle as a list of its four corners on screen."""
    west, south, east, north = bounds
    world = 256.0 * 2 ** zoom

    def px(lo, la):
        s = math.sin(math.radians(la))
        return ((lo + 180) / 360 * world, (0.5 - math.log((1 + s) / (1 - s)) / (4 * math.pi)) * world)

    cx, cy = px(lon, lat)
    x0, y0 = px(west, north)
    x1, y1 = px(east, south)
    if bearing % 360:
        # The map turns counter-clockwise on screen by the bearing (the top faces it).
        c, s = math.cos(math.radians(bearing)), math.sin(math.radians(bearing))
        return [((x - cx) * c + (y - cy) * s + w / 2, -(x - cx) * s + (y - cy) * c + h / 2)
                for x, y in ((x0, y0), (x1, y0), (x1, y1), (x0, y1))]
    return (int(round(x0 - cx + w / 2)), int(round(y0 - cy + h / 2)),
            int(round(x1 - cx + w / 2)), int(round(y1 - cy + h / 2)))


def diff_images(a_png, b_png, data_rect=None):
    """Shares of differing pixels (whole image; without Meridian's controls; inside
    `data_rect` without the controls) and (w, h, a, b, mask) for pictures."""
    wa, ha, a = png_decode(a_png)
    wb, hb, b = png_decode(b_png)
    if (wa, ha) != (wb, hb):
        raise ValueError("sizes differ: %dx%d vs %dx%d" % (wa, ha, wb, hb))
    w, h = wa, ha
    if HAVE_PIL:
        d = ImageChops.difference(Image.frombytes("RGBA", (w, h), a), Image.frombytes("RGBA", (w, h), b))
        mask = None
        for band in d.split():
            m = band.point(lambda v: 255 if v > THRESHOLD else 0)
            mask = m if mask is None else ImageChops.lighter(mask, m)
        mask = mask.tobytes()
    else:
        m = bytearray(w * h)
        for i in range(w * h):
            j = 4 * i
            if (abs(a[j] - b[j]) > THRESHOLD or abs(a[j + 1] - b[j + 1]) > THRESHOLD
                    or abs(a[j + 2] - b[j + 2]) > THRESHOLD or abs(a[j + 3] - b[j + 3]) > THRESHOLD):
                m[i] = 255
        mask = bytes(m)
    controls = chrome_rects(w, h)
    share, _ = _share(mask, w, h, None, [])
    no_controls, _ = _share(mask, w, h, None, controls)
    out = {"share": share, "share_excluding_controls": no_controls, "pixels": mask.count(255)}
    if data_rect is not None:
        inside, n = _share(mask, w, h, data_rect, controls)
        out["share_inside_data_bounds"] = inside
        out["data_bounds_pixels"] = n
        out["data_bounds_rect"] = [list(p) if isinstance(p, tuple) else p for p in data_rect]
    return out, (w, h, a, b, mask)


def save_pair(path, w, h, a, b):
    """Meridian (a) left, MapLibre (b) right, with a 4-pixel dark gap."""
    gap = 4
    W = 2 * w + gap
    sep = b"\x20\x20\x20\xff" * gap
    rows = []
    for y in range(h):
        rows.append(a[y * w * 4:(y + 1) * w * 4] + sep + b[y * w * 4:(y + 1) * w * 4])
    with open(path, "wb") as f:
        f.write(png_encode(W, h, b"".join(rows)))


def save_diff(path, w, h, a, mask):
    """Meridian's picture, faded to grey, with the differing pixels in red."""
    out = bytearray(w * h * 4)
    for i in range(w * h):
        if mask[i]:
            out[4 * i:4 * i + 4] = b"\xe0\x10\x10\xff"
        else:
            j = 4 * i
            g = (a[j] * 3 + a[j + 1] * 6 + a[j + 2]) // 10
            g = 160 + g * 95 // 255
            out[j:j + 4] = bytes((g, g, g, 255))
    with open(path, "wb") as f:
        f.write(png_encode(w, h, bytes(out)))


# --------------------------------------------------------------------------- glyphs
def _varint(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def _field_varint(num, n):
    return _varint(num << 3) + _varint(n)


def _field_sint(num, n):
    return _field_varint(num, (n << 1) ^ (n >> 63))  # zigzag


def _field_bytes(num, data):
    return _varint((num << 3) | 2) + _varint(len(data)) + data


def _edt_1d(f, n):
    """Squared distances of the lower envelope of parabolas rooted at f (Felzenszwalb)."""
    INF = 1e20
    v = [0] * n
    z = [0.0] * (n + 1)
    k = 0
    z[0], z[1] = -INF, INF
    for q in range(1, n):
        fq = f[q] + q * q
        r = v[k]
        s = (fq - (f[r] + r * r)) / (2 * (q - r))
        while s <= z[k]:  # z[0] is -INF, so this stops at k == 0
            k -= 1
            r = v[k]
            s = (fq - (f[r] + r * r)) / (2 * (q - r))
        k += 1
        v[k] = q
        z[k] = s
        z[k + 1] = INF
    out = [0.0] * n
    k = 0
    for q in range(n):
        while z[k + 1] < q:
            k += 1
        r = v[k]
        out[q] = (q - r) * (q - r) + f[r]
    return out


def _edt_2d(grid, w, h):
    for x in range(w):
        col = _edt_1d(grid[x::w], h)
        for y in range(h):
            grid[y * w + x] = col[y]
    for y in range(h):
        grid[y * w:(y + 1) * w] = _edt_1d(grid[y * w:(y + 1) * w], w)
    return grid


def sdf_from_alpha(alpha, w, h, buffer=3, radius=8.0, cutoff=0.25):
    """SDF bytes ((w+2b)*(h+2b)) of an anti-aliased coverage bitmap, edge at 192."""
    W, H = w + 2 * buffer, h + 2 * buffer
    INF = 1e20
    outer = [INF] * (W * H)
    inner = [0.0] * (W * H)
    for y in range(h):
        for x in range(w):
            a = alpha[y * w + x] / 255.0
            if a <= 0:
                continue
            i = (y + buffer) * W + x + buffer
            if a >= 1:
                outer[i], inner[i] = 0.0, INF
            else:
                d = 0.5 - a
                outer[i] = d * d if d > 0 else 0.0
                inner[i] = d * d if d < 0 else 0.0
    _edt_2d(outer, W, H)
    _edt_2d(inner, W, H)
    out = bytearray(W * H)
    for i in range(W * H):
        dist = outer[i] ** 0.5 - inner[i] ** 0.5
        v = round(255 - 255 * (dist / radius + cutoff))
        out[i] = 0 if v < 0 else (255 if v > 255 else v)
    return bytes(out)


class GlyphMaker:
    """Makes MapLibre glyph PBFs (24 px SDF, 3 px border) from local TrueType fonts."""

    CACHE = "/tmp/maplibre-compare-glyphs"
    STYLE_WORDS = {"regular", "bold", "italic", "medium", "light", "semibold", "black",
                   "oblique", "condensed", "thin", "extrabold", "extralight"}

    def __init__(self):
        self.available = HAVE_PIL
        self.lock = threading.Lock()
        self.memory = {}
        self.fonts = {}
        self.log = []  # (fontstack, range, how, seconds) of each range served first, for the report

    def font_file(self, name):
        words = name.split()
        style = []
        while words and words[-1].lower() in self.STYLE_WORDS:
            style.insert(0, words.pop())
        family = " ".join(words) or name
        pattern = "%s:style=%s" % (family, " ".join(style) or "Regular")
        if shutil.which("fc-match"):
            r = subprocess.run(["fc-match", "-f", "%{file}", pattern], capture_output=True, text=True)
            if r.returncode == 0 and os.path.exists(r.stdout.strip()):
                return r.stdout.strip()
        guess = "%s-%s.ttf" % (family.replace(" ", ""), "".join(style) or "Regular")
        for base, _, files in os.walk("/usr/share/fonts"):
            if guess in files:
                return os.path.join(base, guess)
        return None

    def _font(self, stack):
        if stack not in self.fonts:
            path = None
            for name in stack.split(","):
                path = self.font_file(name.strip())
                if path:
                    break
            self.fonts[stack] = (path, ImageFont.truetype(path, 24) if path else None)
        return self.fonts[stack]

    def _ink(self, font, ch):
        """(coverage bytes, width, height, left, top) of ch's inked pixels, top above the baseline."""
        l, t, r, b = font.getbbox(ch, anchor="ls")  # includes the bearings: trimmed below
        if r <= l or b <= t:
            return b"", 0, 0, 0, 0
        im = Image.new("L", (r - l, b - t), 0)
        ImageDraw.Draw(im).text((-l, -t), ch, font=font, fill=255, anchor="ls")
        box = im.getbbox()
        if box is None:
            return b"", 0, 0, 0, 0
        im = im.crop(box)
        return im.tobytes(), im.size[0], im.size[1], l + box[0], -(t + box[1])

    def _glyph(self, font, ascent, cp, notdef):
        ch = chr(cp)
        adv = int(round(font.getlength(ch)))
        alpha, w, h, left, top = self._ink(font, ch)
        if notdef is not None and w and (alpha, w, h, adv) == notdef:
            return None  # the font has no glyph for cp: leave it out, as glyph servers do
        msg = _field_varint(1, cp)
        if w:
            msg += _field_bytes(2, sdf_from_alpha(alpha, w, h))
        # MapLibre's convention (as fontnik's): top is the bitmap's top minus the ascender.
        msg += _field_varint(3, w) + _field_varint(4, h)
        msg += _field_sint(5, left) + _field_sint(6, top - ascent) + _field_varint(7, adv)
        return msg

    def pbf(self, stack, start):
        key = (stack, start)
        with self.lock:
            if key in self.memory:
                return self.memory[key]
            t0 = time.perf_counter()
            data, how = self._make(stack, start)
            self.memory[key] = data
            self.log.append((stack, "%d-%d" % (start, start + 255), how, round(time.perf_counter() - t0, 3)))
            return data

    def _make(self, stack, start):
        rng = "%d-%d" % (start, start + 255)
        if not self.available:
            return b"", "empty (no Pillow)"
        path, font = self._font(stack)
        if font is None:
            return b"", "empty (no font found)"
        st = os.stat(path)
        tag = hashlib.sha1(("v2|%s|%s|%d|%d|%s" % (stack, path, st.st_size, int(st.st_mtime), rng)).encode()).hexdigest()
        cached = os.path.join(self.CACHE, tag + ".pbf")
        if os.path.exists(cached):
            with open(cached, "rb") as f:
                return f.read(), "read from " + self.CACHE
        ascent = font.getmetrics()[0]
        nd = chr(0xE000)  # private use: not in these fonts, so drawn as .notdef
        a, w, h, _, _ = self._ink(font, nd)
        notdef = (a, w, h, int(round(font.getlength(nd))))
        glyphs = []
        for cp in range(start, start + 256):
            if cp < 32 or 127 <= cp < 160 or 0xD800 <= cp < 0xE000:
                continue
            g = self._glyph(font, ascent, cp, notdef if cp != 0xE000 else None)
            if g is not None:
                glyphs.append(_field_bytes(3, g))
        stack_msg = _field_bytes(1, stack.encode()) + _field_bytes(2, rng.encode()) + b"".join(glyphs)
        data = _field_bytes(1, stack_msg)
        os.makedirs(self.CACHE, exist_ok=True)
        tmp = cached + ".%d.tmp" % os.getpid()
        with open(tmp, "wb") as f:
            f.write(data)
        os.replace(tmp, cached)
        return data, "made from " + path


# --------------------------------------------------------------------------- serving
class Server:
    """The scheme handler: tiles from the .mbtiles file, glyphs from GlyphMaker."""

    def __init__(self, mbtiles, glyphs):
        self.db = sqlite3.connect(mbtiles, check_same_thread=False)
        self.db_lock = threading.Lock()
        self.glyphs = glyphs
        self.count_lock = threading.Lock()
        self.counts = {"tile": 0, "glyphs": 0, "other": 0}
        self.errors = []

    def metadata(self):
        with self.db_lock:
            return dict(self.db.execute("SELECT name, value FROM metadata").fetchall())

    def _count(self, kind):
        with self.count_lock:
            self.counts[kind] = self.counts.get(kind, 0) + 1

    def snapshot(self):
        with self.count_lock:
            return dict(self.counts)

    def __call__(self, req):
        path = req.url[len(SCHEME) + 3:]
        try:
            if path.startswith("tiles/"):
                self._count("tile")
                z, x, y = path[len("tiles/"):].split(".")[0].split("/")
                z, x, y = int(z), int(x), int(y)
                with self.db_lock:
                    row = self.db.execute(
                        "SELECT tile_data FROM tiles WHERE zoom_level=? AND tile_column=? AND tile_row=?",
                        (z, x, (1 << z) - 1 - y)).fetchone()
                if row is None:
                    return mapli.Response.no_content()
                data = bytes(row[0])
                if data[:2] == b"\x1f\x8b":
                    data = gzip.decompress(data)
                return data
            if path.startswith("glyphs/"):
                self._count("glyphs")
                stack, rng = path[len("glyphs/"):].rsplit("/", 1)
                stack = urllib.parse.unquote(stack)
                start = int(rng.split("-")[0])
                data = self.glyphs.pbf(stack, start)
                return data if data else mapli.Response.no_content()
            self._count("other")
            return mapli.Response.error(mapli.ErrorReason.NOT_FOUND, "not served offline: " + req.url)
        except Exception as e:  # reported, and fails the render
            self.errors.append("%s: %r" % (req.url, e))
            raise


def maplibre_style(style, meta, labels):
    """The style rewritten for offline rendering (and without symbol layers if not labels)."""
    s = json.loads(json.dumps(style))
    minzoom = int(meta.get("minzoom", 0))
    maxzoom = int(meta.get("maxzoom", 14))
    for name, src in list(s.get("sources", {}).items()):
        if src.get("type") == "vector":
            s["sources"][name] = {"type": "vector", "tiles": [SCHEME + "://tiles/{z}/{x}/{y}.pbf"],
                                  "minzoom": minzoom, "maxzoom": maxzoom}
    s["glyphs"] = SCHEME + "://glyphs/{fontstack}/{range}.pbf"
    s.pop("sprite", None)
    if not labels:
        s["layers"] = [l for l in s["layers"] if l.get("type") != "symbol"]
    return s


# --------------------------------------------------------------------------- timing
def median(xs):
    return statistics.median(xs) if xs else None


def turned_tag(bearing):
    return "-b%g" % bearing if bearing else ""


def ml_render(pool, sid, lat, lon, zoom, bearing=0.0):
    t0, c0 = time.perf_counter(), time.process_time()
    png = pool.render(sid, lon=lon, lat=lat, zoom=zoom, width=WIDTH, height=HEIGHT, bearing=bearing, pixel_ratio=1.0)
    return png, time.perf_counter() - t0, time.process_time() - c0


def run_meridian(binary, args, env):
    """(exit status, wall s, CPU s, stderr) of one `meridian render` process."""
    t0 = time.perf_counter()
    p = subprocess.Popen([binary] + args, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    # wait4 gives the child's own rusage (all its threads); read stderr first so it cannot block.
    err = p.stderr.read()
    p.stderr.close()
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t0
    p.returncode = os.waitstatus_to_exitcode(status)
    return p.returncode, wall, ru.ru_utime + ru.ru_stime, err.decode(errors="replace")


def ms(x):
    return None if x is None else round(x * 1000, 1)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--json", required=True, help="write the results as JSON here")
    ap.add_argument("--meridian", default=os.path.join(ROOT, ".build/release/meridian"))
    ap.add_argument("--tiles", default=os.path.join(ROOT, "Tests/Fixtures/vector/helsinki.mbtiles"))
    ap.add_argument("--zooms", default="15,16,16.5,17,18", help="Meridian zooms (MapLibre gets zoom - 1)")
    ap.add_argument("--centre", action="append", help="LAT,LON (repeatable; default 60.1699,24.9441)")
    ap.add_argument("--bearings", default="0,30", help="bearings in degrees clockwise from north, each view drawn at each")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--pair-zoom", type=float, default=16.0, help="Meridian zoom of the view saved side by side")
    ap.add_argument("--out-dir", default="/tmp/compare")
    args = ap.parse_args()

    centres = [tuple(float(v) for v in c.split(",")) for c in (args.centre or ["60.1699,24.9441"])]
    zooms = [float(z) for z in args.zooms.split(",")]
    bearings = [float(b) % 360 for b in args.bearings.split(",")]
    styles = [
        ("osm-bright", os.path.join(ROOT, "Tests/Fixtures/styles/osm-bright.json")),
        ("built-in", None),
    ]
    builtin_path = os.path.join(ROOT, "Resources/styles/streets.json")
    if not os.path.exists(args.meridian):
        sys.exit("no Meridian binary at %s (swift build -c release first)" % args.meridian)
    renders_dir = os.path.join(args.out_dir, "renders")
    os.makedirs(renders_dir, exist_ok=True)
    started = time.perf_counter()

    glyphs = GlyphMaker()
    server = Server(args.tiles, glyphs)
    meta = server.metadata()
    mapli.register_scheme_handler(SCHEME, server)

    views = [(lat, lon, z, b) for b in bearings for (lat, lon) in centres for z in zooms]
    result = {
        "meta": {
            "size": [WIDTH, HEIGHT], "pixel_ratio": 1, "threshold": THRESHOLD, "reps": args.reps,
            "tiles": args.tiles, "tiles_maxzoom": meta.get("maxzoom"), "tiles_bounds": meta.get("bounds"),
            "meridian": args.meridian, "maplibre": "mapli %s (MapLibre Native), EGL_PLATFORM=%s" % (
                getattr(mapli, "__version__", _mapli_version()), os.environ.get("EGL_PLATFORM")),
            "zoom_convention": "MapLibre zoom = Meridian zoom - 1",
            "bearings": bearings,
            "controls_excluded": chrome_rects(WIDTH, HEIGHT),
            "pillow": HAVE_PIL,
            "labels_compared": HAVE_PIL,
            "cpus": os.cpu_count(),
            "load_average_at_start": list(os.getloadavg()),
        },
        "startup": {},
        "styles": {},
    }

    # ---- one-time start-up: pool (worker thread, EGL/GL context), first trivial render.
    t0, c0 = time.perf_counter(), time.process_time()
    pool = mapli.RenderPool(workers=1)
    result["startup"]["maplibre_pool_create"] = {"wall_ms": ms(time.perf_counter() - t0), "cpu_ms": ms(time.process_time() - c0)}
    pool.register_style("startup-background", json={"version": 8, "sources": {}, "layers": [
        {"id": "bg", "type": "background", "paint": {"background-color": "#ffffff"}}]})
    _, w, c = ml_render(pool, "startup-background", 0, 0, 1)
    result["startup"]["maplibre_first_render_background_only"] = {"wall_ms": ms(w), "cpu_ms": ms(c)}

    style_json = {}
    for name, path in styles:
        with open(path or builtin_path) as f:
            style_json[name] = json.load(f)

    # ---- priming: one untimed render per style variant and view, so that glyph PBFs are
    # made (by this script, not MapLibre) before timing, and process-wide first-use costs
    # (shader compilation ...) fall here.
    t0, c0 = time.perf_counter(), time.process_time()
    first = None
    for name, _ in styles:
        for labels in (True, False):
            s = maplibre_style(style_json[name], meta, labels)
            for i, (lat, lon, z, b) in enumerate(views):
                sid = "prime-%s-%d-%d" % (name, labels, i)
                pool.register_style(sid, json=s)
                _, w, c = ml_render(pool, sid, lat, lon, z - 1, b)
                if first is None:
                    first = {"wall_ms": ms(w), "cpu_ms": ms(c), "style": name, "meridian_zoom": z}
    result["startup"]["maplibre_first_real_render"] = first
    result["startup"]["maplibre_priming_pass"] = {
        "wall_ms": ms(time.perf_counter() - t0), "cpu_ms": ms(time.process_time() - c0),
        "renders": 2 * len(styles) * len(views),
        "glyph_ranges_served": [list(g) for g in glyphs.log]}
    result["meta"]["glyph_fonts"] = {k: v[0] for k, v in glyphs.fonts.items()}
    generated_before = len(glyphs.log)

    # ---- MapLibre timed renders.
    ml_png = {}
    for name, _ in styles:
        per_view = result["styles"].setdefault(name, {"views": []})["views"]
        for i, (lat, lon, z, bearing) in enumerate(views):
            if len(per_view) <= i:
                per_view.append({"center": [lat, lon], "meridian_zoom": z, "maplibre_zoom": z - 1, "bearing": bearing,
                                 "maplibre": {}, "meridian": {}, "diff": {}})
            entry = per_view[i]
            for labels in (True, False):
                s = maplibre_style(style_json[name], meta, labels)
                cold, warm, repeat, tiles = [], [], [], []
                for rep in range(args.reps):
                    sid = "%s-%d-%d-%d" % (name, labels, i, rep)
                    pool.register_style(sid, json=s)
                    before = server.snapshot()["tile"]
                    png, w, c = ml_render(pool, sid, lat, lon, z - 1, bearing)
                    tiles.append(server.snapshot()["tile"] - before)
                    cold.append((w, c))
                    if rep == 0:
                        ml_png[(name, labels, i)] = png
                        with open(os.path.join(renders_dir, "maplibre-%s-%s-z%g%s.png" % (
                                name, "labels" if labels else "nolabels", z - 1, turned_tag(bearing))), "wb") as f:
                            f.write(png)
                    before = server.snapshot()["tile"]
                    _, w, c = ml_render(pool, sid, lat, lon, z - 1 + 0.5, bearing)
                    warm.append((w, c, server.snapshot()["tile"] - before))
                    _, w, c = ml_render(pool, sid, lat, lon, z - 1, bearing)
                    repeat.append((w, c))
                entry["maplibre"]["labels" if labels else "nolabels"] = {
                    "cold": {"wall_ms": ms(median([x[0] for x in cold])), "cpu_ms": ms(median([x[1] for x in cold])),
                             "runs_wall_ms": [ms(x[0]) for x in cold], "runs_cpu_ms": [ms(x[1]) for x in cold],
                             "tile_requests": tiles},
                    "warm_zoom_plus_half": {"wall_ms": ms(median([x[0] for x in warm])), "cpu_ms": ms(median([x[1] for x in warm])),
                                            "tile_requests": [x[2] for x in warm]},
                    "repeat_same_view": {"wall_ms": ms(median([x[0] for x in repeat])), "cpu_ms": ms(median([x[1] for x in repeat]))},
                }
    result["meta"]["glyph_ranges_first_served_while_timing"] = [list(g) for g in glyphs.log[generated_before:]]

    # ---- Meridian. Run a copy of the binary, so that a rebuild during the run cannot mix two
    # builds; it finds its resources two levels up (<repo>/.build/release -> <repo>/Resources).
    cache = tempfile.mkdtemp(prefix="meridian-compare-cache-")
    binary = args.meridian
    exe_dir = os.path.dirname(os.path.realpath(binary))  # .build/release is a link to .build/<triple>/release
    resources = next((d for d in (os.path.normpath(os.path.join(exe_dir, *[".."] * n, "Resources")) for n in (2, 3))
                      if os.path.isdir(d)), None)
    if resources:
        os.makedirs(os.path.join(cache, "snap", "bin", "release"))
        binary = os.path.join(cache, "snap", "bin", "release", "meridian")
        shutil.copy2(args.meridian, binary)
        os.symlink(resources, os.path.join(cache, "snap", "Resources"))
    result["meta"]["meridian_binary_mtime"] = os.stat(binary).st_mtime
    with open(binary, "rb") as f:
        result["meta"]["meridian_binary_sha1"] = hashlib.sha1(f.read()).hexdigest()
    result["meta"]["meridian_run_as"] = binary
    env = dict(os.environ, DISPLAY="", WAYLAND_DISPLAY="", XDG_CACHE_HOME=cache)
    mer_png = {}
    warnings = set()
    for name, path in styles:
        # (A debug build on a busy machine can take more than render's default 20 s for the tiles.)
        base = ["render", "--tiles", args.tiles] + (["--style", path] if path else []) + ["--size", "%dx%d" % (WIDTH, HEIGHT),
                                                                                         "--timeout", "90"]
        out = os.path.join(cache, "warmup.png")
        lat, lon, z, _ = views[0]
        rc, w, c, err = run_meridian(binary, base + ["--center", "%s,%s" % (lat, lon), "--zoom", "%g" % z, "--out", out], env)
        result["startup"]["meridian_warmup_run_%s" % name] = {"wall_ms": ms(w), "cpu_ms": ms(c), "exit": rc}
        for i, (lat, lon, z, bearing) in enumerate(views):
            entry = result["styles"][name]["views"][i]
            turn = ["--bearing", "%g" % bearing] if bearing else []
            for labels in (True, False):
                tag = "labels" if labels else "nolabels"
                out = os.path.join(renders_dir, "meridian-%s-%s-z%g%s.png" % (name, tag, z, turned_tag(bearing)))
                runs = []
                for rep in range(args.reps):
                    rc, w, c, err = run_meridian(binary, base + [
                        "--center", "%s,%s" % (lat, lon), "--zoom", "%g" % z, "--out", out] + turn + ([] if labels else ["--no-labels"]), env)
                    for line in err.splitlines():
                        warnings.add(line.strip())
                    if rc != 0:
                        entry["meridian"][tag] = {"error": "exit %d: %s" % (rc, err.strip()[-500:])}
                        break
                    runs.append((w, c))
                else:
                    entry["meridian"][tag] = {"wall_ms": ms(median([x[0] for x in runs])), "cpu_ms": ms(median([x[1] for x in runs])),
                                              "runs_wall_ms": [ms(x[0]) for x in runs], "runs_cpu_ms": [ms(x[1]) for x in runs]}
                    with open(out, "rb") as f:
                        mer_png[(name, labels, i)] = f.read()
    shutil.rmtree(cache, ignore_errors=True)
    result["meta"]["meridian_stderr"] = sorted(warnings)

    # ---- pixel differences, pictures.
    bounds = [float(v) for v in meta.get("bounds", "-180,-85.0511,180,85.0511").split(",")]
    for name, _ in styles:
        for i, (lat, lon, z, bearing) in enumerate(views):
            entry = result["styles"][name]["views"][i]
            for labels in (True, False):
                tag = "labels" if labels else "nolabels"
                key = (name, labels, i)
                if key not in mer_png:
                    continue
                d, (w, h, a, b, mask) = diff_images(mer_png[key], ml_png[key], view_rect(bounds, lat, lon, z, WIDTH, HEIGHT, bearing))
                entry["diff"][tag] = {k: (round(v, 4) if isinstance(v, float) else v) for k, v in d.items()}
                if abs(z - args.pair_zoom) < 1e-9 and (lat, lon) == centres[0]:
                    stem = os.path.join(args.out_dir, "%s-z%g%s-%s" % (name, z, turned_tag(bearing), tag))
                    save_pair(stem + "-side-by-side.png", w, h, a, b)
                    save_diff(stem + "-diff.png", w, h, a, mask)
    result["meta"]["handler_requests"] = server.snapshot()
    result["meta"]["handler_errors"] = server.errors
    result["meta"]["total_seconds"] = round(time.perf_counter() - started, 1)
    result["meta"]["load_average_at_end"] = list(os.getloadavg())
    if os.stat(args.meridian).st_mtime != result["meta"]["meridian_binary_mtime"] and binary == args.meridian:
        result["meta"]["warning"] = "the Meridian binary changed during the run: its numbers mix two builds"

    os.makedirs(os.path.dirname(os.path.abspath(args.json)), exist_ok=True)
    with open(args.json, "w") as f:
        json.dump(result, f, indent=2)
    print(markdown(result))
    print("\nJSON: %s; pictures: %s" % (args.json, args.out_dir))


def _mapli_version():
    try:
        from importlib.metadata import version
        return version("mapli")
    except Exception:
        return "?"


def markdown(r):
    def f(x):
        return "—" if x is None else ("%g" % x)

    def pct(d, k):
        return "—" if not d or d.get(k) is None else "%.1f" % (100 * d[k])

    lines = []
    st = r["startup"]
    lines.append("One-time MapLibre start-up: render pool %s ms wall / %s ms CPU; first (background-only) render %s / %s ms; "
                 "first real render %s / %s ms; priming pass (%d renders, glyph PBF generation included) %s / %s ms."
                 % (f(st["maplibre_pool_create"]["wall_ms"]), f(st["maplibre_pool_create"]["cpu_ms"]),
                    f(st["maplibre_first_render_background_only"]["wall_ms"]), f(st["maplibre_first_render_background_only"]["cpu_ms"]),
                    f(st["maplibre_first_real_render"]["wall_ms"]), f(st["maplibre_first_real_render"]["cpu_ms"]),
                    st["maplibre_priming_pass"]["renders"],
                    f(st["maplibre_priming_pass"]["wall_ms"]), f(st["maplibre_priming_pass"]["cpu_ms"])))
    lines.append("")
    for tag, title in (("labels", "with labels"), ("nolabels", "labels off (Meridian --no-labels, MapLibre without symbol layers)")):
        lines.append("### Timings %s (ms, median of %d; CPU = all threads)" % (title, r["meta"]["reps"]))
        lines.append("")
        lines.append("| style | centre | Meridian z (MapLibre z) | bearing | ML cold wall | ML cold CPU | ML warm wall (z+0.5) | ML warm CPU "
                     "| Meridian wall | Meridian CPU | differing %, whole image | without Meridian's controls | inside data bounds |")
        lines.append("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
        for name, st_ in r["styles"].items():
            for v in st_["views"]:
                ml = v["maplibre"].get(tag, {})
                me = v["meridian"].get(tag, {})
                d = v["diff"].get(tag)
                lines.append("| %s | %.4f,%.4f | %g (%g) | %g° | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
                    name, v["center"][0], v["center"][1], v["meridian_zoom"], v["maplibre_zoom"], v.get("bearing", 0),
                    f(ml.get("cold", {}).get("wall_ms")), f(ml.get("cold", {}).get("cpu_ms")),
                    f(ml.get("warm_zoom_plus_half", {}).get("wall_ms")), f(ml.get("warm_zoom_plus_half", {}).get("cpu_ms")),
                    f(me.get("wall_ms")) if "error" not in me else "error", f(me.get("cpu_ms")),
                    pct(d, "share"), pct(d, "share_excluding_controls"), pct(d, "share_inside_data_bounds")))
        lines.append("")
    # Agreement by bearing: the mean share apart inside the data bounds over the zooms.
    lines.append("### Pixels apart inside the data bounds by bearing (mean over the zooms, %)")
    lines.append("")
    lines.append("| style | bearing | with labels | without labels |")
    lines.append("|---|---:|---:|---:|")
    for name, st_ in r["styles"].items():
        for bearing in r["meta"].get("bearings", [0]):
            row = []
            for tag in ("labels", "nolabels"):
                xs = [v["diff"][tag]["share_inside_data_bounds"] for v in st_["views"]
                      if v.get("bearing", 0) == bearing and v["diff"].get(tag, {}).get("share_inside_data_bounds") is not None]
                row.append("%.1f" % (100 * sum(xs) / len(xs)) if xs else "—")
            lines.append("| %s | %g° | %s | %s |" % (name, bearing, row[0], row[1]))
    lines.append("")
    lines.append("Load average at start %s, at end %s (%d CPUs); the timings are only as quiet as the machine was."
                 % (", ".join("%.2f" % x for x in r["meta"]["load_average_at_start"]),
                    ", ".join("%.2f" % x for x in r["meta"]["load_average_at_end"]), r["meta"]["cpus"] or 0))
    if r["meta"].get("warning"):
        lines.append("WARNING: " + r["meta"]["warning"])
    if not r["meta"]["labels_compared"]:
        lines.append("Labels were NOT compared: no glyphs (Pillow missing), MapLibre drew no text.")
    return "\n".join(lines)


if __name__ == "__main__":
    main()
