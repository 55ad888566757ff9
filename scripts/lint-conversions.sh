#!/bin/sh
# Issue 39's lint: no unchecked conversion from Double or Float to an integer outside the
# saturating helpers. The compiler does the finding (Platform/Saturating.swift shadows the
# trapping conversions with deprecated ones; Package.swift makes using them an error). This
# script checks that the net is in place and that it catches: every Swift target of Sources/
# has the setting, every file of them imports Platform, and a planted conversion is refused
# while its saturating twin is not.
# Needs a debug build (make test has made one).
set -eu
cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-$(command -v swift || echo /opt/swift/usr/bin/swift)}
SWIFTC=$(dirname "$SWIFT")/swiftc
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# 1. Every Swift target under Sources/ refuses deprecated declarations.
"$SWIFT" package dump-package > "$work/package.json"
python3 - "$work/package.json" <<'PY'
import json, os, sys
pkg = json.load(open(sys.argv[1]))
missing = []
for t in pkg["targets"]:
    if t["type"] not in ("regular", "executable") or t.get("path"):
        continue
    if not any(f.endswith(".swift") for _, _, fs in os.walk("Sources/" + t["name"]) for f in fs):
        continue
    if not any(s["kind"].get("treatWarning", {}).get("_0") == "DeprecatedDeclaration" for s in t.get("settings", [])):
        missing.append(t["name"])
if missing:
    sys.exit("lint-conversions: these targets let trapping conversions through: " + ", ".join(missing))
# The shadows apply only in files that import Platform (Swift looks for shadowing among a
# file's own imports), so every file of those targets imports it; MapGeometry has its own.
unguarded = []
for t in pkg["targets"]:
    if t["type"] not in ("regular", "executable") or t.get("path") or t["name"] in ("Platform", "MapGeometry"):
        continue
    for d, _, fs in os.walk("Sources/" + t["name"]):
        for f in fs:
            if f.endswith(".swift") and "\nimport Platform\n" not in "\n" + open(os.path.join(d, f)).read():
                unguarded.append(os.path.join(d, f))
if unguarded:
    sys.exit("lint-conversions: these files do not import Platform, so trapping conversions pass unseen in them: " + ", ".join(sorted(unguarded)))
PY

# 2. The net catches: a planted Int(Double), in a module that imports Platform and in
#    MapGeometry (which imports nothing), fails to compile; the saturating form compiles.
check() { # name, expected (refused|accepted), files...
    name=$1 expected=$2; shift 2
    if "$SWIFTC" -typecheck -I .build/debug/Modules -Xcc -fmodule-map-file=.build/debug/CSystem.build/module.modulemap \
        -Xcc -fmodule-map-file=.build/debug/CIntl.build/module.modulemap \
        -Werror DeprecatedDeclaration "$@" > "$work/$name.log" 2>&1; then got=accepted; else got=refused; fi
    if [ "$got" != "$expected" ]; then
        cat "$work/$name.log" >&2
        echo "lint-conversions: $name was $got, expected $expected" >&2
        exit 1
    fi
    if [ "$got" = refused ] && ! grep -q "traps on NaN" "$work/$name.log"; then
        cat "$work/$name.log" >&2
        echo "lint-conversions: $name was refused for another reason" >&2
        exit 1
    fi
}
printf 'import Platform\nfunc planted(_ x: Double) -> Int { Int(x) }\n' > "$work/planted.swift"
printf 'import Platform\nfunc planted(_ x: Float) -> UInt8 { UInt8(x) }\n' > "$work/planted-float.swift"
printf 'import Platform\nfunc planted(_ x: Double) -> Int32 { Int32(saturating: x) }\n' > "$work/checked.swift"
printf 'func planted(_ x: Double) -> Int { Int(x.rounded()) }\n' > "$work/geometry.swift"
check planted refused "$work/planted.swift"
check planted-float refused "$work/planted-float.swift"
check checked accepted "$work/checked.swift"
check geometry refused Sources/MapGeometry/Saturating.swift "$work/geometry.swift"
echo "lint-conversions: every target refuses trapping conversions; a planted one was caught"
