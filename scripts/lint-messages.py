#!/usr/bin/env python3
"""Issue 51's lint: every message a person reads is one xgettext can extract and a translator
can translate whole. Fails on a translated literal that xgettext's C reader would mangle or
that Swift fills by interpolation (a raw or multi-line string, a \\( inside), and on English
plurals chosen by hand (`== 1 ? "…"`: ngettext knows each language's rule)."""
import pathlib, re, sys

root = pathlib.Path(__file__).resolve().parent.parent
call = re.compile(r'\b(tr|trn|trc|N_)\(\s*(#+"|"""|"((?:[^"\\\n]|\\.)*)")')
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
for p in problems:
    print(p, file=sys.stderr)
if problems:
    sys.exit(f"lint-messages: {len(problems)} problem(s)")
