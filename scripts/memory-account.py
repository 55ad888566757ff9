#!/usr/bin/python3
"""Where the map scenario's memory goes: the window at 1280x800 on loopback online tiles at
zoom 6 (as peer-bench's `map` scenario), read from /proc once the loop has slept a while.

    scripts/memory-account.py [BINARY]        (make memory: the release build)

Prints peak and current RSS, then every MiB by what holds it: the binary's code and data,
the shared libraries by family, the window's surface (SysV shared memory), the heap with
what the tile and sprite stores say they hold, and the rest of the anonymous memory."""
import os, re, sys

from map_scenario import MapScenario

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BINARY = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, ".build/release/meridian")

# Shared libraries by what brings them (a name's prefix; the first match wins).
FAMILIES = [
    ("HTTP and TLS (libcurl and what it links)", "libcurl libssl libcrypto libgnutls libnettle libhogweed libgmp libp11 libtasn1 "
     "libunistring libidn2 libpsl libnghttp2 librtmp libssh2 libgssapi libkrb5 libk5crypto libcom_err libkrb5support "
     "libkeyutils libldap liblber libsasl2 libbrotli libzstd libresolv"),
    ("SDL, X11 and sound (SDL links them)", "libSDL2 libX libxcb libxkb libwayland libdecor libdrm libgbm libasound libpulse "
     "libsndfile libFLAC libvorbis libogg libopus libmpg123 libmp3lame libsamplerate libsystemd libcap libgcrypt "
     "libgpg-error liblz4 liblzma libapparmor libdbus libasyncns libjpeg libtiff libwebp libjbig libLerc libdeflate libbsd libmd libXau libXdmcp"),
    ("Cairo, Pango, fonts and pictures", "libcairo libpango libharfbuzz libfreetype libfontconfig libpng libpixman libfribidi "
     "libthai libdatrie libgraphite2 libbz2 libexpat libbrotlidec libz."),
    ("GLib and GIO (D-Bus: portals, GeoClue)", "libglib libgobject libgio libgmodule libffi libpcre2 libmount libblkid libselinux"),
    ("SQLite", "libsqlite3"),
    ("libxml2 and ICU", "libxml2 libicu"),
    ("C and C++ runtimes", "libc. libm. libstdc++ libgcc_s ld-linux libpthread libdl librt"),
]


def family(path):
    name = os.path.basename(path)
    for label, prefixes in FAMILIES:
        if any(name.startswith(p) for p in prefixes.split()):
            return label
    return "other libraries"


def mappings(pid):
    out, cur = [], None
    with open(f"/proc/{pid}/smaps") as f:
        for line in f:
            m = re.match(r"^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \S+\s*(.*)$", line)
            if m:
                cur = {"perm": m[3], "name": m[4], "Rss": 0, "Anonymous": 0}
                out.append(cur)
                continue
            k, _, v = line.partition(":")
            if cur is not None and k in ("Rss", "Anonymous"):
                cur[k] = int(v.split()[0])
    return out


def status(pid):
    with open(f"/proc/{pid}/status") as f:
        return {k: v.strip() for k, _, v in (l.partition(":") for l in f)}


def mib(kb):
    return f"{kb / 1024:6.1f} MiB"


def account(pid, memory_line):
    rows = {}
    def add(label, kb):
        rows[label] = rows.get(label, 0) + kb
    binary = os.path.realpath(BINARY)
    for m in mappings(pid):
        name, rss, anon = m["name"], m["Rss"], m["Anonymous"]
        if name.startswith("/SYSV"):
            add("window surface (X shared memory)", rss)
        elif os.path.realpath(name) == binary if name.startswith("/") else False:
            add("meridian: code (read from the file)" if "x" in m["perm"] else "meridian: data and relocations", rss)
        elif ".so" in name:
            add(family(name) + ": code and read-only data", rss - anon)
            add("libraries: relocated and written data", anon)
        elif name in ("[heap]", ""):
            add("heap and other anonymous memory", rss)
        elif name == "[stack]":
            add("thread stacks", rss)
        elif re.search(r"\.(ttf|otf|ttc)$", name) or ".cache-" in name:
            add("font files and fontconfig caches", rss)
        elif "/locale" in name or "gconv" in name:
            add("locale data", rss)
        else:
            add("other mappings", rss)
    held = memory_line.split() if memory_line else []
    if held:
        # What the stores say they hold is part of the heap: shown on its own.
        tiles = (int(held[3]) + int(held[6]) + int(held[9])) // 1024
        add("tile and sprite pictures (of the heap)", tiles)
        add("heap and other anonymous memory", -tiles)
    st = status(pid)
    print(f"peak RSS {st['VmHWM']}, now {st['VmRSS']} ({st['Threads']} threads)")
    total = sum(rows.values())
    for label, kb in sorted(rows.items(), key=lambda r: -r[1]):
        print(f"  {mib(kb)}  {label}")
    print(f"  {mib(total)}  in all")
    if held:
        print(f"  pictures: {held[2]} tiles {int(held[3]) / 1048576:.1f} MiB, {held[5]} under them "
              f"{int(held[6]) / 1048576:.1f} MiB, {held[8]} sprites {int(held[9]) / 1048576:.2f} MiB")


def main():
    if not os.path.exists(BINARY):
        sys.exit(f"no {BINARY}: make build first")
    with MapScenario(BINARY) as s:
        # Until it has slept (drawn and idle) and six seconds have passed, as peer-bench waits.
        s.wait_for("memory ", 30, at_least=6)
        pid = s.pid()
        if not pid:
            sys.exit("the window did not start")
        lines = [l for l in s.log().splitlines() if l.startswith("memory ")]
        account(pid, lines[-1] if lines else None)


if __name__ == "__main__":
    main()
