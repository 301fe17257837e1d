#!/usr/bin/env python3
"""Start-up of `mockstack serve`, in instructions and in milliseconds, for one or more binaries.

    python3 Benchmarks/startup.py [--fixtures Fixtures] [--starts 20] [--phases] BINARY [BINARY ...]

For each binary, side by side in one run:
  * instructions to the ready line: callgrind counts the whole process (every thread) from exec
    until the ready line is read, when `callgrind_control -d` dumps the count (the same on every
    run of one binary, so it is the measure for comparing two versions of the code);
  * wall clock: exec to the first 200 from /__mockstack/health, median (and min) of `--starts`
    starts, the binaries taking turns so that the machine's noise falls on each alike.
`--phases` adds the inclusive count of each part of start-up (argument parsing, each app kind's
load, the JSON parser, …) from the same callgrind profile. `--apps NAMES` loads only those apps
(MOCKSTACK_APPS); `--no-instructions` skips callgrind (it needs valgrind and binutils).
"""

import argparse
import glob
import http.client
import json
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time

# Parts of start-up, by a piece of the demangled name of the function that does each. Inclusive
# counts overlap: the JSON parser runs inside the app kinds' loads.
PHASES = [
    ("argument parsing (ArgumentParser's parseAsRoot)", r"ParsableCommand\.parseAsRoot"),
    ("fixtures loaded and checked (AppLoader.load)", r"AppLoader\.load\(from"),
    ("  servicestack apps (ServiceStackAppKind.makeApp)", r"ServiceStackAppKind\.makeApp"),
    ("    data sets read and coerced (DataSetLoader.rows)", r"DataSetLoader\.rows\(of"),
    ("    TechStacks' data checked (TechStacksSite.init)", r"TechStacksSite\.init"),
    ("    metadata read from its JSON (MetadataTypes.init)", r"MetadataTypes\.init\(json"),
    ("    types resolved (TypeCatalog.init)", r"TypeCatalog\.init\(metadata"),
    ("  feathers apps (FeathersAppKind.makeApp)", r"FeathersAppKind\.makeApp"),
    ("  static apps (StaticAppKind.makeApp)", r"StaticAppKind\.makeApp"),
    ("  JSON documents parsed whole: manifests, metadata (Reader.parseDocument)", r"Reader\.parseDocument\(\)"),
    ("listening (MockStackServer.start)", r"MockStackServer\.start\(\)"),
]


def health(port):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    try:
        conn.request("GET", "/__mockstack/health")
        response = conn.getresponse()
        response.read()
        return response.status
    finally:
        conn.close()


def command(binary, fixtures):
    return [binary, "serve", "--port", "0", "--fixtures", fixtures, "--log-level", "warning"]


def one_start(binary, fixtures, env):
    """Milliseconds from exec to the first 200 of a fresh server."""
    began = time.perf_counter_ns()
    process = subprocess.Popen(command(binary, fixtures), stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, text=True)
    try:
        line = process.stdout.readline()
        if not line:
            raise RuntimeError(f"{binary} exited before its ready line (status {process.wait()})")
        status = health(json.loads(line)["port"])
        elapsed = (time.perf_counter_ns() - began) / 1e6
        if status != 200:
            raise RuntimeError(f"health answered {status}")
        return elapsed
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait()


def instructions(binary, fixtures, env, phases):
    """Instructions from exec to the ready line (all threads), and each phase's inclusive count."""
    work = tempfile.mkdtemp(prefix="mockstack-startup-")
    try:
        # valgrind 3.19 cannot read the DWARF 5 the toolchain writes: count on a copy without it.
        copy = os.path.join(work, "mockstack")
        subprocess.run(["objcopy", "--strip-debug", binary, copy], check=True)
        out = os.path.join(work, "callgrind.out")
        process = subprocess.Popen(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", *command(copy, fixtures)],
                                   stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, text=True)
        try:
            if not process.stdout.readline():
                raise RuntimeError(f"{binary} under callgrind exited before its ready line")
            subprocess.run(["callgrind_control", "-d", str(process.pid)], check=True, stdout=subprocess.DEVNULL)
        finally:
            process.kill()
            process.wait()
        dumps = sorted(glob.glob(out + ".*"))
        if not dumps:
            raise RuntimeError("callgrind wrote no dump")
        annotated = subprocess.run(["callgrind_annotate", "--inclusive=yes", "--threshold=100", dumps[0]],
                                   capture_output=True, text=True, check=True).stdout
        if phases and shutil.which("swift"):
            annotated = subprocess.run(["swift", "demangle", "--simplified"], input=annotated, capture_output=True, text=True, check=True).stdout
        total = int(re.search(r"([\d,]+) \(100\.0+%\)\s+PROGRAM TOTALS", annotated).group(1).replace(",", ""))
        found = {}
        if phases:
            for line in annotated.splitlines():
                match = re.match(r"\s*([\d,]+) \([ \d.%]+\)\s+(?:\?\?\?|\S+):(.*)", line)
                if not match:
                    continue
                count, name = int(match.group(1).replace(",", "")), match.group(2)
                # A recursive function's inner levels (`'2`) are inside its outer one.
                if re.search(r"'\d+ \[", name):
                    continue
                for label, pattern in PHASES:
                    # The function itself, not a protocol witness or closure calling it.
                    if re.match(r"(?:static |specialized )*" + pattern, name):
                        found[label] = found.get(label, 0) + count
        return total, found
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("binaries", nargs="+", metavar="BINARY")
    parser.add_argument("--fixtures", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Fixtures"))
    parser.add_argument("--starts", type=int, default=20)
    parser.add_argument("--apps", help="load only these apps (comma-separated), as MOCKSTACK_APPS")
    parser.add_argument("--phases", action="store_true", help="each part of start-up's inclusive instructions")
    parser.add_argument("--no-instructions", action="store_true", help="wall clock only (no valgrind)")
    args = parser.parse_args()
    env = dict(os.environ)
    env.pop("MOCKSTACK_APPS", None)
    if args.apps:
        env["MOCKSTACK_APPS"] = args.apps
    counts = {}
    if not args.no_instructions:
        for binary in args.binaries:
            print(f"startup: callgrind, {binary}", file=sys.stderr)
            counts[binary] = instructions(binary, args.fixtures, env, args.phases)
    times = {binary: [] for binary in args.binaries}
    for binary in args.binaries:
        one_start(binary, args.fixtures, env)  # the page cache warm for every binary alike
    print(f"startup: {args.starts} starts each, in turn", file=sys.stderr)
    for _ in range(args.starts):
        for binary in args.binaries:
            times[binary].append(one_start(binary, args.fixtures, env))
    apps = args.apps or "every app in " + os.path.normpath(args.fixtures)
    print(f"mockstack serve --port 0, {apps}: exec to the first 200 (median and min of {args.starts}), instructions to the ready line")
    print()
    print("| binary | median ms | min ms | instructions |")
    print("|---|---:|---:|---:|")
    for binary in args.binaries:
        total = f"{counts[binary][0] / 1e6:.1f}M" if binary in counts else "–"
        print(f"| {binary} | {statistics.median(times[binary]):.2f} | {min(times[binary]):.2f} | {total} |")
    if args.phases and counts:
        print()
        print("| phase (inclusive) | " + " | ".join(os.path.basename(b) for b in args.binaries) + " |")
        print("|---|" + "---:|" * len(args.binaries))
        for label, _ in PHASES:
            cells = [f"{counts[b][1][label] / 1e6:.2f}M" if label in counts[b][1] else "–" for b in args.binaries]
            print(f"| {label} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
