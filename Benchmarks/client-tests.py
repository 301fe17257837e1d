#!/usr/bin/env python3
"""What a client library's tests pay for mockstack, measured in a client package.

Makes two client packages in a temporary folder, each depending on this checkout by path as a
client's would (`.package(name: "mockstack", path: …)`):

  attach  the test target depends on MockStackTesting alone (tests attach to MOCKSTACK_URL);
  spawn   it also depends on the `mockstack` product, which the test build then compiles.

For each it times, from an empty build folder, `swift package resolve` (SwiftPM resolves and
fetches mockstack's whole dependency graph, even the packages these targets never build) and
then the first `swift build --build-tests`, `--builds` times (the build folder emptied before
each; the median is reported against the targets: ≤ 60 s attaching, ≤ 90 s with the server,
on a 2-core machine). Then it runs the spawn package's tests in a debug
`swift test`, and the attach package's against a server this script starts, each test timing
the helper calls around its body with ContinuousClock inside the test process (printed as
`client-bench MODE INDEX HELPER_MICROSECONDS END_MICROSECONDS` and parsed here; the end, counted
from the first test's start, gives the run's wall time):

  session            withMockStackSession(apps: ["test"]), tests one after another (the default
                     pattern: the first test spawns the shared server, the rest take sessions)
  session-parallel   the same, tests in parallel (Swift Testing's default)
  server-per-test    startMockStack(apps: ["test"]) and stop() in every test
  attached           withMockStackSession(apps: ["test"]) on MOCKSTACK_URL

    python3 Benchmarks/client-tests.py [--tests 50] [--builds 3] [--keep] [--cold-cache]

--cold-cache resolves with an empty SwiftPM cache (every dependency cloned from the network);
by default the user's cache serves clones already made. Results: stdout and
Benchmarks/.work/client-tests.md.
"""
import argparse
import json
import os
import pathlib
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
LINE = re.compile(r"^client-bench (\S+) (\d+) (\d+) (\d+)$", re.M)

MANIFEST = """// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "ClientBench",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "mockstack", path: "{root}")],
    targets: [
        .testTarget(name: "ClientBenchTests", dependencies: [
            .product(name: "MockStackTesting", package: "mockstack"),{server}
        ]),
    ]
)
"""

PRELUDE = """import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MockStackTesting
import Testing

/// One request to the test app, checked: the body the helper calls are timed around.
func hello(_ base: URL) async throws {
    let url = base.appending(path: "api/Hello").appending(queryItems: [URLQueryItem(name: "name", value: "World")])
    let (data, _) = try await URLSession.shared.data(from: url)
    #expect(String(decoding: data, as: UTF8.self) == #"{"result":"Hello, World!"}"#)
}

/// When the first test began: the start of the run's wall time.
let firstStart = ContinuousClock.now

func microseconds(_ duration: Duration) -> Int64 {
    duration.components.seconds * 1_000_000 + duration.components.attoseconds / 1_000_000_000_000
}

/// The helper's share of a test (all of it but the body's), and when the test ended.
func report(_ mode: String, _ index: Int, total: Duration, body: Duration) {
    print("client-bench \\(mode) \\(index) \\(microseconds(total - body)) \\(microseconds(ContinuousClock.now - firstStart))")
}

/// withMockStackSession around `hello`, timed.
func sessionTest(_ mode: String, _ index: Int) async throws {
    _ = firstStart
    let start = ContinuousClock.now
    let body = try await withMockStackSession(apps: ["test"]) { session in
        let bodyStart = ContinuousClock.now
        try await hello(session.url(for: "test"))
        return ContinuousClock.now - bodyStart
    }
    report(mode, index, total: ContinuousClock.now - start, body: body)
}
"""

SPAWN_TESTS = PRELUDE + """
@Suite(.serialized) struct Session {
    @Test(arguments: 0..<{count}) func session(_ index: Int) async throws { try await sessionTest("session", index) }
}

@Suite struct SessionParallel {
    @Test(arguments: 0..<{count}) func session(_ index: Int) async throws { try await sessionTest("session-parallel", index) }
}

@Suite(.serialized) struct ServerPerTest {
    @Test(arguments: 0..<{count}) func server(_ index: Int) async throws {
        _ = firstStart
        let start = ContinuousClock.now
        let mock = try startMockStack(apps: ["test"])
        let bodyStart = ContinuousClock.now
        try await hello(mock.url(for: "test"))
        let body = ContinuousClock.now - bodyStart
        mock.stop()
        report("server-per-test", index, total: ContinuousClock.now - start, body: body)
    }
}
"""

ATTACH_TESTS = PRELUDE + """
@Suite(.serialized) struct Attached {
    @Test(arguments: 0..<{count}) func session(_ index: Int) async throws { try await sessionTest("attached", index) }
}
"""


def timed(command, cwd, env=None):
    """Runs `command`, echoing it; returns (seconds, stdout)."""
    print("+", " ".join(command), flush=True)
    start = time.monotonic()
    done = subprocess.run(command, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    seconds = time.monotonic() - start
    if done.returncode != 0:
        sys.stdout.write(done.stdout[-6000:])
        sys.exit(f"client-tests: {' '.join(command)} failed with status {done.returncode}")
    return seconds, done.stdout


def make_package(folder, server, tests):
    (folder / "Tests/ClientBenchTests").mkdir(parents=True, exist_ok=True)
    line = '\n            .product(name: "mockstack", package: "mockstack"),' if server else ""
    (folder / "Package.swift").write_text(MANIFEST.replace("{root}", str(ROOT)).replace("{server}", line))
    (folder / "Tests/ClientBenchTests/ClientBenchTests.swift").write_text(tests)


def clean_env(**extra):
    env = {name: value for name, value in os.environ.items() if name not in ("MOCKSTACK_BIN", "MOCKSTACK_URL")}
    env.update(extra)
    return env


def summary(samples):
    """mode -> (first test ms, median ms, max ms, wall ms per test): helper times, and the
    time from the first test's start to the last one's end over the number of tests."""
    by_mode = {}
    for mode, index, helper, end in samples:
        by_mode.setdefault(mode, []).append((int(index), int(helper) / 1000, int(end) / 1000))
    result = {}
    for mode, values in by_mode.items():
        values.sort()
        times = [ms for _, ms, _ in values]
        wall = max(end for _, _, end in values) / len(values)
        result[mode] = (times[0], statistics.median(times), max(times), wall)
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tests", type=int, default=50, help="tests per mode")
    parser.add_argument("--builds", type=int, default=3, help="first builds of each package, for their median")
    parser.add_argument("--swift", default=os.environ.get("SWIFT", "swift"))
    parser.add_argument("--keep", action="store_true", help="leave the packages in the temporary folder")
    parser.add_argument("--cold-cache", action="store_true", help="resolve with an empty SwiftPM cache")
    parser.add_argument("--reuse", metavar="DIR", help="a folder --keep left: run the tests again, without building")
    args = parser.parse_args()
    swift = args.swift
    work = pathlib.Path(args.reuse) if args.reuse else pathlib.Path(tempfile.mkdtemp(prefix="mockstack-client-tests-"))
    builds = {}
    try:
        for name, server, tests in (("attach", False, ATTACH_TESTS), ("spawn", True, SPAWN_TESTS)):
            package = work / name
            make_package(package, server, tests.replace("{count}", str(args.tests)))
            if args.reuse:
                timed([swift, "build", "--build-tests"], cwd=package)
                continue
            # Each package resolves with an empty cache of its own: both pay the clones.
            cache = ["--cache-path", str(work / ("cache-" + name))] if args.cold_cache else []
            resolve, _ = timed([swift, "package", *cache, "resolve"], cwd=package)
            times = []
            for _ in range(max(1, args.builds)):
                shutil.rmtree(package / ".build", ignore_errors=True)
                build, _ = timed([swift, "build", *cache, "--build-tests"], cwd=package)
                times.append(build)
            builds[name] = (resolve, times)

        spawn = work / "spawn"
        samples = []
        # One test process per mode, so that the first test of each is a test process's first.
        for suite in ("Session/", "SessionParallel/", "ServerPerTest/"):
            _, out = timed([swift, "test", "--skip-build", "--filter", suite], cwd=spawn, env=clean_env())
            samples += LINE.findall(out)

        # The attach package's tests against a server started from the spawn package's build.
        _, bin_path = timed([swift, "build", "--show-bin-path"], cwd=spawn)
        binary = pathlib.Path(bin_path.strip().splitlines()[-1]) / "mockstack"
        server = subprocess.Popen([str(binary), "serve", "--port", "0", "--apps", "test", "--log-level", "warning"],
                                  stdout=subprocess.PIPE, text=True)
        try:
            url = json.loads(server.stdout.readline())["url"]
            _, out = timed([swift, "test", "--skip-build"], cwd=work / "attach", env=clean_env(MOCKSTACK_URL=url))
            samples += LINE.findall(out)
        finally:
            server.terminate()
            server.wait()

        results = summary(samples)
        def first_builds(name, target):
            resolve, times = builds[name]
            median = statistics.median(times)
            verdict = "met" if median <= target else "MISSED"
            each = ", ".join(f"{t:.1f}" for t in times)
            return f"{resolve:.1f} | {median:.1f} ({each}) | ≤ {target} s: {verdict} |"

        lines = [
            f"Client package's first build ({'empty SwiftPM cache' if args.cold_cache else 'SwiftPM cache warm'}), seconds;"
            f" the median of {max(1, args.builds)} builds, each from an empty build folder:",
            "",
            "| test target depends on | swift package resolve | first swift build --build-tests | target |",
            "|---|---|---|---|",
            f"| MockStackTesting | {first_builds('attach', 60)}",
            f"| MockStackTesting + mockstack | {first_builds('spawn', 90)}",
            "",
        ] if builds else []
        lines += [
            f"Helper time per test in a debug `swift test` ({args.tests} tests each, measured in the test process), ms:",
            "",
            "| mode | first test | median | max | wall time / tests |",
            "|---|---|---|---|---|",
        ]
        for mode in ("session", "session-parallel", "server-per-test", "attached"):
            if mode in results:
                first, median, largest, wall = results[mode]
                lines.append(f"| {mode} | {first:.1f} | {median:.2f} | {largest:.1f} | {wall:.2f} |")
        text = "\n".join(lines) + "\n"
        print(text)
        report = ROOT / "Benchmarks/.work/client-tests.md"
        report.parent.mkdir(parents=True, exist_ok=True)
        report.write_text(text)
    finally:
        if args.keep or args.reuse:
            print(f"client-tests: packages kept in {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
