#!/usr/bin/env bash
# A clean-system install of the .deb: debootstrap a minimal Debian 12 (the tarball cached in
# .cache/debootstrap, outside git), `apt-get install ./meridian_….deb` in it with every
# dependency from Debian, then there: `meridian --version`, `meridian render` (a non-blank
# basemap image) and a window under Xvfb that draws the map and quits cleanly. Needs root.
#   scripts/test-clean-install.sh meridian_VERSION_amd64.deb
#   scripts/test-clean-install.sh --fetch-only   (only fill the cache: make test does it early)
set -euo pipefail
cd "$(dirname "$0")/.."
pass() { echo "test-clean-install: ok: $*"; }
fail() { echo "test-clean-install: FAILED: $*" >&2; exit 1; }
deb="$1"
[ "$deb" = --fetch-only ] || [ -f "$deb" ] || fail "no package at $deb"
[ "$(id -u)" = 0 ] || fail "needs root (debootstrap, chroot, mounts)"
command -v debootstrap >/dev/null || fail "debootstrap is not installed (scripts/setup.sh installs it)"

mirror=http://deb.debian.org/debian
cache="$PWD/.cache/debootstrap"
tarball="$cache/bookworm-minbase.tgz"
mkdir -p "$cache"
if [ ! -s "$tarball" ]; then
  echo "test-clean-install: downloading a minimal Debian 12 for the cache ($tarball)"
  scratch=$(mktemp -d)
  debootstrap --variant=minbase --make-tarball="$tarball.part" bookworm "$scratch" "$mirror" >/dev/null \
    || { rm -rf "$scratch"; fail "debootstrap --make-tarball failed (no network to $mirror?)"; }
  rm -rf "$scratch"
  mv "$tarball.part" "$tarball"
fi
[ "$deb" != --fetch-only ] || { pass "a minimal Debian 12 is in the cache"; exit 0; }
root=$(mktemp -d /tmp/meridian-chroot.XXXXXX)
xvfb_pid=""
cleanup() {
  [ -n "$xvfb_pid" ] && kill "$xvfb_pid" 2>/dev/null || true
  for m in tmp/.X11-unix dev/pts dev proc; do mountpoint -q "$root/$m" && umount -l "$root/$m"; done
  # Never past the root's own file system: a mount left (a lazy unmount still under way)
  # must not take the host's /dev or /tmp/.X11-unix with it.
  rm -rf --one-file-system "$root"
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
mkdir -p "$root/tmp/.X11-unix" /tmp/.X11-unix
chmod 1777 /tmp/.X11-unix
mount --bind /tmp/.X11-unix "$root/tmp/.X11-unix"
# Xvfb picks a free display itself and writes its number once it accepts connections
# (-displayfd). -noreset: without it the server resets when its last client (xdpyinfo below)
# leaves, and the app connecting during that reset is dropped ("cannot open a display").
exec {displayfd}<> <(:)
Xvfb -displayfd "$displayfd" -screen 0 1280x800x24 -nolisten tcp -noreset >/dev/null 2>&1 &
xvfb_pid=$!
display=""
read -r -t 20 display <&"$displayfd" || true
exec {displayfd}<&-
[ -n "$display" ] || fail "Xvfb did not start (no display number within 20 s)"
# The waits below only keep a broken package from hanging: 30 s, as the tests' (make test
# runs this beside them).
for _ in $(seq 1 300); do DISPLAY=":$display" xdpyinfo >/dev/null 2>&1 && break; sleep 0.1; done
DISPLAY=":$display" xdpyinfo >/dev/null 2>&1 || fail "Xvfb :$display does not accept connections"
# Started as the desktop starts it (Exec=meridian %U) with a GPX file: as a file:// URI.
printf '<?xml version="1.0"?>\n<gpx version="1.1" creator="test"><wpt lat="46.2" lon="6.1"/><wpt lat="46.3" lon="6.2"/></gpx>\n' > "$root/tmp/walk.gpx"
exec_line=$(sed -n 's/^Exec=//p' "$root/usr/share/applications/io.github.meridian.Meridian.desktop")
[ "$exec_line" = "meridian %U" ] || fail "the installed desktop entry runs '$exec_line'"
start_app() {
  in_root env DISPLAY=":$display" MERIDIAN_REPORT_DRIVER=1 timeout 60 meridian --no-location --size 800x600 file:///tmp/walk.gpx \
    > "$root/tmp/out.txt" 2>&1 &
  app=$!
  for _ in $(seq 1 300); do
    DISPLAY=":$display" xdotool search --onlyvisible --name '^Meridian' >/dev/null 2>&1 && return 0
    kill -0 "$app" 2>/dev/null || return 1
    sleep 0.1
  done
}
start_app || true
DISPLAY=":$display" xdotool search --onlyvisible --name '^Meridian' >/dev/null 2>&1 || fail "no Meridian window appeared: $(cat "$root/tmp/out.txt")"
# Signalled once the file is open (what the app says), not after a fixed wait.
for _ in $(seq 1 300); do grep -q "opened walk.gpx" "$root/tmp/out.txt" && break; sleep 0.1; done
# SIGTERM, as a session logout sends it: the app quits the normal way and saves.
# This test's meridian (under $app: the subshell, then timeout), not any other on the machine.
descendant() {
  local c
  for c in $(pgrep -P "$1"); do
    [ "$(cat "/proc/$c/comm" 2>/dev/null)" = "$2" ] && { echo "$c"; return 0; }
    descendant "$c" "$2" && return 0
  done
  return 1
}
pid=$(descendant "$app" meridian) || fail "no meridian process under $app"
kill -TERM "$pid"
status=0; wait "$app" || status=$?
out=$(cat "$root/tmp/out.txt")
[ "$status" = 0 ] || fail "the window did not quit cleanly (status $status): $out"
echo "$out" | grep -q "video driver: x11" || fail "no X11 window: $out"
echo "$out" | grep -q "opened walk.gpx: 2 waypoints" || fail "the GPX file was not opened: $out"
[ -s "$root/root/.local/state/meridian/view.json" ] || fail "the view was not saved at quit"
pass "a window under Xvfb opened walk.gpx, drew the map, saved the view and quit with status 0 ($(echo "$out" | head -1))"
echo "test-clean-install: all checks passed"
