#!/usr/bin/env python3
"""Which labels MapLibre Native places that Meridian does not (and the reverse), on the views
of `make compare` (scripts/maplibre-compare.py, whose serving and glyphs this reuses).

How a label is recognised in a picture: every name in the view's tiles gets a colour of its
own (a `match` on the feature's name, or house number, in text-color and text-halo-color, so
the halo keeps its width and the letters are solid), every layer but the symbol layers is
taken out, and the background is white. Both renderers draw that style; a name is placed
when at least --min-pixels pixels carry exactly its colour (anti-aliased edges blend towards
white and rarely hit another name's colour exactly). Collision rules are untouched: text-size,
padding, anchors, halo widths are the style's.

It reports how many names each places and both place; for each name placed by one renderer
only, where it comes from (source layer, class, point or line); and for the names both place
once, how far apart the two draw them (the middles and sizes of their pixels' boxes), so that
the reasons can be read off: a box larger than MapLibre's, another order, a name set at
another spot along its street. The pictures (one colour a name) go to --out-dir.

Run (from the repository root, after a build):

    EGL_PLATFORM=surfaceless python3 scripts/maplibre-labels.py --meridian .build/release/meridian \\
        --json /tmp/compare/labels.json

Options: --tiles MBTILES, --style osm-bright|built-in, --zoom 16 (Meridian's; MapLibre gets
zoom - 1), --bearing 0, --centre LAT,LON, --out-dir /tmp/compare/labels (the pictures).
"""

import argparse
import importlib.util
import json
import math
import os
import sqlite3
import subprocess
import sys
import tempfile
import zlib
import gzip

os.environ.setdefault("EGL_PLATFORM", "surfaceless")
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
_spec = importlib.util.spec_from_file_location("maplibre_compare", os.path.join(HERE, "maplibre-compare.py"))
mc = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(mc)

from PIL import Image  # noqa: E402  (needed: the compare's glyphs are made with it)


# --------------------------------------------------------------------------- MVT
def _varint(b, i):
    n = shift = 0
    while True:
        c = b[i]
        i += 1
        n |= (c & 0x7F) << shift
        shift += 7
        if not c & 0x80:
            return n, i


def _fields(b):
    """(field, wire type, value) of a protobuf message; bytes for length-delimited fields."""
    i = 0
    while i < len(b):
        key, i = _varint(b, i)
        f, w = key >> 3, key & 7
        if w == 0:
            v, i = _varint(b, i)
        elif w == 1:
            v, i = b[i:i + 8], i + 8
        elif w == 2:
            n, i = _varint(b, i)
            v, i = b[i:i + n], i + n
        elif w == 5:
            v, i = b[i:i + 4], i + 4
        else:
            raise ValueError("wire type %d" % w)
        yield f, w, v


def _packed(b):
    out, i = [], 0
    while i < len(b):
        v, i = _varint(b, i)
        out.append(v)
    return out


def _value(b):
    import struct
    for f, w, v in _fields(b):
        if f == 1:
            return v.decode("utf-8", "replace")
        if f == 2:
            return struct.unpack("<f", v)[0]
        if f == 3:
            return struct.unpack("<d", v)[0]
        if f in (4, 5):
            return v
        if f == 6:
            return (v >> 1) ^ -(v & 1)
        if f == 7:
            return bool(v)
    return None


def decode_tile(data):
    """{layer name: [(type, properties, first point in tile units, extent)]}."""
    out = {}
    for f, _, layer in _fields(data):
        if f != 3:
            continue
        name, feats, keys, values, extent = None, [], [], [], 4096
        for g, _, v in _fields(layer):
            if g == 1:
                name = v.decode()
            elif g == 2:
                feats.append(v)
            elif g == 3:
                keys.append(v.decode())
            elif g == 4:
                values.append(_value(v))
            elif g == 5:
                extent = v
        rows = []
        for fb in feats:
            tags, typ, geom = [], 0, []
            for g, _, v in _fields(fb):
                if g == 2:
                    tags = _packed(v)
                elif g == 3:
                    typ = v
                elif g == 4:
                    geom = _packed(v)
            props = {keys[tags[i]]: values[tags[i + 1]] for i in range(0, len(tags) - 1, 2)
                     if tags[i] < len(keys) and tags[i + 1] < len(values)}
            first = None
            if len(geom) >= 3 and geom[0] & 7 == 1:
                x, y = geom[1], geom[2]
                first = ((x >> 1) ^ -(x & 1), (y >> 1) ^ -(y & 1))
            rows.append(({1: "point", 2: "line", 3: "polygon"}.get(typ, "?"), props, first, extent))
        out[name] = rows
    return out


def tiles_around(db, lat, lon, zoom, maxzoom, reach):
    """The tiles at min(floor(zoom), maxzoom) within `reach` pixels (at zoom) of the centre."""
    z = min(int(math.floor(zoom)), maxzoom)
    n = 2 ** z
    s = math.sin(math.radians(lat))
    fx = (lon + 180) / 360 * n
    fy = (0.5 - math.log((1 + s) / (1 - s)) / (4 * math.pi)) * n
    span = reach / (512 * 2 ** (zoom - z))  # in tiles of zoom z (MapLibre's 512-pixel tiles)
    out = []
    for x in range(int(fx - span), int(fx + span) + 1):
        for y in range(int(fy - span), int(fy + span) + 1):
            row = db.execute("SELECT tile_data FROM tiles WHERE zoom_level=? AND tile_column=? AND tile_row=?",
                             (z, x, n - 1 - y)).fetchone()
            if row:
                data = bytes(row[0])
                out.append(((z, x, y), gzip.decompress(data) if data[:2] == b"\x1f\x8b" else data))
    return out


# --------------------------------------------------------------------------- colours
def palette(n):
    """n colours, each channel a multiple of 10 up to 200, greys and near-greys left out."""
    out = []
    levels = range(0, 201, 10)
    for r in levels:
        for g in levels:
            for b in levels:
                if max(r, g, b) - min(r, g, b) < 40:
                    continue
                out.append((r, g, b))
    # Spread them: neighbours in the list differ in every channel.
    out.sort(key=lambda c: ((c[0] * 7 + c[1] * 13 + c[2] * 29) % 97, c))
    if n > len(out):
        raise SystemExit("%d names, only %d colours" % (n, len(out)))
    return out[:n]


KEY = ["to-string", ["coalesce", ["get", "name"], ["get", "housenumber"], ""]]


def coloured_style(style, colours, for_maplibre, meta):
    """Only the symbol layers, over white, each name in its colour, icons left out."""
    s = json.loads(json.dumps(style))
    match = ["match", KEY]
    for name, (r, g, b) in colours.items():
        match += [name, "rgb(%d,%d,%d)" % (r, g, b)]
    match.append("rgb(250,250,250)")
    layers = [{"id": "white", "type": "background", "paint": {"background-color": "#ffffff"}}]
    for l in s["layers"]:
        if l.get("type") != "symbol":
            continue
        paint = l.setdefault("paint", {})
        paint["text-color"] = match
        paint["text-halo-color"] = match
        paint["text-opacity"] = 1
        paint.pop("text-halo-blur", None)
        layers.append(l)
    s["layers"] = layers
    if for_maplibre:
        s = mc.maplibre_style(s, meta, True)
    else:
        s.pop("sprite", None)
    return s


def placed_names(png, colours, min_pixels):
    """{name: (pixels, x0, y0, x1, y1)} of the names drawn: their pixels of exactly their colour."""
    im = Image.open(__import__("io").BytesIO(png)).convert("RGB")
    w, h = im.size
    by_colour = {tuple(c): name for name, c in colours.items()}
    found = {}
    data = im.load()
    for y in range(h):
        for x in range(w):
            name = by_colour.get(data[x, y])
            if name is None:
                continue
            n, x0, y0, x1, y1 = found.get(name, (0, x, y, x, y))
            found[name] = (n + 1, min(x0, x), min(y0, y), max(x1, x), max(y1, y))
    return {name: v for name, v in found.items() if v[0] >= min_pixels}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--json", required=True)
    ap.add_argument("--meridian", default=os.path.join(ROOT, ".build/release/meridian"))
    ap.add_argument("--tiles", default=os.path.join(ROOT, "Tests/Fixtures/vector/helsinki.mbtiles"))
    ap.add_argument("--style", default="osm-bright", choices=["osm-bright", "built-in"])
    ap.add_argument("--zoom", type=float, default=16.0, help="Meridian's zoom (MapLibre gets zoom - 1)")
    ap.add_argument("--bearing", type=float, default=0.0)
    ap.add_argument("--centre", default="60.1699,24.9441")
    ap.add_argument("--min-pixels", type=int, default=6)
    ap.add_argument("--out-dir", default="/tmp/compare/labels")
    args = ap.parse_args()
    lat, lon = (float(v) for v in args.centre.split(","))
    os.makedirs(args.out_dir, exist_ok=True)
    path = {"osm-bright": os.path.join(ROOT, "Tests/Fixtures/styles/osm-bright.json"),
            "built-in": os.path.join(ROOT, "Resources/styles/streets.json")}[args.style]
    with open(path) as f:
        style = json.load(f)

    glyphs = mc.GlyphMaker()
    server = mc.Server(args.tiles, glyphs)
    meta = server.metadata()
    mc.mapli.register_scheme_handler(mc.SCHEME, server)

    # Every name in the tiles around the view, where it comes from.
    db = sqlite3.connect(args.tiles)
    symbol_sources = {l.get("source-layer") for l in style["layers"] if l.get("type") == "symbol"}
    origin = {}
    for _, data in tiles_around(db, lat, lon, args.zoom - 1, int(meta.get("maxzoom", 14)), 1400):
        for layer, rows in decode_tile(data).items():
            if layer not in symbol_sources:
                continue
            for typ, props, _, _ in rows:
                key = props.get("name", props.get("housenumber"))
                if key is None:
                    continue
                key = str(key)
                origin.setdefault(key, set()).add("%s/%s/%s" % (layer, props.get("class", props.get("subclass", "")), typ))
    names = sorted(origin)
    colours = dict(zip(names, palette(len(names))))

    # MapLibre.
    pool = mc.mapli.RenderPool(workers=1)
    pool.register_style("labels", json=json.dumps(coloured_style(style, colours, True, meta)))
    ml_png, _, _ = mc.ml_render(pool, "labels", lat, lon, args.zoom - 1, args.bearing)
    # Meridian, with its placed labels listed.
    work = tempfile.mkdtemp(prefix="meridian-labels-")
    style_path = os.path.join(work, "style.json")
    with open(style_path, "w") as f:
        json.dump(coloured_style(style, colours, False, meta), f)
    out = os.path.join(work, "meridian.png")
    listed = os.path.join(work, "labels.json")
    env = dict(os.environ, DISPLAY="", WAYLAND_DISPLAY="", XDG_CACHE_HOME=work)
    cmd = [args.meridian, "render", "--tiles", args.tiles, "--style", style_path, "--size", "%dx%d" % (mc.WIDTH, mc.HEIGHT),
           "--center", "%s,%s" % (lat, lon), "--zoom", "%g" % args.zoom, "--out", out, "--labels-out", listed]
    if args.bearing:
        cmd += ["--bearing", "%g" % args.bearing]
    p = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit("meridian failed: " + p.stderr)
    with open(out, "rb") as f:
        me_png = f.read()
    with open(listed) as f:
        me_list = json.load(f)

    ml_boxes = placed_names(ml_png, colours, args.min_pixels)
    me_boxes = placed_names(me_png, colours, args.min_pixels)
    ml, me = set(ml_boxes), set(me_boxes)
    # Where a name both place sits in each (the middle of its pixels' box), for the ones placed
    # once in each: how far apart the two draw the same label.
    shifts = []
    for n in sorted(ml & me):
        a, b = me_boxes[n], ml_boxes[n]
        if a[3] - a[1] > 300 or b[3] - b[1] > 300:
            continue  # along a long street, or placed twice: no one middle
        shifts.append((n, (a[1] + a[3] - b[1] - b[3]) / 2, (a[2] + a[4] - b[2] - b[4]) / 2,
                       a[3] - a[1] - (b[3] - b[1]), a[4] - a[2] - (b[4] - b[2])))
    tag = "%s-z%g%s" % (args.style, args.zoom, mc.turned_tag(args.bearing))
    with open(os.path.join(args.out_dir, tag + "-maplibre.png"), "wb") as f:
        f.write(ml_png)
    with open(os.path.join(args.out_dir, tag + "-meridian.png"), "wb") as f:
        f.write(me_png)

    def rows(names_):
        return [{"name": n, "from": sorted(origin.get(n, []))} for n in sorted(names_)]

    result = {
        "view": {"centre": [lat, lon], "meridian_zoom": args.zoom, "bearing": args.bearing, "style": args.style},
        "names_in_tiles": len(names),
        "maplibre_placed": len(ml), "meridian_placed": len(me),
        "meridian_labels_listed": len(me_list), "meridian_names_listed": len({l["name"] for l in me_list}),
        "both": len(ml & me),
        "maplibre_only": rows(ml - me), "meridian_only": rows(me - ml),
        # Meridian's label less MapLibre's: middles (x, y) and sizes (width, height) in pixels.
        "same_place_shifts": [{"name": n, "dx": dx, "dy": dy, "dw": dw, "dh": dh} for n, dx, dy, dw, dh in shifts],
        "maplibre_only_by_source": {},
    }
    for n in ml - me:
        for o in origin.get(n, []):
            k = o.rsplit("/", 2)[0] + "/" + o.rsplit("/", 1)[1]
            result["maplibre_only_by_source"][k] = result["maplibre_only_by_source"].get(k, 0) + 1
    with open(args.json, "w") as f:
        json.dump(result, f, indent=2, ensure_ascii=False)
    print("%s: %d names in the tiles; MapLibre places %d, Meridian %d (%d labels), both %d; MapLibre only %d, Meridian only %d"
          % (tag, len(names), len(ml), len(me), len(me_list), len(ml & me), len(ml - me), len(me - ml)))
    print("MapLibre only, by source:", json.dumps(result["maplibre_only_by_source"], sort_keys=True))
    near = [x for x in shifts if abs(x[1]) < 8 and abs(x[2]) < 8]
    if near:
        med = lambda k: sorted(x[k] for x in near)[len(near) // 2]
        print("%d placed alike (within 8 px): median shift %+g, %+g px, size %+g x %+g px (Meridian less MapLibre)"
              % (len(near), med(1), med(2), med(3), med(4)))


if __name__ == "__main__":
    main()
