#!/usr/bin/env bash
# Tests the Debian package: lintian (no errors, no warnings), desktop-file-validate, appstreamcli,
# man -l; then a clean-system install: debootstrap a minimal Debian 12, `apt-get install
# ./meridian_….deb` inside it (every dependency from Debian), and there run `meridian --version`,
# `meridian render` (a non-blank basemap image) and a window under Xvfb that quits cleanly.
# The debootstrap tarball is cached in .cache/debootstrap (outside git).
set -euo pipefail
cd "$(dirname "$0")/.."
pass() { echo "test-package: ok: $*"; }
fail() { echo "test-package: FAILED: $*" >&2; exit 1; }

deb=$(scripts/build-deb.sh .build-deb | tail -1)
[ -f "$deb" ] || fail "no package built"
echo "test-package: $deb: $(du -k "$deb" | cut -f1) KiB, installed size $(dpkg-deb -f "$deb" Installed-Size) KiB"

# --- the package's own checks ------------------------------------------------------------
lint=$(lintian --fail-on error,warning "$deb" 2>&1) || fail "lintian reports errors or warnings:
$lint"
pass "lintian: no errors, no warnings"

x=$(mktemp -d)
cleanup_x() { rm -rf "$x"; }
trap cleanup_x EXIT
dpkg-deb -x "$deb" "$x"
desktop-file-validate "$x/usr/share/applications/io.github.meridian.Meridian.desktop" || fail "desktop-file-validate"
grep -q '^Exec=meridian %F$' "$x/usr/share/applications/io.github.meridian.Meridian.desktop" || fail "Exec line"
pass "desktop-file-validate"
appstreamcli validate --no-net "$x/usr/share/metainfo/io.github.meridian.Meridian.metainfo.xml" || fail "appstreamcli validate"
pass "appstreamcli validate"
warnings=$(MANWIDTH=80 man --warnings -l "$x/usr/share/man/man1/meridian.1.gz" 2>&1 >/dev/null)
[ -z "$warnings" ] || fail "man page warnings: $warnings"
MANWIDTH=80 man -l "$x/usr/share/man/man1/meridian.1.gz" | grep -q "map viewer for the Linux desktop" || fail "man -l"
pass "man -l renders meridian.1"
for s in 16 24 32 48 64 128 256 512; do
  f="$x/usr/share/icons/hicolor/${s}x${s}/apps/io.github.meridian.Meridian.png"
  [ "$(identify -format '%wx%h' "$f")" = "${s}x${s}" ] || fail "icon $f is not ${s}x${s}"
done
[ -s "$x/usr/share/icons/hicolor/scalable/apps/io.github.meridian.Meridian.svg" ] || fail "no SVG icon"
pass "icons: SVG and 8 PNG sizes"
ldd "$x/usr/bin/meridian" | grep -q -i swift && fail "the binary links a Swift runtime library dynamically"
pass "the Swift runtime is linked statically"

# --- a clean Debian 12 -------------------------------------------------------------------
[ "$(id -u)" = 0 ] || fail "the clean-install test needs root (debootstrap, chroot, mounts); run make test as root or with sudo"
mirror=http://deb.debian.org/debian
cache="$PWD/.cache/debootstrap"
tarball="$cache/bookworm-minbase.tgz"
mkdir -p "$cache"
if [ ! -s "$tarball" ]; then
  echo "test-package: downloading a minimal Debian 12 for the cache ($tarball)"
  debootstrap --variant=minbase --make-tarball="$tarball.part" bookworm "$(mktemp -d)" "$mirror" >/dev/null \
    || fail "debootstrap --make-tarball failed (no network to $mirror?)"
  mv "$tarball.part" "$tarball"
fi
root=$(mktemp -d /tmp/meridian-chroot.XXXXXX)
xvfb_pid=""
cleanup() {
  [ -n "$xvfb_pid" ] && kill "$xvfb_pid" 2>/dev/null || true
  for m in tmp/.X11-unix dev/pts dev proc; do mountpoint -q "$root/$m" && umount -l "$root/$m"; done
  rm -rf "$root" "$x"
}
trap cleanup EXIT
debootstrap --variant=minbase --unpack-tarball="$tarball" bookworm "$root" "$mirror" >/dev/null \
  || fail "debootstrap from the cached tarball failed"
cat > "$root/etc/apt/sources.list" <<SOURCES
deb $mirror bookworm main
deb $mirror bookworm-updates main
deb http://deb.debian.org/debian-security bookworm-security main
SOURCES
mount -t proc proc "$root/proc"
mount --bind /dev "$root/dev"
mount --bind /dev/pts "$root/dev/pts"
cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
in_root() { chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 "$@"; }
[ ! -e "$root/usr/bin/swift" ] && [ ! -e "$root/usr/bin/meridian" ] || fail "the fresh root is not fresh"
pass "debootstrap: a minimal Debian $(cat "$root/etc/debian_version") in $root"

cp "$deb" "$root/tmp/"
chmod 644 "$root/tmp/$(basename "$deb")"
in_root apt-get update -qq >/dev/null || fail "apt-get update in the fresh root"
in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "/tmp/$(basename "$deb")" >/dev/null \
  || fail "apt-get install ./$(basename "$deb") could not resolve its dependencies from Debian"
pass "apt-get install ./$(basename "$deb"): every dependency resolved from Debian"

v=$(in_root meridian --version) || fail "meridian --version"
[ "$v" = "$(dpkg-deb -f "$deb" Version)" ] || fail "meridian --version printed '$v'"
pass "meridian --version: $v"

in_root meridian render --center 48.5,8 --zoom 4 --size 480x320 --no-location --out /tmp/x.png || fail "meridian render"
colours=$(convert "$root/tmp/x.png" -format '%k' info:)
[ "$colours" -gt 50 ] || fail "the rendered basemap has only $colours colours"
pass "meridian render: a $(identify -format '%wx%h' "$root/tmp/x.png") basemap image with $colours colours"

# A window: Xvfb on this machine, its socket shared with the fresh root.
mkdir -p "$root/tmp/.X11-unix"
mount --bind /tmp/.X11-unix "$root/tmp/.X11-unix"
display=$((200 + RANDOM % 400))
Xvfb ":$display" -screen 0 1280x800x24 -nolisten tcp >/dev/null 2>&1 &
xvfb_pid=$!
for _ in $(seq 1 50); do [ -S "/tmp/.X11-unix/X$display" ] && break; sleep 0.1; done
out=$(in_root env DISPLAY=":$display" MERIDIAN_REPORT_DRIVER=1 timeout 60 meridian --exit-when-drawn --no-location --size 800x600 2>&1) \
  || fail "the window did not start and quit cleanly: $out"
echo "$out" | grep -q "video driver: x11" || fail "no X11 window: $out"
pass "a window under Xvfb opened, drew the map and quit with status 0 ($out)"
echo "test-package: all checks passed"
