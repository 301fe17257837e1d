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

The load cache (docs/load-cache.md): each binary gets a temporary cache folder
(MOCKSTACK_CACHE_DIR), warmed by one start first, so the figures are a hit's (a binary without
the cache just loads). The miss is measured too: a fresh, empty cache folder for each start (the
full load and the record's writing). Under callgrind the deferred apps' background build is off
(MOCKSTACK_BACKGROUND_BUILD=off), so the count stops at the ready line. `--first-request` adds
the first request to /test and to /techstacks right after the ready line (each in starts of its
own), with the background build and without.
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

# The first requests --first-request times, each in starts of its own.
FIRST_REQUESTS = ["/test/api/Hello?name=World", "/techstacks/api/FindTechnologies?NameContains=a&take=5"]

# Parts of start-up, by a piece of the demangled name of the function that does each. Inclusive
# counts overlap: the JSON parser runs inside the app kinds' loads.
PHASES = [
    # The CLI's own parser; older binaries' serve fast path, or ArgumentParser's parse where a
    # binary has neither: they never nest.
    ("argument parsing (CommandLineParser.parse)", r"(?:CommandLineParser\.parse|Serve\.init\(plainArguments:\)|ParsableCommand\.parseAsRoot)"),
    ("fixtures loaded and checked (AppLoader.load)", r"AppLoader\.load\(from"),
    ("  servicestack apps (ServiceStackAppKind.makeApp)", r"ServiceStackAppKind\.makeApp"),
    ("    data sets read and coerced (DataSetLoader.rows)", r"DataSetLoader\.rows\(of"),
    ("    TechStacks' data checked (TechStacksSite.init)", r"TechStacksSite\.init"),
    ("    metadata read from its JSON (MetadataTypes.init)", r"MetadataTypes\.init\(json"),
    ("    types resolved (TypeCatalog.init)", r"TypeCatalog\.init\(metadata"),
    ("  feathers apps (FeathersAppKind.makeApp)", r"FeathersAppKind\.makeApp"),
    ("  static apps (StaticAppKind.makeApp)", r"StaticAppKind\.makeApp"),
    ("  JSON documents parsed whole: manifests, metadata (Reader.parseDocument)", r"Reader\.parseDocument\(\)"),
    ("load cache: the record read and checked, the apps described (LoadCache.load)", r"LoadCache\.load\(loader"),
    ("  the record read and decoded (LoadRecord.init(decoding:))", r"LoadRecord\.init\(decoding"),
    ("  each file's stat, and reads where it moved (LoadRecord.check)", r"LoadRecord\.check\(against"),
    ("  the apps mounted unbuilt (LoadCache.unbuilt)", r"LoadCache\.unbuilt\("),
    ("  the replay's digest (LoadRecord.digest, before the stat check)", r"LoadRecord\.digest\(key"),
    ("  fixtures read (DirectoryFixtureSource.read)", r"DirectoryFixtureSource\.read\("),
    ("load cache: the key, the executable's build ID (LoadCacheKey.init)", r"LoadCacheKey\.init\("),
    ("listening (MockStackServer.start)", r"MockStackServer\.start\(\)"),
    ("the dynamic loader, before main (_dl_start)", r"_dl_start \["),
    ("the Swift runtime's first-time type lookups (swift_getTypeByMangledName)", r"swift_getTypeByMangledName \["),
]


def get(port, path):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request("GET", path)
        response = conn.getresponse()
        response.read()
        return response.status
    finally:
        conn.close()


def command(binary, fixtures, level="warning"):
    return [binary, "serve", "--port", "0", "--fixtures", fixtures, "--log-level", level]


def one_start(binary, fixtures, env, path="/__mockstack/health"):
    """Milliseconds from exec to the first 200 of a fresh server (to `path`), and from the ready
    line to that 200."""
    began = time.perf_counter_ns()
    process = subprocess.Popen(command(binary, fixtures), stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, text=True)
    try:
        line = process.stdout.readline()
        if not line:
            raise RuntimeError(f"{binary} exited before its ready line (status {process.wait()})")
        ready = time.perf_counter_ns()
        status = get(json.loads(line)["port"], path)
        done = time.perf_counter_ns()
        if status != 200:
            raise RuntimeError(f"{path} answered {status}")
        return (done - began) / 1e6, (done - ready) / 1e6
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait()


def cache_env(env, folder, background=True):
    """`env` with the load cache in `folder`, and the background build on or off."""
    env = dict(env, MOCKSTACK_CACHE_DIR=folder)
    if background:
        env.pop("MOCKSTACK_BACKGROUND_BUILD", None)
    else:
        env["MOCKSTACK_BACKGROUND_BUILD"] = "off"
    return env


def cache_note(binary, fixtures, env):
    """The load cache's debug line of one start (`hit (…)`, `miss (…)`), or '' for a binary without it."""
    process = subprocess.Popen(command(binary, fixtures, "debug"), stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, text=True)
    try:
        process.stdout.readline()
    finally:
        process.send_signal(signal.SIGTERM)
        _, errors = process.communicate()
    found = re.search(r"load cache: (\w+)", errors)
    return found.group(1) if found else ""


def instructions(binary, fixtures, env, phases):
    """Instructions from exec to the ready line (all threads), and each phase's inclusive count."""
    work = tempfile.mkdtemp(prefix="mockstack-startup-")
    try:
        # valgrind 3.19 cannot read the DWARF 5 the toolchain writes: count on a copy without it.
        copy = os.path.join(work, "mockstack")
        subprocess.run(["objcopy", "--strip-debug", binary, copy], check=True)
        # The copy is another executable for the load cache: warm its record first (a hit).
        env = cache_env(env, os.path.join(work, "cache"), background=False)
        note = cache_note(copy, fixtures, env)
        if note and cache_note(copy, fixtures, env) != "hit":
            raise RuntimeError(f"{binary}: the second start did not hit the load cache")
        out = os.path.join(work, "callgrind.out")
        process = subprocess.Popen(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", *command(copy, fixtures, "debug")],
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, text=True)
        try:
            if not process.stdout.readline():
                raise RuntimeError(f"{binary} under callgrind exited before its ready line")
            subprocess.run(["callgrind_control", "-d", str(process.pid)], check=True, stdout=subprocess.DEVNULL)
        finally:
            process.kill()
            _, errors = process.communicate()
        if note and "load cache: hit" not in errors:
            raise RuntimeError(f"{binary} under callgrind did not hit the load cache: {errors[-500:]}")
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
    parser.add_argument("--first-request", action="store_true", help="the first request to /test and /techstacks after the ready line")
    args = parser.parse_args()
    env = dict(os.environ)
    env.pop("MOCKSTACK_APPS", None)
    if args.apps:
        env["MOCKSTACK_APPS"] = args.apps
    counts = {}
    work = tempfile.mkdtemp(prefix="mockstack-startup-cache-")
    try:
        if not args.no_instructions:
            for binary in args.binaries:
                print(f"startup: callgrind, {binary}", file=sys.stderr)
                counts[binary] = instructions(binary, args.fixtures, env, args.phases)
        warm = {binary: cache_env(env, os.path.join(work, f"warm{index}")) for index, binary in enumerate(args.binaries)}
        cached = {}
        for binary in args.binaries:
            # The page cache warm for every binary alike, and the record written: the starts hit.
            one_start(binary, args.fixtures, warm[binary])
            cached[binary] = cache_note(binary, args.fixtures, warm[binary]) == "hit"
        times = {binary: [] for binary in args.binaries}
        misses = {binary: [] for binary in args.binaries}
        print(f"startup: {args.starts} starts each, in turn", file=sys.stderr)
        for start in range(args.starts):
            for index, binary in enumerate(args.binaries):
                times[binary].append(one_start(binary, args.fixtures, warm[binary])[0])
                if cached[binary]:
                    misses[binary].append(one_start(binary, args.fixtures, cache_env(env, os.path.join(work, f"miss{index}-{start}")))[0])
        first = {}
        if args.first_request:
            print(f"startup: the first request, {args.starts} starts each", file=sys.stderr)
            for path in FIRST_REQUESTS:
                for background in (True, False):
                    for binary in args.binaries:
                        if not cached[binary] and not background:
                            continue
                        run_env = cache_env(env, warm[binary]["MOCKSTACK_CACHE_DIR"], background)
                        first[(path, background, binary)] = [one_start(binary, args.fixtures, run_env, path)[1] for _ in range(args.starts)]
    finally:
        shutil.rmtree(work, ignore_errors=True)
    apps = args.apps or "every app in " + os.path.normpath(args.fixtures)
    print(f"mockstack serve --port 0, {apps}: exec to the first 200 (median and min of {args.starts}), instructions to the ready line")
    print("(a binary with the load cache: a hit, its cache warmed first; the miss: an empty cache folder each start)")
    print()
    print("| binary | median ms | min ms | instructions | miss: median ms | miss: min ms |")
    print("|---|---:|---:|---:|---:|---:|")
    for binary in args.binaries:
        total = f"{counts[binary][0] / 1e6:.1f}M" if binary in counts else "–"
        miss = (f"{statistics.median(misses[binary]):.2f} | {min(misses[binary]):.2f}") if misses[binary] else "– | –"
        print(f"| {binary} | {statistics.median(times[binary]):.2f} | {min(times[binary]):.2f} | {total} | {miss} |")
    if args.phases and counts:
        print()
        print("| phase (inclusive) | " + " | ".join(os.path.basename(b) for b in args.binaries) + " |")
        print("|---|" + "---:|" * len(args.binaries))
        for label, _ in PHASES:
            cells = [f"{counts[b][1][label] / 1e6:.2f}M" if label in counts[b][1] else "–" for b in args.binaries]
            print(f"| {label} | " + " | ".join(cells) + " |")
    if first:
        print()
        print(f"The first request right after the ready line, ms (median and max of {args.starts} starts)")
        print()
        print("| request | binary | background build | median ms | max ms |")
        print("|---|---|---|---:|---:|")
        for (path, background, binary), values in first.items():
            mode = ("on" if background else "off") if cached[binary] else "(no cache)"
            print(f"| {path} | {binary} | {mode} | {statistics.median(values):.2f} | {max(values):.2f} |")

if __name__ == "__main__":
    main()
