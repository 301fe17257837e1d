#!/usr/bin/env python3
"""Fails when docs/architecture.md's layer table and Package.swift disagree.

The table (the section "Layers") has a row for every target the manifest declares, tests aside:
its name, what it holds, the targets and products it depends on (each in backticks, exactly as
the manifest spells them), and whether it builds with strict memory-safety checking. This script
reads both and reports every target missing from one side, every dependency listed on one side
only, and every memory-safety cell that does not match the target's settings. Run by `make test`:

    python3 Scripts/check-layers.py
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MANIFEST = os.path.join(ROOT, "Package.swift")
ARCHITECTURE = os.path.join(ROOT, "docs", "architecture.md")
TARGET_KINDS = ("target", "executableTarget", "systemLibrary", "plugin")


def without_comments(text):
    """The manifest with its `//` comments blanked out (no string in it holds `//`)."""
    return re.sub(r"//[^\n]*", "", text)


def call_body(text, start):
    """The text between the parenthesis at `start` and the one that closes it."""
    depth = 0
    for index in range(start, len(text)):
        if text[index] == "(" or text[index] == "[":
            depth += 1
        elif text[index] == ")" or text[index] == "]":
            depth -= 1
            if depth == 0:
                return text[start + 1:index]
    raise ValueError("unbalanced parentheses in Package.swift")


def manifest_targets():
    """Each declared target's name, its direct dependencies and whether it is memory-safe."""
    text = without_comments(open(MANIFEST, encoding="utf-8").read())
    targets = {}
    inside_until = 0
    for match in re.finditer(r"\n\s*\.(%s)\(" % "|".join(TARGET_KINDS), text):
        # A `.target(name:condition:)` in a dependency list is no declaration.
        if match.start() < inside_until:
            continue
        body = call_body(text, match.end() - 1)
        inside_until = match.end() + len(body)
        name = re.search(r'name:\s*"([^"]+)"', body).group(1)
        dependencies = set()
        found = re.search(r"dependencies:\s*\[", body)
        if found:
            listed = call_body(body, found.end() - 1)
            for item in re.finditer(r'\.(?:product|target)\(name:\s*"([^"]+)"[^)]*\)|"([^"]+)"', listed):
                dependencies.add(item.group(1) or item.group(2))
        safe = "memorySafeSettings" in body
        targets[name] = (dependencies, safe)
    return targets


def table_rows():
    """The layer table's rows: target name → (dependencies, memory-safe)."""
    rows = {}
    in_section = False
    for line in open(ARCHITECTURE, encoding="utf-8"):
        if line.startswith("## "):
            in_section = line.strip() == "## Layers"
            continue
        if not in_section or not line.startswith("|"):
            continue
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) != 4 or cells[0] in ("target", "---") or set(cells[0]) <= set("-"):
            continue
        name = re.match(r"`([^`]+)`", cells[0])
        if not name:
            continue
        dependencies = set(re.findall(r"`([^`]+)`", cells[2]))
        rows[name.group(1)] = (dependencies, cells[3].lower().startswith("yes"))
    return rows


def main():
    declared = manifest_targets()
    documented = table_rows()
    problems = []
    for name in sorted(set(declared) - set(documented)):
        problems.append(f"{name}: declared in Package.swift, missing from the layer table")
    for name in sorted(set(documented) - set(declared)):
        problems.append(f"{name}: in the layer table, not a target in Package.swift")
    for name in sorted(set(declared) & set(documented)):
        (uses, safe), (listed, said_safe) = declared[name], documented[name]
        for dependency in sorted(uses - listed):
            problems.append(f"{name}: depends on {dependency}, which the layer table does not list")
        for dependency in sorted(listed - uses):
            problems.append(f"{name}: the layer table lists {dependency}, which Package.swift does not")
        if safe != said_safe:
            settings = "memorySafeSettings" if safe else "no strict memory safety"
            problems.append(f"{name}: the layer table says memory-safe {'yes' if said_safe else 'no'}, "
                            f"Package.swift gives it {settings}")
    for problem in problems:
        print(f"docs/architecture.md#layers: {problem}", file=sys.stderr)
    if problems:
        sys.exit(1)
    print(f"layers: {len(declared)} targets, table and Package.swift agree")


if __name__ == "__main__":
    main()
