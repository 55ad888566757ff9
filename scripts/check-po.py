#!/usr/bin/env python3
"""Checks catalogues beyond msgfmt --check: each translation has its message's placeholders
(%@ %d %s, positional %N$@ — the app fills them, msgfmt knows none of them) and none more, and
says how much of the template each translates.
  scripts/check-po.py po/LL.po...        (make test runs it over po/LINGUAS through po.sh check)
  --min PERCENT                           fail below that share translated"""
import re, sys

PLACEHOLDER = re.compile(r"%(?:(\d+)\$)?([@ds])|%%")


def unquote(s):
    s = s.strip()
    assert s.startswith('"') and s.endswith('"'), s
    return bytes(s[1:-1], "utf-8").decode("unicode_escape").encode("latin-1").decode("utf-8")


def entries(path):
    entry, key = {}, None
    for line in open(path, encoding="utf-8"):
        line = line.rstrip("\n")
        if not line.strip():
            if entry: yield entry
            entry, key = {}, None
            continue
        if line.startswith("#"):
            if line.startswith("#,"): entry["flags"] = line[2:]
            if line.startswith("#~"): entry["obsolete"] = True
            continue
        m = re.match(r"^(msgctxt|msgid|msgid_plural|msgstr(?:\[\d+\])?)\s+(.*)$", line)
        if m:
            key = m.group(1)
            entry[key] = unquote(m.group(2))
        elif line.startswith('"') and key:
            entry[key] += unquote(line)
    if entry: yield entry


def placeholders(text):
    found, n = [], 0
    for m in PLACEHOLDER.finditer(text):
        if m.group(0) == "%%": continue
        if m.group(1): found.append(int(m.group(1)))
        else:
            n += 1
            found.append(n)
    return sorted(set(found))


def check(path, minimum):
    problems, total, done = [], 0, 0
    for e in entries(path):
        if e.get("obsolete") or e.get("msgid", "") == "": continue
        total += 1
        plural = "msgid_plural" in e
        strs = [v for k, v in sorted(e.items()) if k.startswith("msgstr")]
        if "fuzzy" in e.get("flags", "") or not strs or any(s == "" for s in strs):
            continue
        done += 1
        want = placeholders(e["msgid"])
        if plural: want = sorted(set(want) | set(placeholders(e["msgid_plural"])))
        for s in strs:
            got = placeholders(s)
            # A plural form may leave the count out (a language's "one" form: "an hour").
            allowed = set(want)
            if plural and set(got) <= allowed and (set(want) - set(got)) <= {1}: continue
            if got != want:
                problems.append(f"{path}: {e['msgid'][:60]!r}: placeholders {want} in English, {got} in {s[:60]!r}")
    share = 100.0 * done / total if total else 100.0
    print(f"{path}: {done} of {total} messages translated ({share:.1f} %)")
    if share < minimum: problems.append(f"{path}: {share:.1f} % translated, under {minimum} %")
    return problems


args = sys.argv[1:]
minimum = 0.0
if "--min" in args:
    i = args.index("--min"); minimum = float(args[i + 1]); del args[i:i + 2]
problems = [p for path in args for p in check(path, minimum)]
for p in problems: print(p, file=sys.stderr)
sys.exit(1 if problems else 0)
