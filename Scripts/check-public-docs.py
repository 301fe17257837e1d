#!/usr/bin/env python3
"""Lists public declarations without a `///` doc comment, and fails when there is one.

By default it reads the testing product — MockStackTesting and the two modules it re-exports,
MockStackWire and MockStackJSON — which client libraries read as API; give other source
folders as arguments to count theirs. A declaration is a line starting (after attributes) with
`public` or `open` and then `func`, `var`, `let`, `init`, `struct`, `class`, `enum`, `protocol`,
`typealias`, `subscript`, `actor` or `case`; it is documented when the line above it, past
attributes, is a `///` comment. Run by `make test`:

    python3 Scripts/check-public-docs.py [Sources/Module …]
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT = ["Sources/MockStackTesting", "Sources/MockStackWire", "Sources/MockStackJSON"]
MODIFIERS = r"(?:(?:static|final|class|override|nonisolated|mutating|convenience|required|indirect|private\(set\)|fileprivate\(set\)|internal\(set\))\s+)*"
DECLARATION = re.compile(r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:public|open)\s+(?!import\b|extension\b)" + MODIFIERS
                         + r"(func|var|let|init|struct|class|enum|protocol|typealias|subscript|actor|case)\b")
ATTRIBUTE = re.compile(r"^\s*@\w+")


def main(folders):
    total = missing = 0
    for folder in folders:
        for directory, _, names in sorted(os.walk(os.path.join(ROOT, folder))):
            for name in sorted(names):
                if not name.endswith(".swift"):
                    continue
                path = os.path.join(directory, name)
                with open(path, encoding="utf-8") as handle:
                    lines = handle.read().split("\n")
                for index, line in enumerate(lines):
                    if not DECLARATION.match(line):
                        continue
                    total += 1
                    above = index - 1
                    while above >= 0 and ATTRIBUTE.match(lines[above]):
                        above -= 1
                    if above < 0 or not lines[above].strip().startswith("///"):
                        missing += 1
                        print(f"{os.path.relpath(path, ROOT)}:{index + 1}: {line.strip()}", file=sys.stderr)
    print(f"public declarations: {missing} of {total} undocumented in {', '.join(folders)}")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:] or DEFAULT))
