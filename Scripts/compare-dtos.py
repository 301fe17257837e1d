#!/usr/bin/env python3
"""Compares mockstack's /types/LANG for an app with a DTO file a real host generated, after the header.

    Scripts/compare-dtos.py LANG APP REAL_FILE [--option Key=Value ...] [--ignoring-layout]

The options the real file's header gives (its lines between `BaseUrl:` and the header's end
that are not commented out) are asked for, as `x LANG FILE` would ask, and the two bodies are
diffed, the real file's on the left. Extra `--option`s are added to the header's (a type the
real file predates can be excluded with `--option ExcludeTypes=Name`). `--ignoring-layout`
compares statements with their white space and trailing commas removed, for a real file that a
formatter (`dart format`) rewrote after it was fetched. `--by-declaration` compares the two
files declaration by declaration, whatever their order, and counts those that are identical.

Exit status 0 when identical, 1 with the diff printed otherwise. MOCKSTACK_BIN picks the binary
(default: the debug build's), MOCKSTACK_FIXTURES the fixture folder (default: Fixtures).
"""
import argparse
import difflib
import os
import re
import subprocess
import sys

# Per language: what comments an option out, and the line that ends the header.
HEADERS = {
    "swift": ("//", "*/"),
    "python": ("#", '"""'),
    "typescript": ("//", "*/"),
    "typescript.d": ("//", "*/"),
    "mjs": ("//", "*/"),
    "js": ("//", "*/"),
    "java": ("//", "*/"),
    "kotlin": ("//", "*/"),
    "dart": ("//", "*/"),
    "csharp": ("//", "*/"),
    "fsharp": ("//", "*)"),
    # VB.NET's header is `'` comment lines with no closing line: it ends at its first line that
    # is not a comment; a given option's line starts with one `'`, a disabled one with three.
    "vbnet": ("'''", None),
    "php": ("//", "*/"),
}


def header_options(lines, prefix, close):
    """The header's `Key: value` lines after `BaseUrl:` that `prefix` does not disable."""
    options, base_url, inside = [], None, False
    if close is None:
        # The header ends at the first line that is not a comment; a given option loses its `'`.
        header = []
        for line in lines:
            if not line.startswith("'"):
                break
            if not line.startswith(prefix):
                header.append(line[1:])
        lines = header
    for line in lines:
        if line.startswith("BaseUrl:"):
            base_url, inside = line[len("BaseUrl:"):].strip(), True
        elif inside and line.strip() == close:
            break
        elif inside and line.strip() and not line.startswith(prefix):
            key, _, value = line.partition(":")
            options.append(f"{key.strip()}={value.strip()}")
    return base_url, options


def body(text, close):
    """Everything after the header's closing line, after what comes before the header's first
    line (PHP's `<?php namespace dtos;`), which is compared too."""
    lines = text.split("\n")
    if close is None:
        return lines[next((index for index, line in enumerate(lines) if not line.startswith("'")), len(lines)):]
    opening = next((index for index, line in enumerate(lines) if line.endswith(" Options:")), 0)
    for index, line in enumerate(lines):
        if line.strip() == close:
            return lines[:opening] + lines[index + 1:]
    return lines


def statements(lines):
    """The body as statements without white space, trailing commas or line comments' layout."""
    text = re.sub(r"\s+", "", "\n".join(lines))
    text = re.sub(r",([)\]}])", r"\1", text)
    return [part for part in re.split(r"(?<=[;{}])", text) if part]


DECLARATION = re.compile(
    r"^(\s*)(?:(?:public|export|abstract|open|data|static|final|partial|sealed|declare|Public|Partial)\s+)*"
    r"(?:class|enum|interface|struct|protocol|type|Class|Enum|Interface)\s+([A-Za-z_][A-Za-z0-9_]*)")
# In the script files a top-level `var X` declares too (an ES5 class, an enum's object); in the
# others `var` is a member.
SCRIPT_DECLARATION = re.compile(
    r"^()(?:(?:export|declare)\s+)*(?:class|enum|interface|type|var)\s+([A-Za-z_][A-Za-z0-9_]*)")

# The script files (`mjs`, `js`) put no blank line between declarations: each starts at its
# `export class X`, `export var X;` or `var X = /** @class */` line, after its comments.
UNSEPARATED = {"mjs", "js"}


def unseparated_declarations(lines):
    """Each top-level declaration's lines by its name, with the comment lines just above it."""
    found, current, name, pending = {}, [], None, []
    for line in lines:
        match = SCRIPT_DECLARATION.match(line)
        if match and not line.startswith("var __extends"):
            if name:
                found.setdefault(name, current)
            name, current, pending = match.group(2), pending + [line], []
        elif not line.startswith((" ", "\t", "}", "(", "exports.", "})")) and line.strip():
            # A comment or statement at the top level opens what comes next.
            pending.append(line)
        else:
            current += pending + [line]
            pending = []
    if name:
        found.setdefault(name, current)
    return found


def declarations(lines):
    """Each declaration's lines by its name: a declaration runs from the blank line before it to
    the next blank line that is followed by a line as indented as the declarations (most are,
    where one class nests the others, as in Java)."""
    indents = [len(m.group(1)) for m in map(DECLARATION.match, lines) if m]
    indent = max(set(indents), key=indents.count) if indents else 0
    chunks, current = [], []
    for index, line in enumerate(lines):
        following = next((l for l in lines[index + 1:] if l.strip()), "")
        if not line.strip() and len(following) - len(following.lstrip()) == indent:
            chunks.append(current)
            current = []
        else:
            current.append(line)
    chunks.append(current)
    found = {}
    for chunk in chunks:
        # The file's own closing lines are no part of its last declaration.
        while chunk and (not chunk[-1].strip() or chunk[-1].strip() == "}") and \
                len(chunk[-1]) - len(chunk[-1].lstrip()) < indent:
            chunk.pop()
        match = next((m for m in map(DECLARATION.match, chunk) if m and len(m.group(1)) == indent), None)
        if match:
            found.setdefault(match.group(2), chunk)
    return found


def compare_declarations(left, right, real_name, language):
    """Prints each declaration that differs or is in one file only; True when none does."""
    split = unseparated_declarations if language in UNSEPARATED else declarations
    real, ours = split(left), split(right)
    same = [name for name in real if name in ours and real[name] == ours[name]]
    differing = [name for name in real if name in ours and real[name] != ours[name]]
    for name in differing:
        print("\n".join(difflib.unified_diff(real[name], ours[name], real_name, "mockstack", lineterm="", n=1)))
    only_real = [name for name in real if name not in ours]
    only_ours = [name for name in ours if name not in real]
    print(f"{len(same)} of {len(real)} declarations of {real_name} identical; "
          f"{len(differing)} differ: {', '.join(differing) or '-'}")
    print(f"only in {real_name}: {', '.join(only_real) or '-'}")
    print(f"only in mockstack: {', '.join(only_ours) or '-'}")
    return not differing and not only_real and not only_ours


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("language", choices=sorted(HEADERS))
    parser.add_argument("app")
    parser.add_argument("real_file")
    parser.add_argument("--option", action="append", default=[], metavar="Key=Value")
    parser.add_argument("--ignoring-layout", action="store_true")
    parser.add_argument("--by-declaration", action="store_true")
    args = parser.parse_args()

    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    binary = os.environ.get("MOCKSTACK_BIN", os.path.join(root, ".build/debug/mockstack"))
    fixtures = os.environ.get("MOCKSTACK_FIXTURES", os.path.join(root, "Fixtures"))
    prefix, close = HEADERS[args.language]
    with open(args.real_file, encoding="utf-8") as file:
        real = file.read()
    base_url, options = header_options(real.split("\n"), prefix, close)
    command = [binary, "codegen", args.language, "--app", args.app, "--fixtures", fixtures]
    if base_url:
        command += ["--base-url", base_url]
    for option in options + args.option:
        command += ["--option", option]
    ours = subprocess.run(command, check=True, capture_output=True, text=True).stdout

    left, right = body(real, close), body(ours, close)
    if args.by_declaration:
        sys.exit(0 if compare_declarations(left, right, args.real_file, args.language) else 1)
    if args.ignoring_layout:
        left, right = statements(left), statements(right)
    diff = list(difflib.unified_diff(left, right, args.real_file, "mockstack", lineterm="", n=2))
    if diff:
        print("\n".join(diff))
        sys.exit(1)
    print(f"{args.app}: identical to {args.real_file} after the header")


if __name__ == "__main__":
    main()
