#!/bin/sh
# Saving an area and updating it, measured against the loopback tile server of the tests
# (its /noise/ tiles: 2–12 KB, each different, with ETags): the save's rate with the
# politeness limits on (two requests at a time), its peak memory, and an update after the
# server changed one tile in twenty — requests per tile and tiles downloaded. TILES_BOX and
# TILES_MAXZOOM choose the area (by default about 53,000 tiles around Helsinki).
set -eu
cd "$(dirname "$0")/.."
bin=${MERIDIAN_BIN:-.build/release/meridian}
box=${TILES_BOX:-24.70,60.10,25.20,60.40}
maxzoom=${TILES_MAXZOOM:-17}
work=$(mktemp -d)
/usr/bin/python3 Tests/Fixtures/tile-server.py >"$work/port" &
server=$!
trap 'kill $server 2>/dev/null; rm -rf "$work"' EXIT
while [ ! -s "$work/port" ]; do sleep 0.05; done
port=$(head -n 1 "$work/port")
mkdir -p "$work/meridian"
printf '{"sources": [{"name": "noise", "url": "http://127.0.0.1:%s/noise/{z}/{x}/{y}.png", "maxZoom": 18, "bulkDownload": true}]}\n' "$port" >"$work/meridian/sources.json"
export XDG_CONFIG_HOME="$work" XDG_CACHE_HOME="$work/cache" XDG_DATA_HOME="$work"
log() { curl -s "http://127.0.0.1:$port/tile-log" | awk -v s="$1" '$2 == s' | wc -l; }

echo "== save: $box, zooms 0–$maxzoom"
/usr/bin/time -f "peak RSS %M KiB, %e s wall, %U s user, %S s system" \
    "$bin" extract --from noise --bbox "$box" --maxzoom "$maxzoom" --out "$work/area.pmtiles" 2>&1 | grep -v '^[0-9,]*/[0-9,]* tiles'
curl -s "http://127.0.0.1:$port/tile-log" | tail -n 1

echo "== update after one tile in twenty changed"
before200=$(log 200); before304=$(log 304)
curl -s "http://127.0.0.1:$port/change-tiles?every=20" >/dev/null
/usr/bin/time -f "peak RSS %M KiB, %e s wall, %U s user, %S s system" \
    "$bin" extract --update "$work/area.pmtiles" 2>&1 | grep -v '^[0-9,]*/[0-9,]* tiles'
got200=$(( $(log 200) - before200 )); got304=$(( $(log 304) - before304 ))
echo "downloaded $got200 tiles (200), kept $got304 (304): $(( got200 + got304 )) requests"
