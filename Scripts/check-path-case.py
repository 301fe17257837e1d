#!/usr/bin/env python3
"""Fails when two paths in the repository differ only by letter case.

A Mac's disk is case-insensitive by default: git checks two such paths out as one, and a folder
pair like `Sources/Foo` and `Sources/foo` becomes one folder that SwiftPM then finds two targets
over, so the package does not even resolve there. Checked over what git tracks and what is
staged (a file added but not yet committed counts too). Run by `make test`:

    python3 Scripts/check-path-case.py
"""
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def tracked_paths():
    """Every tracked or staged file, and every folder above one, relative to the repository."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached"], cwd=ROOT, capture_output=True, check=True)
    paths = set()
    for file in listed.stdout.decode("utf-8", "surrogateescape").split("\0"):
        if not file:
            continue
        parts = file.split("/")
        for end in range(1, len(parts) + 1):
            paths.add("/".join(parts[:end]))
    return paths


def collisions(paths):
    """Groups of two or more paths that are one path to a case-insensitive disk."""
    folded = {}
    for path in paths:
        folded.setdefault(path.casefold(), []).append(path)
    return sorted(sorted(group) for group in folded.values() if len(group) > 1)


def main():
    if not os.path.isdir(os.path.join(ROOT, ".git")) and not os.path.isfile(os.path.join(ROOT, ".git")):
        print("path case: not a git checkout; nothing to check")
        return 0
    paths = tracked_paths()
    clashes = collisions(paths)
    if clashes:
        print("path case: these paths differ only by letter case, and are one path on a Mac's disk:")
        for group in clashes:
            print("  " + "  ".join(group))
        return 1
    print(f"path case: no two of {len(paths)} paths differ only by letter case")
    return 0


if __name__ == "__main__":
    sys.exit(main())
