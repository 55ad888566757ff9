#!/bin/sh
# MeridianKit's API documentation, from the doc comments of the debug build's modules (no
# rebuild: the symbol graphs are read from .build/debug/Modules/*.swiftmodule):
#   .build/docs/MeridianKit.doccarchive  DocC archive for static hosting (Sources/MeridianKit/MeridianKit.docc
#                                        plus every public symbol MeridianKit re-exports)
#   .build/docs/coverage.txt             public declarations with a doc comment, per module
#   .build/docs/docc.log                 docc's output (its warnings)
# Fails when the debug build is missing, when docc fails, or when the share of documented public
# declarations falls below DOCS_COVERAGE_FLOOR (per cent), so the docs cannot rot unnoticed.
# Run `swift build` (or `make docs`) first; the docs are as new as that build.
set -eu
cd "$(dirname "$0")/.."
PATH=/opt/swift/usr/bin:$PATH
export PATH

# Measured 50.6 % when this was written (1588 of 3139); raise it as the docs get better.
FLOOR=${DOCS_COVERAGE_FLOOR:-50}
# The modules MeridianKit re-exports (Sources/MeridianKit/MeridianKit.swift), and itself.
REEXPORTED="MapGeometry MapCore MapChrome MapNetwork MapTiles MapSearch MapStyle MapData MapPosition MapRouting MapGraphics MapRender MapWindow"
MODULES="MeridianKit $REEXPORTED"

ROOT=$(pwd)
BUILD=$ROOT/.build/debug
SRC=$ROOT/Sources
OUT=$ROOT/.build/docs
start=$(date +%s)

fail() { echo "docs.sh: $*" >&2; exit 1; }

command -v swift >/dev/null || fail "no swift on PATH (looked in /opt/swift/usr/bin too)"
command -v docc >/dev/null || fail "no docc on PATH (it comes with the Swift toolchain)"
command -v python3 >/dev/null || fail "python3 is needed to read the symbol graphs"
command -v pkg-config >/dev/null || fail "pkg-config is needed for the C libraries' headers (scripts/setup.sh installs it)"
for m in $MODULES; do
    [ -f "$BUILD/Modules/$m.swiftmodule" ] ||
        fail "the debug build is missing ($BUILD/Modules/$m.swiftmodule): run \`swift build\` or \`make docs\` first"
done
# The C modules' maps: SwiftPM writes those of the C targets into the build, the system
# libraries have theirs in Sources/.
MAPS=""
for c in CSystem CIntl CCurl CLibXML2 CXlib CPixels CImage; do
    [ -f "$BUILD/$c.build/module.modulemap" ] ||
        fail "the debug build is missing $BUILD/$c.build/module.modulemap: run \`swift build\` first"
    MAPS="$MAPS $BUILD/$c.build/module.modulemap"
done
for c in CZlib CSQLite CGio CPango CCairo CSDL2; do MAPS="$MAPS $SRC/$c/module.modulemap"; done
stale=$(find Sources/MeridianKit $(for m in $REEXPORTED; do echo "Sources/$m"; done) -name '*.swift' \
        -newer "$BUILD/Modules/MeridianKit.swiftmodule" | head -3)
[ -z "$stale" ] || echo "docs.sh: note: sources newer than the debug build (the docs show the build):" $stale >&2

mkdir -p "$OUT"
rm -rf "$OUT/symbol-graphs" "$OUT/MeridianKit.doccarchive" "$OUT/coverage.txt"
mkdir -p "$OUT/symbol-graphs"

# One symbol graph for MeridianKit that takes in the symbols of the modules it re-exports
# (`@_exported import`), as `import MeridianKit` shows them: one catalogue, where
# ``MapLayer`` resolves from MeridianKit's pages. The compiler flags are the build's own
# (see .build/debug.yaml): the C modules' maps, their headers, pkg-config's include paths.
set --
for map in $MAPS; do set -- "$@" -Xcc "-fmodule-map-file=$map"; done
for c in CSystem CIntl CCurl CLibXML2 CXlib CPixels CImage; do set -- "$@" -Xcc -I -Xcc "$SRC/$c/include"; done
for flag in $(pkg-config --cflags-only-I sdl2 cairo pangocairo gio-2.0) -I/usr/include/libxml2; do
    set -- "$@" -Xcc "$flag"
done
allowed=$(echo $REEXPORTED | tr ' ' ',')
swift symbolgraph-extract -module-name MeridianKit -I "$BUILD/Modules" -target x86_64-unknown-linux-gnu \
    -minimum-access-level public -experimental-allowed-reexported-modules="$allowed" \
    -module-cache-path "$OUT/ModuleCache" -output-dir "$OUT/symbol-graphs" "$@" ||
    fail "swift symbolgraph-extract failed (is the debug build complete?)"
[ -f "$OUT/symbol-graphs/MeridianKit.symbols.json" ] || fail "no symbol graph was written"

# The catalogue and the symbols, into an archive a static web server can serve as it is.
# The getting started page quotes the example whole: it must be the example as it is.
python3 - <<'PY' || fail "Sources/MeridianKit/MeridianKit.docc/GettingStarted.md quotes Examples/HelloMap/main.swift as it is no longer: copy it again"
page = open("Sources/MeridianKit/MeridianKit.docc/GettingStarted.md").read()
start = page.index("This is `Examples/HelloMap/main.swift`:\n\n```swift\n")
start = page.index("```swift\n", start) + len("```swift\n")
raise SystemExit(page[start:page.index("```", start)] != open("Examples/HelloMap/main.swift").read())
PY

if ! docc convert Sources/MeridianKit/MeridianKit.docc --additional-symbol-graph-dir "$OUT/symbol-graphs" \
        --output-path "$OUT/MeridianKit.doccarchive" --fallback-display-name MeridianKit \
        --fallback-bundle-identifier io.github.meridian.MeridianKit --transform-for-static-hosting \
        >"$OUT/docc.log" 2>&1; then
    cat "$OUT/docc.log" >&2
    fail "docc convert failed (its output is above and in .build/docs/docc.log)"
fi
warnings=$(grep -c 'warning:' "$OUT/docc.log" || true)
if [ "$warnings" -gt 0 ]; then grep -A4 'warning:' "$OUT/docc.log" >&2; fi

# Coverage: a public declaration is a symbol of the graph declared in Sources/ (not one the
# compiler made: Equatable's !=, init(rawValue:), Codable's init(from:)). It is documented
# when it has a doc comment of its own; one it only inherits (from the protocol requirement
# it implements, or the standard library's) is counted apart, not as documented.
python3 - "$OUT/symbol-graphs/MeridianKit.symbols.json" "$SRC" "$OUT/coverage.txt" "$FLOOR" "$MODULES" <<'EOF'
import json, sys
graph, sources, out, floor, order = sys.argv[1], sys.argv[2].rstrip('/') + '/', sys.argv[3], float(sys.argv[4]), sys.argv[5].split()
stats = {m: [0, 0, 0] for m in order}  # public declarations, with a doc comment of their own, inherited only
for s in json.load(open(graph))['symbols']:
    if '::SYNTHESIZED::' in s['identifier']['precise']:
        continue
    uri = s.get('location', {}).get('uri', '')
    path = uri[len('file://'):] if uri.startswith('file://') else uri
    if not path.startswith(sources):
        continue
    row = stats.setdefault(path[len(sources):].split('/')[0], [0, 0, 0])
    row[0] += 1
    doc = s.get('docComment')
    if doc and doc.get('uri') == uri and any(line['text'].strip() for line in doc.get('lines', [])):
        row[1] += 1
    elif doc:
        row[2] += 1
total = [sum(r[i] for r in stats.values()) for i in range(3)]
pct = lambda r: 100.0 * r[1] / r[0] if r[0] else 100.0
lines = ['Documentation coverage: public declarations with a doc comment of their own',
         '%-12s %8s %11s %7s %10s' % ('module', 'public', 'documented', 'share', 'inherited')]
for m, r in list(stats.items()) + [('total', total)]:
    if m == 'total':
        lines.append('-' * 52)
    lines.append('%-12s %8d %11d %6.1f%% %10d' % (m, r[0], r[1], pct(r), r[2]))
lines.append('floor: %.1f%% of all public declarations documented (DOCS_COVERAGE_FLOOR)' % floor)
text = '\n'.join(lines) + '\n'
open(out, 'w').write(text)
sys.stdout.write(text)
if total[0] == 0:
    sys.exit('docs.sh: the symbol graph holds no public declarations')
if pct(total) < floor:
    sys.exit('docs.sh: only %.1f%% of the public declarations are documented, under the floor of %.1f%%: '
             'document the new ones (or lower DOCS_COVERAGE_FLOOR in scripts/docs.sh, saying why)' % (pct(total), floor))
EOF

echo "docc: $warnings warning(s) (.build/docs/docc.log)"
echo "docs: .build/docs/MeridianKit.doccarchive (open documentation/meridiankit/ under a web server), in $(( $(date +%s) - start )) s"
