#!/bin/sh
# The message catalogues (po/): `scripts/po.sh pot` remakes po/POTFILES and po/meridian.pot
# from the sources (xgettext reads Swift as C: tr, trn, trc and N_ take literals only) and
# merges every po/LL.po with it; `scripts/po.sh mo [DIR]` compiles each po/LL.po into
# DIR/LL/LC_MESSAGES/meridian.mo (default .build/locale, where a build from the tree finds
# them); `scripts/po.sh check` fails when the template misses a message or a catalogue is
# broken (make test runs it).
set -eu
cd "$(dirname "$0")/.."
what=${1:-mo}

potfiles() {
    find Sources -name '*.swift' |
        grep -v '^Sources/\(basemap-builder\|icon-renderer\)/' | sort |
        xargs grep -l -E '\b(tr|trn|trc|N_|NC_)\("' || true
    echo packaging/io.github.meridian.Meridian.desktop
    echo packaging/io.github.meridian.Meridian.metainfo.xml
}

make_pot() {  # make_pot OUT LIST
    swift_files=$(grep '\.swift$' "$2")
    # shellcheck disable=SC2086
    xgettext --from-code=UTF-8 -L C -k -ktr -ktrn:1,2 -ktrc:1c,2 -kN_ -kNC_:1c,2 --add-comments=TRANSLATORS: \
        --package-name=meridian --msgid-bugs-address=https://github.com/meridian-maps/meridian/issues \
        --sort-by-file -o "$1.code" $swift_files 2>"$1.log" || { cat "$1.log" >&2; exit 1; }
    # Its C reader stumbles on Swift's multi-line SQL literals (never messages): not a problem.
    grep -v 'unterminated string literal' "$1.log" >&2 || true
    rm -f "$1.log"
    xgettext --from-code=UTF-8 -o "$1.desktop" -L Desktop -k -kName -kGenericName -kComment -kKeywords packaging/io.github.meridian.Meridian.desktop
    xgettext --from-code=UTF-8 -o "$1.xml" packaging/io.github.meridian.Meridian.metainfo.xml
    for f in "$1.code" "$1.desktop" "$1.xml"; do sed -i 's/charset=CHARSET/charset=UTF-8/' "$f"; done
    msgcat --use-first -o "$1" "$1.code" "$1.desktop" "$1.xml"
    rm -f "$1.code" "$1.desktop" "$1.xml"
}

case "$what" in
pot)
    potfiles > po/POTFILES
    make_pot po/meridian.pot po/POTFILES
    for lang in $(cat po/LINGUAS 2>/dev/null); do
        if [ -f "po/$lang.po" ]; then
            msgmerge --quiet --update --backup=none --no-fuzzy-matching "po/$lang.po" po/meridian.pot
            msgattrib --no-obsolete -o "po/$lang.po" "po/$lang.po"
        fi
    done
    echo "po/meridian.pot: $(grep -c '^msgid ' po/meridian.pot) messages"
    ;;
mo)
    out=${2:-.build/locale}
    for lang in $(cat po/LINGUAS); do
        mkdir -p "$out/$lang/LC_MESSAGES"
        msgfmt --check -o "$out/$lang/LC_MESSAGES/meridian.mo.tmp" "po/$lang.po"
        mv "$out/$lang/LC_MESSAGES/meridian.mo.tmp" "$out/$lang/LC_MESSAGES/meridian.mo"
    done
    ;;
check)
    tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
    potfiles > "$tmp/POTFILES"
    if ! diff -u po/POTFILES "$tmp/POTFILES"; then
        echo "po/POTFILES is out of date: run make pot" >&2; exit 1
    fi
    make_pot "$tmp/meridian.pot" "$tmp/POTFILES"
    missing=$(msgcmp --use-untranslated "$tmp/meridian.pot" po/meridian.pot 2>&1 || true)
    if [ -n "$missing" ]; then
        echo "$missing" | head -20 >&2
        echo "po/meridian.pot misses messages of the sources: run make pot" >&2; exit 1
    fi
    for lang in $(cat po/LINGUAS); do
        msgfmt --check -o /dev/null "po/$lang.po"
    done
    # Placeholders kept, and each language at least 95 % translated.
    # shellcheck disable=SC2046
    [ -z "$(cat po/LINGUAS)" ] || scripts/check-po.py --min 95 $(sed 's|\(.*\)|po/\1.po|' po/LINGUAS)
    ;;
*) echo "usage: scripts/po.sh pot|mo [DIR]|check" >&2; exit 64 ;;
esac
