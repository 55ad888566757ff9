#!/bin/sh
# meridian bench, with the loopback tile server of the tests for its online rows, on the
# display there is (or a private Xvfb, 3840×2160 for the large-window rows). Extra arguments
# go to meridian bench.
set -eu
cd "$(dirname "$0")/.."
out=$(mktemp)
/usr/bin/python3 Tests/Fixtures/tile-server.py >"$out" &
server=$!
trap 'kill $server 2>/dev/null; rm -f "$out"' EXIT
while [ ! -s "$out" ]; do sleep 0.05; done
port=$(head -n 1 "$out")
online="http://127.0.0.1:$port/street/{z}/{x}/{y}{r}.png"
if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
    .build/release/meridian bench --online "$online" --vector Tests/Fixtures/vector/helsinki.mbtiles --protomaps Tests/Fixtures/vector/helsinki-protomaps.pmtiles --osm Tests/Fixtures/osm/andorra.osm.pbf "$@"
else
    xvfb-run -a -s "-screen 0 3840x2160x24 -noreset" .build/release/meridian bench --online "$online" --vector Tests/Fixtures/vector/helsinki.mbtiles --protomaps Tests/Fixtures/vector/helsinki-protomaps.pmtiles --osm Tests/Fixtures/osm/andorra.osm.pbf "$@"
fi
# MapLibre Native's times for the same street views (PyPI mapli, software GL), beside the
# "street view" rows above, when mapli can be had.
if python3 -m pip install -q mapli pillow 2>/dev/null && python3 -c "import mapli" 2>/dev/null; then
    EGL_PLATFORM=surfaceless python3 scripts/maplibre-compare.py --meridian .build/release/meridian --zooms 15,16,16.5,17,18 \
        --json .build/compare.json --out-dir .build/compare | sed -n '/^### Timings/,$p'
fi
