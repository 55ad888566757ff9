#!/usr/bin/env bash
# Builds meridian_VERSION_amd64.deb: a release build with the Swift runtime linked statically
# (the package needs no toolchain), the basemap, desktop entry, icons drawn by icon-renderer,
# AppStream metainfo, message catalogues, man page and copyright. Depends: comes from dpkg-shlibdeps.
#   scripts/build-deb.sh [OUTPUT_DIR]      (default: .build-deb)
#   scripts/build-deb.sh --compile-only    (only the build: make test compiles while the
#                                           packaging tools still install)
set -euo pipefail
cd "$(dirname "$0")/.."
compile_only=false
if [ "${1:-}" = --compile-only ]; then compile_only=true; shift; fi
out="${1:-.build-deb}"
scratch=.build-deb
id=io.github.meridian.Meridian
version=$(sed -n 's/.*static let version = "\(.*\)".*/\1/p' Sources/meridian/Meridian.swift)
[ -n "$version" ] || { echo "build-deb: no version in Sources/meridian/Meridian.swift" >&2; exit 1; }

# Built as `make build` builds (scripts/release-flags.sh: for size, the Swift runtime static,
# packed relocations, nothing exported, identical functions folded, hot code together), with
# full RELRO (relro + bindnow): the GOT is read-only after start, as Debian's hardening asks.
# MERIDIAN_DEBUG_INFO=none (make test) compiles without debug information: the package strips
# it anyway, and it is a sixth of the compiling.
flags="$(scripts/release-flags.sh) -Xlinker -z -Xlinker relro -Xlinker -z -Xlinker now -debug-info-format ${MERIDIAN_DEBUG_INFO:-dwarf}"
# shellcheck disable=SC2086
"${SWIFT:-swift}" build $flags --product meridian --scratch-path "$scratch"
# The icon renderer with the same flags: with others, the modules it shares with meridian
# (Platform, MapCore, MapGraphics…) would be compiled again (two minutes).
# shellcheck disable=SC2086
"${SWIFT:-swift}" build $flags --product icon-renderer --scratch-path "$scratch"
$compile_only && exit 0
bin="$scratch/release/meridian"

root="$scratch/pkg/meridian_${version}_amd64"
rm -rf "$root"
mkdir -p "$root/DEBIAN"
umask 022

install -D -m 755 "$bin" "$root/usr/bin/meridian"
# No debug info, no .comment, and no RUNPATH ($ORIGIN: nothing is looked up beside the binary).
strip --strip-unneeded --remove-section=.comment --remove-section=.note "$root/usr/bin/meridian"
chrpath -d "$root/usr/bin/meridian"
install -D -m 644 Resources/basemap.mbtiles "$root/usr/share/meridian/basemap.mbtiles"
install -D -m 644 Resources/places.tsv "$root/usr/share/meridian/places.tsv"
# The built-in styles (OpenMapTiles and Protomaps, light and dark), their sprite sheet and NOTICE.
for f in Resources/styles/*; do install -D -m 644 "$f" "$root/usr/share/meridian/styles/$(basename "$f")"; done
# The desktop entry and metainfo carry every catalogue's words (msgfmt --desktop / --xml);
# the catalogues go where gettext looks (/usr/share/locale/LL/LC_MESSAGES/meridian.mo).
install -d "$root/usr/share/applications" "$root/usr/share/metainfo"
msgfmt --desktop -d po --template "packaging/$id.desktop" -o "$root/usr/share/applications/$id.desktop"
msgfmt --xml -d po --template "packaging/$id.metainfo.xml" -o "$root/usr/share/metainfo/$id.metainfo.xml"
chmod 644 "$root/usr/share/applications/$id.desktop" "$root/usr/share/metainfo/$id.metainfo.xml"
scripts/po.sh mo "$root/usr/share/locale"
find "$root/usr/share/locale" -type d -exec chmod 755 {} + -o -type f -exec chmod 644 {} +
"$scratch/release/icon-renderer" "$root/usr/share/icons/hicolor" >/dev/null
find "$root/usr/share/icons" -type f -exec chmod 644 {} +
install -d "$root/usr/share/man/man1" "$root/usr/share/doc/meridian"
gzip -9n < packaging/meridian.1 > "$root/usr/share/man/man1/meridian.1.gz"
gzip -9n < packaging/changelog > "$root/usr/share/doc/meridian/changelog.gz"
install -m 644 packaging/copyright "$root/usr/share/doc/meridian/copyright"
chmod 644 "$root"/usr/share/man/man1/*.gz "$root"/usr/share/doc/meridian/*

# Depends: from the libraries the binary links, as dpkg-shlibdeps finds them, and libcurl,
# which it opens (dlopen) when https is first needed, SDL2_image (JPEG and WebP tiles) and
# libxml2 (GPX and KML).
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/debian"
printf 'Source: meridian\n\nPackage: meridian\nArchitecture: amd64\n' > "$work/debian/control"
abs_root=$(cd "$root" && pwd)
depends=$(cd "$work" && dpkg-shlibdeps -O -e"$abs_root/usr/bin/meridian" 2>/dev/null | sed -n 's/^shlibs:Depends=//p')
[ -n "$depends" ] || { echo "build-deb: dpkg-shlibdeps found no dependencies" >&2; exit 1; }
size=$(du -sk --exclude=DEBIAN "$root" | cut -f1)
(cd "$root" && find usr -type f -print0 | sort -z | xargs -0 md5sum) > "$root/DEBIAN/md5sums"
chmod 644 "$root/DEBIAN/md5sums"

sed -e "s/@VERSION@/$version/" -e "s/@DEPENDS@/$depends, libcurl4 (>= 7.85.0), libsdl2-image-2.0-0, libxml2, fonts-dejavu-core/" -e "s/@SIZE@/$size/" \
    packaging/control.in > "$root/DEBIAN/control"
mkdir -p "$out"
deb="$out/meridian_${version}_amd64.deb"
dpkg-deb --root-owner-group -Zxz --build "$root" "$deb" >/dev/null
echo "$deb"
