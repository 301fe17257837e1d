#!/usr/bin/env python3
"""Parser scaling check: every request-body parser must take time in
proportion to its input. For each hostile body it sends a 1 MiB and a 16 MiB version to a
running mockstack (one POST each, over loopback, after a warm-up) and fails when the 16 MiB one
takes more than --max-ratio (40) times as long as the 1 MiB one: 16 is linear, a quadratic
parser shows ~256.

    python3 Benchmarks/parsers.py [--mockstack BIN] [--max-ratio 40] [--rounds 3]

BIN defaults to $MOCKSTACK_BIN, else the release build, else the debug build. The server is
started on a free port with --max-body-bytes 64 MiB and stopped at the end. Times are the
best of --rounds (the machine is shared); each answer must be a 4xx or a 2xx, never a 5xx.
"""

import argparse
import http.client
import json
import os
import subprocess
import sys
import tempfile
import time

MIB = 1 << 20
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def multipart_backslashes(size):
    """Parts whose quoted file names are ~16 KB of backslashes (the parser's old O(n²) case)."""
    boundary = "hostile"
    name = "\\" * 16_000
    part = (f'--{boundary}\r\nContent-Disposition: form-data; name="f"; filename="{name}"\r\n'
            f"Content-Type: text/plain\r\n\r\n" + "x" * 16_000 + "\r\n").encode()
    count = max(1, size // len(part))
    return f"multipart/form-data; boundary={boundary}", part * count + f"--{boundary}--\r\n".encode()


def json_escapes(size):
    return "application/json", b'{"name":"' + b"\\\\" * (size // 2) + b'"}'


def json_numbers(size):
    return "application/json", b'{"names":[' + b"1," * (size // 2) + b"1]}"


def json_digits(size):
    return "application/json", b'{"Double":1' + b"0" * size + b"}"


def jsv_quotes(size):
    return "application/jsv", b'{Name:"' + b'\\"' * (size // 2) + b'"}'


def form_percent(size):
    return "application/x-www-form-urlencoded", b"name=" + b"%41" * (size // 3)


def form_digits(size):
    return "application/x-www-form-urlencoded", b"Decimal=0." + b"0" * size + b"1&Long=" + b"9" * size


def feathers_qs(size):
    """qs: 1,000 parameters (its limit), long bracketed keys sharing one parent."""
    key = "a" + "[b]" * 3
    count = 1000
    width = max(1, size // count - len(key) - 4)
    body = "&".join(f"{key}[{i:06d}{'k' * width}]=v" for i in range(count))
    return "application/x-www-form-urlencoded", body.encode()


def feathers_qs_prefix(size):
    """qs: 1,000 sibling keys alike but for their last characters (each merge compares them)."""
    width = max(1, size // 1000 - 12)
    body = "&".join(f"a[{'k' * width}{i:06d}]=v" for i in range(1000))
    return "application/x-www-form-urlencoded", body.encode()


CASES = [
    ("multipart backslashes", "/test/api/Hello", multipart_backslashes),
    ("JSON string escapes", "/test/api/Hello", json_escapes),
    ("JSON array of numbers", "/test/api/HelloList", json_numbers),
    ("JSON long number", "/test/api/EchoTypes", json_digits),
    ("JSV quoted escapes", "/test/api/Hello", jsv_quotes),
    ("form percent escapes", "/test/api/Hello", form_percent),
    ("form long numbers", "/test/api/EchoTypes", form_digits),
    ("Feathers qs keys", "/feathers/authentication", feathers_qs),
    ("Feathers qs like keys", "/feathers/authentication", feathers_qs_prefix),
]


def binary(explicit):
    if explicit:
        return explicit
    if os.environ.get("MOCKSTACK_BIN"):
        return os.environ["MOCKSTACK_BIN"]
    for configuration in ("release", "debug"):
        path = subprocess.run(["swift", "build", "-c", configuration, "--show-bin-path"], cwd=ROOT, capture_output=True,
                              text=True).stdout.strip()
        if path and os.access(os.path.join(path, "mockstack"), os.X_OK):
            return os.path.join(path, "mockstack")
    sys.exit("parsers: no mockstack binary; run swift build (or make release) first")


def start(bin_path):
    ready = tempfile.mktemp(suffix=".json")
    process = subprocess.Popen([bin_path, "serve", "--port", "0", "--fixtures", os.path.join(ROOT, "Fixtures"),
                                "--ready-file", ready, "--max-body-bytes", str(64 * MIB), "--timeout", "600",
                                "--log-level", "error"], stdout=subprocess.DEVNULL)
    for _ in range(600):
        if os.path.exists(ready) and os.path.getsize(ready) > 0:
            return process, json.load(open(ready))["port"]
        time.sleep(0.05)
    process.kill()
    sys.exit("parsers: the server did not start")


def post(port, path, content_type, body):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
    began = time.perf_counter()
    connection.request("POST", path, body=body, headers={"Content-Type": content_type, "Accept": "application/json"})
    response = connection.getresponse()
    response.read()
    elapsed = time.perf_counter() - began
    connection.close()
    return response.status, elapsed


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--mockstack")
    parser.add_argument("--max-ratio", type=float, default=40)
    parser.add_argument("--rounds", type=int, default=3)
    options = parser.parse_args()
    process, port = start(binary(options.mockstack))
    failures = []
    try:
        print(f"{'body':<24} {'1 MiB':>9} {'16 MiB':>9} {'ratio':>6}  statuses")
        for name, path, make in CASES:
            times, statuses = {}, set()
            for size in (MIB, 16 * MIB):
                content_type, body = make(size)
                post(port, path, content_type, body)  # warm-up
                best = None
                for _ in range(options.rounds):
                    status, elapsed = post(port, path, content_type, body)
                    statuses.add(status)
                    best = elapsed if best is None else min(best, elapsed)
                times[size] = best
            ratio = times[16 * MIB] / max(times[MIB], 1e-6)
            print(f"{name:<24} {times[MIB] * 1000:>7.1f}ms {times[16 * MIB] * 1000:>7.1f}ms {ratio:>6.1f}  {sorted(statuses)}")
            if ratio > options.max_ratio:
                failures.append(f"{name}: 16 MiB took {ratio:.1f}× the 1 MiB time (limit {options.max_ratio:g})")
            if any(status >= 500 for status in statuses):
                failures.append(f"{name}: a 5xx answer ({sorted(statuses)})")
    finally:
        process.terminate()
        process.wait(timeout=10)
    for failure in failures:
        print("FAIL " + failure, file=sys.stderr)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
