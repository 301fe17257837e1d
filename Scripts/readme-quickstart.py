#!/usr/bin/env python3
"""Builds README.md's test quick start as the new package it describes, and runs its tests.

Every fenced block that follows a `<!-- quickstart: PATH -->` line in README.md is written to
PATH in a package made by `swift package init --type library --name MyClient`, exactly as
the README shows it, with one substitution: the manifest's `.package(url: …)` line for
mockstack points at this checkout by path. A block that no longer builds or passes fails
`make test`: the README's setup must work as pasted.

    Scripts/readme-quickstart.py [--package DIR] [--scratch-path BUILD] [--swift swift]

DIR (default .build/readme-quickstart) keeps its .build between runs, so a second run only
rebuilds what changed; the package's other files are rewritten every time. With --scratch-path
the package builds in another client package's build folder (`make test` gives the example's):
mockstack's modules, compiled there by the same commands from the same checkout, are reused
instead of compiled again (about a minute and a half on 2 cores).
"""
import argparse
import os
import pathlib
import re
import shutil
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
MARKER = re.compile(r"^<!-- quickstart: (\S+) -->\n```swift\n(.*?)^```$", re.M | re.S)
DEPENDENCY = '.package(url: "https://github.com/your-org/mockstack", from: "0.1.0")'


def snippets(readme):
    """(path, text) for each marked block, in the README's order."""
    found = [(match.group(1), match.group(2)) for match in MARKER.finditer(readme)]
    if not found:
        sys.exit("readme-quickstart: README.md has no <!-- quickstart: PATH --> blocks")
    return found


def localised(manifest):
    """The README's manifest with mockstack's dependency on this checkout."""
    if manifest.count(DEPENDENCY) != 1:
        sys.exit(f"readme-quickstart: the README's Package.swift must hold {DEPENDENCY} exactly once")
    return manifest.replace(DEPENDENCY, f'.package(name: "mockstack", path: "{ROOT}")')


def run(command, cwd, env=None):
    print("+", " ".join(command), flush=True)
    subprocess.run(command, cwd=cwd, env=env, check=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--package", default=str(ROOT / ".build/readme-quickstart"))
    parser.add_argument("--scratch-path", help="build in this folder (another client package's .build)")
    parser.add_argument("--swift", default=os.environ.get("SWIFT", "swift"))
    args = parser.parse_args()
    package = pathlib.Path(args.package)
    blocks = snippets((ROOT / "README.md").read_text())

    if not (package / "Package.swift").exists():
        package.mkdir(parents=True, exist_ok=True)
        run([args.swift, "package", "init", "--type", "library", "--name", "MyClient"], cwd=package)
    # Only what `swift package init` made and the README's blocks: no test file left over.
    shutil.rmtree(package / "Tests", ignore_errors=True)
    (package / "Tests/MyClientTests").mkdir(parents=True)
    for path, text in blocks:
        target = package / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(localised(text) if path == "Package.swift" else text)
        print(f"readme-quickstart: {path} from README.md", flush=True)

    scratch = ["--scratch-path", args.scratch_path] if args.scratch_path else []
    run([str(ROOT / "Scripts/build-checked.sh"), args.swift, "build", "--build-tests", *scratch], cwd=package)
    # As in a fresh clone: no MOCKSTACK_BIN or MOCKSTACK_URL, so the tests spawn what this build made.
    env = {name: value for name, value in os.environ.items() if name not in ("MOCKSTACK_BIN", "MOCKSTACK_URL")}
    run([args.swift, "test", "--skip-build", *scratch], cwd=package, env=env)


if __name__ == "__main__":
    main()
