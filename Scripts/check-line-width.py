#!/usr/bin/env python3
"""Fails when a line of Swift in Sources/, Plugins/ or Package.swift is wider than 120 columns.

`.swift-format` at the repository's root holds the same width, so `swift format -i FILE` brings a
file back inside it; a comment or a string literal the formatter cannot break is wrapped by hand
(a long literal as a multi-line one, its lines joined by a trailing backslash). Lines inside a
multi-line string literal are data (the control page's HTML and script) and are not held to it.
Columns are counted in characters, as an editor shows them. Run by `make test`:

    python3 Scripts/check-line-width.py
"""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TREES = ["Sources", "Plugins"]
FILES = ["Package.swift"]
WIDTH = 120


def swift_files():
    """Every Swift file checked, as a path relative to the repository."""
    for tree in TREES:
        for folder, folders, files in os.walk(os.path.join(ROOT, tree)):
            folders.sort()
            for name in sorted(files):
                path = os.path.join(folder, name)
                if name.endswith(".swift") and not os.path.islink(path):
                    yield os.path.relpath(path, ROOT)
    yield from FILES


def wide_lines(path):
    """The numbers and widths of `path`'s lines past WIDTH, outside multi-line literals."""
    in_literal = False
    with open(os.path.join(ROOT, path), encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            inside = in_literal
            if line.count('"""') % 2 == 1:
                in_literal = not in_literal
            width = len(line.rstrip("\n"))
            if width > WIDTH and not (inside and in_literal):
                yield number, width


def main():
    wide = [f"{path}:{number}: {width} columns" for path in swift_files() for number, width in wide_lines(path)]
    for line in wide:
        print(line, file=sys.stderr)
    if wide:
        print(f"{len(wide)} lines wider than {WIDTH} columns", file=sys.stderr)
        sys.exit(1)
    print(f"line width: every Swift line within {WIDTH} columns")


if __name__ == "__main__":
    main()
