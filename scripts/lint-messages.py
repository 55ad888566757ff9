#!/usr/bin/env python3
"""Issue 51's lint: every message a person reads is one xgettext can extract and a translator
can translate whole. Fails on a translated literal that xgettext's C reader would mangle or
that Swift fills by interpolation (a raw or multi-line string, a \\( inside), and on English
plurals chosen by hand (`== 1 ? "…"`: ngettext knows each language's rule)."""
import pathlib, re, sys

root = pathlib.Path(__file__).resolve().parent.parent
call = re.compile(r'\b(tr|trn|trc|N_|NC_)\(\s*(#+"|"""|"((?:[^"\\\n]|\\.)*)")')
by_hand = re.compile(r'[!=]= 1 \? "[^"]*" : "')
problems = []
for path in sorted((root / "Sources").rglob("*.swift")):
    if path.parts[-2] in ("basemap-builder", "icon-renderer"):
        continue
    rel = path.relative_to(root)
    for n, line in enumerate(path.read_text().splitlines(), 1):
        code = line.split("//", 1)[0] if not line.lstrip().startswith("///") else ""
        for m in call.finditer(code):
            if m.group(2).startswith("#") or m.group(2) == '"""':
                problems.append(f"{rel}:{n}: {m.group(1)}( takes a plain one-line literal (xgettext reads Swift as C)")
            elif "\\(" in (m.group(3) or ""):
                problems.append(f"{rel}:{n}: interpolation inside a translated message: use %@ and an argument")
        if by_hand.search(code):
            problems.append(f"{rel}:{n}: an English plural chosen by hand: use trn(singular, plural, n)")

# Every message of the sources is in the template (xgettext reads Swift as C: a construct it
# misreads could drop one silently).
def swift_literal(text):
    text = re.sub(r"\\u\{([0-9A-Fa-f]+)\}", lambda m: chr(int(m.group(1), 16)), text)
    return text.replace('\\"', '"').replace("\\n", "\n").replace("\\t", "\t").replace("\\\\", "\\")

pot = root / "po" / "meridian.pot"
if pot.exists() and "--no-pot" not in sys.argv:
    sys.path.insert(0, str(root / "scripts"))
    import importlib.util
    spec = importlib.util.spec_from_file_location("check_po", root / "scripts" / "check-po.py")
    # check-po.py runs its checks when loaded as a program only.
    source = (root / "scripts" / "check-po.py").read_text().split("\nargs = sys.argv[1:]")[0]
    namespace = {}
    exec(compile(source, "check-po.py", "exec"), namespace)
    known = {(e.get("msgctxt"), e["msgid"]) for e in namespace["entries"](str(pot)) if "msgid" in e}
    message = re.compile(r'\b(tr|trn|trc|N_|NC_)\(\s*"((?:[^"\\\n]|\\.)*)"(?:\s*,\s*"((?:[^"\\\n]|\\.)*)")?')
    for path in sorted((root / "Sources").rglob("*.swift")):
        if path.parts[-2] in ("basemap-builder", "icon-renderer"):
            continue
        for n, line in enumerate(path.read_text().splitlines(), 1):
            if line.lstrip().startswith("//"):
                continue
            for m in message.finditer(line):
                kind, first, second = m.group(1), swift_literal(m.group(2)), m.group(3)
                key = (first, swift_literal(second)) if kind in ("trc", "NC_") and second is not None else (None, first)
                if key not in known:
                    problems.append(f"{path.relative_to(root)}:{n}: {key[1][:60]!r} is not in po/meridian.pot (make pot)")

for p in problems:
    print(p, file=sys.stderr)
if problems:
    sys.exit(f"lint-messages: {len(problems)} problem(s)")
