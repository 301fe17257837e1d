#!/usr/bin/env python3
"""Fails when a line of Swift under Sources/ or Plugins/ is wider than 120 columns.

`.swift-format` at the repository's root holds the same width, so `swift format -i FILE` brings a
file back inside it; a string literal the formatter cannot break is split by hand (a multi-line
literal, or concatenation). Columns are counted in characters, as an editor shows them. Run by
`make test`:

    python3 Scripts/check-line-width.py
"""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TREES = ["Sources", "Plugins"]
WIDTH = 120
# Data the tests compare byte for byte (the real hosts' generated files, the bad-input corpus).
SKIPPED_DIRS = {".build", "Golden", "Corpus", "BadInput"}


def main():
    wide = []
    for tree in TREES:
        for folder, folders, files in os.walk(os.path.join(ROOT, tree)):
            folders[:] = sorted(name for name in folders if name not in SKIPPED_DIRS)
            for name in sorted(files):
                if not name.endswith(".swift"):
                    continue
                path = os.path.join(folder, name)
                with open(path, encoding="utf-8") as handle:
                    for number, line in enumerate(handle, 1):
                        if len(line.rstrip("\n")) > WIDTH:
                            wide.append(f"{os.path.relpath(path, ROOT)}:{number}: {len(line.rstrip())} columns")
    for line in wide:
        print(line, file=sys.stderr)
    if wide:
        print(f"{len(wide)} lines wider than {WIDTH} columns", file=sys.stderr)
        sys.exit(1)
    print(f"line width: every Swift line within {WIDTH} columns")


if __name__ == "__main__":
    main()
