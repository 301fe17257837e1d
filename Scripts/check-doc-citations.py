#!/usr/bin/env python3
"""Fails when a citation of docs/ names a file or a section that is not there.

Reads every text file under Sources, Tests, Scripts, Benchmarks, Examples, Fuzz and docs, plus
Package.swift, Makefile and README.md, for `docs/<file>.md` and `docs/<file>.md#<section>` (and,
inside docs/, links such as `transport.md#parsing`), and checks each against the headings of
that file, made into anchors as GitHub makes them. It also fails on the old citation forms
(an unnamed spec's or the architecture note's section sign, the libevent notes, the shared
folder beside the repository), which named nothing in the repository. Run by `make test`:

    python3 Scripts/check-doc-citations.py
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TREES = ["Sources", "Tests", "Scripts", "Benchmarks", "Examples", "Fuzz", "docs"]
FILES = ["Package.swift", "Makefile", "README.md"]
SKIPPED_DIRS = {".build", ".work", ".venv", ".venv-eio3", "node_modules", "Golden", "Corpus"}
SUFFIXES = (".swift", ".py", ".sh", ".md", ".js", ".ts", "Makefile")
CITATION = re.compile(r"docs/([A-Za-z0-9_-]+\.md)(?:#([a-z0-9_-]+))?")
LOCAL_LINK = re.compile(r"\]\(([A-Za-z0-9_-]+\.md)(?:#([a-z0-9_-]+))?\)")
# Spelled in pieces, so that this file does not match itself.
OLD_FORMS = re.compile("|".join(["spec" + " \u00a7", "architecture" + " \u00a7", "libevent" + "-notes", r"\.\." + "/shared"]))


def anchors(path):
    """The anchors of a Markdown file's headings, as GitHub writes them."""
    found = set()
    counts = {}
    in_code = False
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            if line.startswith("```"):
                in_code = not in_code
                continue
            match = re.match(r"#{1,6} (.*)", line)
            if in_code or not match:
                continue
            text = re.sub(r"[`*_]", "", match.group(1).strip()).lower()
            slug = re.sub(r"[^a-z0-9 -]", "", text).replace(" ", "-")
            number = counts.get(slug, 0)
            counts[slug] = number + 1
            found.add(slug if number == 0 else f"{slug}-{number}")
    return found


def sources():
    for tree in TREES:
        for directory, subdirectories, names in os.walk(os.path.join(ROOT, tree)):
            subdirectories[:] = [name for name in subdirectories if name not in SKIPPED_DIRS]
            for name in names:
                if name.endswith(SUFFIXES):
                    yield os.path.join(directory, name)
    for name in FILES:
        yield os.path.join(ROOT, name)


def main():
    docs = os.path.join(ROOT, "docs")
    known = {name: anchors(os.path.join(docs, name)) for name in os.listdir(docs) if name.endswith(".md")}
    problems = []
    citations = 0
    for path in sources():
        relative = os.path.relpath(path, ROOT)
        with open(path, encoding="utf-8", errors="replace") as handle:
            lines = handle.readlines()
        patterns = [CITATION] + ([LOCAL_LINK] if relative.startswith("docs" + os.sep) else [])
        for number, line in enumerate(lines, 1):
            if OLD_FORMS.search(line):
                problems.append(f"{relative}:{number}: cites outside the repository: {line.strip()}")
            for pattern in patterns:
                for match in pattern.finditer(line):
                    citations += 1
                    name, anchor = match.group(1), match.group(2)
                    if name not in known:
                        problems.append(f"{relative}:{number}: docs/{name} does not exist")
                    elif anchor and anchor not in known[name]:
                        problems.append(f"{relative}:{number}: docs/{name} has no section #{anchor}")
    for problem in problems:
        print(problem, file=sys.stderr)
    if problems:
        return 1
    print(f"doc citations: {citations} checked, all found")
    return 0


if __name__ == "__main__":
    sys.exit(main())
