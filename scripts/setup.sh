#!/usr/bin/env bash
# Installs what Meridian needs on Debian 12 with apt-get (sudo when not root). With no
# argument: what building and running need (the C libraries it links, the fonts its labels
# use: DejaVu, and Noto for the scripts DejaVu lacks — Devanagari, Thai and the rest; gettext's
# msgfmt for the message catalogues). With --test (and locales-all, the locales the tests run in): also the X server, compositor and tools the end-to-end tests drive, and
# what builds and checks the .deb (dpkg-shlibdeps, lintian, desktop-file-validate,
# appstreamcli, man, debootstrap). With --test-only: only those (`make test` installs them
# behind its build, which needs none of them). Only what is missing is installed: a second run
# costs a second.
set -euo pipefail

build_packages=(
  pkg-config libsdl2-dev libx11-dev libxrender-dev libsdl2-image-dev libpng-dev libcairo2-dev libpango1.0-dev libglib2.0-dev libsqlite3-dev zlib1g-dev libxml2-dev
  libcurl4-openssl-dev
  routino osmium-tool gettext
  fonts-dejavu-core fonts-noto-core
)
test_packages=(
    xvfb xauth xdotool x11-utils imagemagick sway dbus-daemon python3-dbus python3-dbusmock python3-gi xclip gpsd gpsd-clients
    dpkg-dev chrpath lintian desktop-file-utils appstream man-db debootstrap time poppler-utils libxml2-utils valgrind
    locales-all
)
case "${1:-}" in
  --test) packages=("${build_packages[@]}" "${test_packages[@]}") ;;
  --test-only) packages=("${test_packages[@]}") ;;
  *) packages=("${build_packages[@]}") ;;
esac

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  sudo=""
  if [ "$(id -u)" != 0 ]; then sudo="sudo"; fi
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if ! command -v swift >/dev/null 2>&1; then
  echo "setup: the Swift 6 toolchain is not on PATH (expected at /opt/swift/usr/bin)" >&2
  exit 1
fi
