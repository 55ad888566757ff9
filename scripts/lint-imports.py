#!/usr/bin/env python3
"""Every module a Swift file imports is a dependency its target declares in Package.swift.

SwiftPM lets a target import a module it does not declare when another dependency happens to
bring it into the build; such an import breaks the day that other dependency goes, and hides
which way the house's dependencies flow. This reads the package's targets (the fuzz targets
too) and every import of their files, and names each undeclared one. Exit 1 when any.
"""
import json
import os
import re
import subprocess
import sys

# What the toolchain itself provides, for any target.
TOOLCHAIN = {"Foundation", "FoundationEssentials", "FoundationInternationalization", "Glibc", "Dispatch",
             "Synchronization", "Testing", "XCTest", "_Concurrency", "PackageDescription", "PackagePlugin"}
IMPORT = re.compile(r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|fileprivate|private)\s+)?import\s+(?:(?:struct|class|enum|protocol|func|var|let|typealias)\s+)?(\w+)", re.M)

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
env = dict(os.environ, MERIDIAN_FUZZ="1")
described = json.loads(subprocess.run(["swift", "package", "describe", "--type", "json"], cwd=root, env=env,
                                      check=True, capture_output=True, text=True).stdout)
module_of = {t["name"]: t["c99name"] for t in described["targets"]}
problems = []
for target in described["targets"]:
    if target.get("type") == "system-target" or "sources" not in target:
        continue
    allowed = {target["c99name"]} | TOOLCHAIN
    allowed |= {module_of.get(d, d) for d in target.get("target_dependencies", [])}
    allowed |= set(target.get("product_dependencies", []))
    for source in target["sources"]:
        if not source.endswith(".swift"):
            continue
        path = os.path.join(root, target["path"], source)
        # Not what string literals hold (a test's Python script) nor comments.
        text = re.sub(r"/\*[\s\S]*?\*/", "", open(path, encoding="utf-8").read())
        text = re.sub(r'"""[\s\S]*?"""', "", text)
        text = re.sub(r"//[^\n]*", "", text)
        for module in IMPORT.findall(text):
            if module not in allowed:
                problems.append(f"{os.path.relpath(path, root)}: imports {module}, which target {target['name']} does not declare")
for p in sorted(set(problems)):
    print(p)
if problems:
    print(f"lint-imports: {len(set(problems))} import(s) not declared in Package.swift", file=sys.stderr)
    sys.exit(1)
print(f"lint-imports: every import of {sum(len(t.get('sources', [])) for t in described['targets'])} files is declared")
