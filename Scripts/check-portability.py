#!/usr/bin/env python3
"""Fails when a Linux-only call, constant, path or import in Sources/ is not inside a Linux-only
branch of an `#if`.

The package must build on macOS as on Linux, and no Mac is at hand to find out: so every use of
something only Linux has sits in `#if os(Linux)` or `#if canImport(Glibc)` (or the `#else` of an
`#if` whose branches before it were all Apple's), with the Darwin path beside it. The names
checked are in LINUX_ONLY below; comments and multi-line string literals are not code and are
skipped. Run by `make test`:

    python3 Scripts/check-portability.py
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# What only Linux has, as the words or text that name it in Swift source.
LINUX_ONLY = [
    r"\bimport Glibc\b", r"\bGlibc\.", r"\bimport Musl\b", r'"/proc/', r"\bprctl\b", r"\bPR_SET_PDEATHSIG\b",
    r"\binotify_\w+", r"\bIN_(?:MODIFY|CREATE|DELETE|MOVED_FROM|MOVED_TO|CLOSE_WRITE|ONLYDIR|NONBLOCK|CLOEXEC)\b",
    r"\bepoll_\w+", r"\beventfd\b", r"\btimerfd_\w+", r"\bMSG_NOSIGNAL\b", r"\baccept4\b", r"\bSIOCOUTQ\b",
    r"\bTIOCOUTQ\b", r"\bTCP_INFO\b", r"\btcp_info\b", r"\bsched_getaffinity\b", r"\bmalloc_trim\b",
    r"\bmallopt\b", r"\bO_PATH\b", r"\bSOCK_CLOEXEC\b", r"\bSOCK_NONBLOCK\b", r"\bpipe2\b",
    r"\bCLOCK_MONOTONIC_COARSE\b", r"\bCLOCK_BOOTTIME\b", r"\bgetrandom\b", r"\bmemfd_create\b", r"\bstatx\b",
    r"\bcopy_file_range\b", r"\bsplice\b", r"\bSO_PEERCRED\b", r"\bTCP_QUICKACK\b", r"\bTCP_DEFER_ACCEPT\b",
    # libcrypto linked (MockStackDigest's, on Linux alone); OpenSSL opened with dlopen on both
    # systems (the transport's TLS) is called through its table, `ssl.EVP_…(`, and passes.
    r"\bimport CLibcrypto\b", r"(?<![.\w])EVP_\w+\s*\(",
]
PATTERN = re.compile("|".join(LINUX_ONLY))
LINUX_CONDITION = re.compile(r"os\(Linux\)|canImport\((?:Glibc|Musl)\)")
APPLE_CONDITION = re.compile(r"os\((?:macOS|iOS|tvOS|watchOS|visionOS)\)|canImport\(Darwin\)")


class Branch:
    """One `#if` being read: the conditions of its branches so far, and whether the current one
    is Linux's."""

    def __init__(self, condition):
        self.conditions = [condition]
        self.in_else = False

    def enter(self, condition):
        self.conditions.append(condition)

    def enter_else(self):
        self.in_else = True

    @property
    def linux_only(self):
        if self.in_else:
            # `#else` after branches that were all Apple's is everything else: Linux here.
            return all(APPLE_CONDITION.search(c) and not LINUX_CONDITION.search(c) for c in self.conditions)
        current = self.conditions[-1]
        return bool(LINUX_CONDITION.search(current)) and "!" not in current and "||" not in current


def code_of(line):
    """The line without a `//` comment (ignoring `//` inside a string, which `"/proc/` may be)."""
    in_string = False
    i = 0
    while i < len(line):
        if line[i] == '"' and (i == 0 or line[i - 1] != "\\"):
            in_string = not in_string
        elif not in_string and line.startswith("//", i):
            return line[:i]
        i += 1
    return line


def check(path):
    problems = []
    stack = []
    in_block_comment = False
    in_text = False
    with open(path, encoding="utf-8") as source:
        for number, line in enumerate(source, 1):
            stripped = line.strip()
            # A multi-line string literal is data (the control page's script), not Swift.
            if line.count('"""') % 2 == 1:
                in_text = not in_text
                continue
            if in_text:
                continue
            if in_block_comment:
                if "*/" in stripped:
                    in_block_comment = False
                continue
            if stripped.startswith("/*") and "*/" not in stripped:
                in_block_comment = True
                continue
            if stripped.startswith("#if "):
                stack.append(Branch(stripped[4:]))
                continue
            if stripped.startswith("#elseif ") and stack:
                stack[-1].enter(stripped[8:])
                continue
            if stripped.startswith("#else") and stack:
                stack[-1].enter_else()
                continue
            if stripped.startswith("#endif") and stack:
                stack.pop()
                continue
            code = code_of(line)
            match = PATTERN.search(code)
            if match and not any(branch.linux_only for branch in stack):
                problems.append(f"{os.path.relpath(path, ROOT)}:{number}: `{match.group(0)}` outside a Linux-only branch")
    return problems


def main():
    problems = []
    for tree in ["Sources", "Plugins"]:
        for folder, folders, files in os.walk(os.path.join(ROOT, tree)):
            folders.sort()
            for name in sorted(files):
                if name.endswith(".swift"):
                    problems += check(os.path.join(folder, name))
    if problems:
        print("portability: Linux-only code the Darwin build would meet (guard it with `#if os(Linux)`,")
        print("with the Darwin path beside it):")
        for problem in problems:
            print("  " + problem)
        return 1
    print("portability: every Linux-only call in Sources/ is inside a Linux-only branch")
    return 0


if __name__ == "__main__":
    sys.exit(main())
