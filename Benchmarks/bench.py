#!/usr/bin/env python3
"""mockstack beside nginx, measured in one run on one machine.

Measures, with the same wrk settings back to back:
  * a fixture GET (/example/widgets, the same bytes from both servers) at 32 connections and at 1,
    req/s and p50/p99 latency, and the ratio mockstack/nginx per round (median over rounds);
  * emulated ServiceStack endpoints of the `test` app (/api/Hello through its template, a ThrowType
    error with its stack trace) at 32 connections, each against nginx's static baseline in the same rounds;
  * AutoQuery over the `techstacks` app's technologies (FindTechnologies with a Contains filter,
    an order and a page) against the same baseline;
  * AutoQuery scaling: the same query over generated data sets of 10k and 100k rows, one request
    at a time, p50 latency and server CPU per request, and how the cost grows between them;
  * start-up: exec of `mockstack serve --port 0` to the first 200 from it, median of N;
  * resident memory: idle after start-up, and the high-water mark after the load;
  * the control plane: req/s of the fixture GET with the journal on against a server
    with it off, in alternating rounds; a 1,000,000-request run with the journal on and its RSS;
    the time of POST /__mockstack/reset with state to restore.
Prints a table and writes it, with the machine description, to Benchmarks/.work/results.md.

Each measure is judged ("meets target" / "MISSES target") by the Targets table of
Benchmarks/README.md, the project's standing targets; a target this script cannot measure as the
table states it is printed as "not judged here", with the reason, and a figure the table sets no
target for is printed without a verdict.
"""

import argparse
import datetime
import http.client
import json
import os
import platform
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import time

import seed
import startup

HERE = os.path.dirname(os.path.abspath(__file__))
WORK = os.path.join(HERE, ".work")
FIXTURE_PATH = "/example/widgets"
# The certificate both servers use over HTTPS: the tests' (Tests/TLS), ECDSA P-256.
TLS_CERT = os.path.join(os.path.dirname(HERE), "Tests", "TLS", "server.pem")
TLS_KEY = os.path.join(os.path.dirname(HERE), "Tests", "TLS", "server-key.pem")
AUTOQUERY = "/api/FindTechnologies?NameContains=a&orderByDesc=ViewCount&take=50"
# Emulated endpoints, each measured against nginx serving FIXTURE_PATH: path, status, and the
# least ratio to that static GET the Targets table sets (None: the table sets none; FindTechnologies
# is judged against nginx serving its same bytes instead, SAME_BYTES_RATIO below).
ENDPOINTS = {
    "Hello (template)": ("/test/api/Hello?name=World", 200, 0.8),
    "ThrowType error": ("/test/api/ThrowType?type=NotFound&message=not+here", 404, 0.8),
    "FindTechnologies (AutoQuery)": ("/techstacks" + AUTOQUERY, 200, None),
    "techstacks /types/swift (cached)": ("/techstacks/types/swift", 200, None),
}
# Targets of the table in Benchmarks/README.md without a constant of their own: the fixture
# GET's req/s against nginx's with one loop each and with two (its p99 is judged against nginx's
# own in the same rounds, so it needs no constant), idle RSS with every shipped app, and the
# AutoQuery's p50 at 100,000 rows and how its cost grows from 10,000.
TARGETS = {"ratio_one_loop": 1.05, "ratio_two_loops": 1.0, "idle_rss_mib": 12.0,
           "scale_p50_ms": 10.0, "scale_growth": 12.0}
# The start-up target is ≤ 2× a static Swift hello world's exec → exit in the same run; this
# script builds no hello world, so its start-up figures are printed without a verdict.
STARTUP_NOT_JUDGED = ("not judged here: the target is ≤ 2× a static Swift hello world's exec → exit "
                      "in the same run, which bench.py does not build (Benchmarks/README.md, startup.py)")
SCALE_SIZES = (10_000, 100_000)
SAME_BYTES = "nginx, the AutoQuery answer's bytes"
SAME_BYTES_PATH = "/findtechnologies.json"
SWIFT_BYTES = "nginx, the /types/swift file's bytes"
SWIFT_BYTES_PATH = "/techstacks.dtos.swift"
SAME_BYTES_RATIO = 0.8  # FindTechnologies' req/s against nginx serving its same bytes, per round
FEATHERS_CRUD_TARGET = 20_000  # the Feathers CRUD mix at -c32, req/s
FEATHERS_RATIO_TARGET = 0.5  # the mix's req/s against nginx's static GET's, per round
FEATHERS_SCRIPT = os.path.join(HERE, "feathers-crud.lua")
FEATHERS_SEED = os.path.join(HERE, "feathers-crud.seed")
JOURNAL_SCRIPT = os.path.join(HERE, "journal-mix.lua")
# The control plane: the journal costs at most 10% of the fixture GET's req/s; a million requests
# keep RSS within 48 MiB; a reset takes at most 5 ms.
JOURNAL_COST_TARGET = 0.10
LONG_RUN_REQUESTS = 1_000_000
LONG_RUN_RSS_MIB = 48.0
RESET_TARGET_MS = 5.0


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def http_get(port, path, timeout=2.0):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request("GET", path)
        response = conn.getresponse()
        return response.status, response.read()
    finally:
        conn.close()


def rss_kib(pid, field="VmRSS"):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    raise RuntimeError(f"no {field} for pid {pid}")


# With two or more CPUs the servers run on the last one and wrk on the first, so that the two
# do not trade places on one core mid-run; both servers get the same treatment.
PINNING = shutil.which("taskset") is not None and (os.cpu_count() or 1) >= 2
SERVER_CPU = ["taskset", "-c", str((os.cpu_count() or 1) - 1)] if PINNING else []
CLIENT_CPU = ["taskset", "-c", "0"] if PINNING else []


def cpu_seconds(pids):
    """User and system CPU seconds used so far by these processes."""
    ticks = os.sysconf("SC_CLK_TCK")
    user = system = 0
    for pid in pids:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        user += int(fields[11])
        system += int(fields[12])
    return user / ticks, system / ticks


def start_mockstack(binary, fixtures, pinned=False, extra=()):
    """Starts `mockstack serve` on port 0; returns (process, port) once its ready line is read.
    With `--https-port` among `extra`, the process's `https_port` is the port it got."""
    process = subprocess.Popen(
        (SERVER_CPU if pinned else []) + [binary, "serve", "--port", "0", "--fixtures", fixtures, "--log-level", "warning", *extra],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    line = process.stdout.readline()
    if not line:
        raise RuntimeError(f"mockstack exited before it was ready (status {process.wait()})")
    ready = json.loads(line)
    process.https_port = ready.get("httpsPort")
    return process, ready["port"]


def stop(process):
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def measure_startup(binary, fixtures, samples):
    """exec → first 200 from the fresh process, and its RSS once idle; medians over `samples` starts."""
    startup_ms, idle_rss = [], []
    for _ in range(samples):
        began = time.perf_counter_ns()
        process, port = start_mockstack(binary, fixtures)
        status, _ = http_get(port, "/__mockstack/health")
        elapsed = (time.perf_counter_ns() - began) / 1e6
        if status != 200:
            raise RuntimeError(f"health answered {status}")
        startup_ms.append(elapsed)
        time.sleep(0.2)
        idle_rss.append(rss_kib(process.pid))
        stop(process)
    return startup_ms, idle_rss


NGINX_CONF = """\
# Written by Benchmarks/bench.py: nginx at its usual static-file best, as many workers as mockstack has loops.
{user}worker_processes {workers};
daemon off;
pid {work}/nginx-{port}.pid;
error_log {work}/nginx-error.log warn;
events {{ worker_connections 4096; }}
http {{
    access_log off;
    keepalive_requests 100000000;
    keepalive_timeout 120s;
    sendfile on;
    tcp_nopush on;
    tcp_nodelay on;
    open_file_cache max=64 inactive=60s;
    open_file_cache_valid 3600s;
    client_body_temp_path {work}/nginx-tmp/body;
    proxy_temp_path {work}/nginx-tmp/proxy;
    fastcgi_temp_path {work}/nginx-tmp/fastcgi;
    uwsgi_temp_path {work}/nginx-tmp/uwsgi;
    scgi_temp_path {work}/nginx-tmp/scgi;
    types {{ }}
    default_type "application/json; charset=utf-8";
    server {{
        listen 127.0.0.1:{port}{tls};
        root {root};
    }}
}}
"""


def start_nginx(root, body, workers=1, pinned=True, tls=False):
    """Serves `body` at FIXTURE_PATH from an nginx configured here; returns (process, port).
    With `tls`, over HTTPS with the test certificate (TLS_CERT), TLS 1.2 and 1.3 as mockstack."""
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    os.makedirs(os.path.join(WORK, "nginx-tmp"), exist_ok=True)
    target = os.path.join(root, FIXTURE_PATH.lstrip("/"))
    os.makedirs(os.path.dirname(target), exist_ok=True)
    with open(target, "wb") as f:
        f.write(body)
    port = free_port()
    conf = os.path.join(WORK, f"nginx-{workers}.conf")
    with open(conf, "w") as f:
        # As root, nginx's workers would drop to `nobody`, which may not read a checkout under /root.
        f.write(NGINX_CONF.format(user="user root;\n" if os.geteuid() == 0 else "",
                                  work=WORK, root=root, port=port, workers=workers,
                                  tls=(f" ssl;\n        ssl_certificate {TLS_CERT};\n        ssl_certificate_key {TLS_KEY};\n"
                                       "        ssl_protocols TLSv1.2 TLSv1.3") if tls else ""))
    process = subprocess.Popen((SERVER_CPU if pinned else []) + [nginx, "-p", WORK, "-c", conf], stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        try:
            if tls:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
            else:
                http_get(port, FIXTURE_PATH)
            return process, port
        except OSError:
            if process.poll() is not None:
                raise RuntimeError("nginx did not start: " + process.stderr.read())
            time.sleep(0.02)
    raise RuntimeError("nginx did not answer within 5 s")


PEER = "Hummingbird"


def start_peer(binary, files, threads=1, pinned=True):
    """Starts the Hummingbird peer (Benchmarks/peers/hummingbird-peer) serving `files`
    ({url path: file}); returns (process, port) once its ready line is read."""
    command = [binary, "--port", "0", "--threads", str(threads)]
    for url, path in files.items():
        command += ["--file", f"{path}={url}"]
    process = subprocess.Popen((SERVER_CPU if pinned else []) + command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    line = process.stdout.readline()
    if not line:
        raise RuntimeError(f"the Hummingbird peer exited before it was ready (status {process.wait()})")
    return process, json.loads(line)["port"]


def nginx_pids(master):
    """The master and its workers."""
    children = subprocess.run(["pgrep", "-P", str(master.pid)], capture_output=True, text=True).stdout
    return [master.pid] + [int(pid) for pid in children.split()]


def nginx_rss_kib(master):
    """Resident memory of the master and its workers."""
    return sum(rss_kib(pid) for pid in nginx_pids(master))


UNIT_MS = {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60000.0}


def run_wrk(port, connections, duration, server_pids=(), path=FIXTURE_PATH, expected_status=200, script=None, threads=1,
            scheme="http", headers=()):
    """One wrk run; returns req/s, p50 and p99 in ms, the server's CPU µs per request (user,
    system), and any errors wrk reported (non-2xx answers only when 2xx was expected).
    One wrk thread is pinned to the first CPU; more run wherever the scheduler puts them."""
    cpu_before = cpu_seconds(server_pids)
    output = subprocess.run(
        (CLIENT_CPU if threads == 1 else []) + ["wrk", f"-t{threads}", f"-c{connections}", f"-d{duration}s", "--latency"]
        + (["-s", script] if script else []) + [arg for header in headers for arg in ("-H", header)]
        + [f"{scheme}://127.0.0.1:{port}{path}"],
        capture_output=True, text=True, check=True).stdout
    cpu_after = cpu_seconds(server_pids)
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1))
    requests = int(re.search(r"(\d+) requests in", output).group(1))
    user_us, system_us = ((after - before) * 1e6 / max(requests, 1) for before, after in zip(cpu_before, cpu_after))

    def percentile(p):
        value, unit = re.search(rf"^\s+{p}%\s+([\d.]+)(us|ms|s|m)\s*$", output, re.M).groups()
        return float(value) * UNIT_MS[unit]

    errors = []
    match = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    if match and expected_status < 300:
        errors.append(f"{match.group(1)} non-2xx")
    if not match and expected_status >= 300:
        errors.append(f"expected {expected_status} answers, got 2xx")
    if match := re.search(r"Socket errors: (.*)", output):
        errors.append("socket errors: " + match.group(1))
    return {"rps": rate, "p50": percentile(50), "p99": percentile(99), "user_us": user_us, "system_us": system_us,
            "errors": errors}


def compare_under_load(servers, connections, duration, rounds, threads=1):
    """Rounds of back-to-back runs, alternating the order; medians per target, and per round the
    ratio of each target's req/s to nginx's. `servers` maps a name to (port, pids whose CPU time
    is the server's, path, expected status); one of them is "nginx"."""
    for port, _, path, status in servers.values():
        run_wrk(port, connections, 2, path=path, expected_status=status, threads=threads)  # warm-up, not recorded
    runs = {name: [] for name in servers}
    ratios = {name: [] for name in servers if name != "nginx"}
    peer_ratios = []
    order = list(servers)
    for round_index in range(rounds):
        for name in (order if round_index % 2 == 0 else list(reversed(order))):
            port, pids, path, status = servers[name]
            runs[name].append(run_wrk(port, connections, duration, pids, path, status, threads=threads))
        for name in ratios:
            ratios[name].append(runs[name][-1]["rps"] / runs["nginx"][-1]["rps"])
        if PEER in runs and "mockstack" in runs:
            peer_ratios.append(runs["mockstack"][-1]["rps"] / runs[PEER][-1]["rps"])
    summary = {}
    for name, results in runs.items():
        summary[name] = {key: statistics.median(r[key] for r in results)
                         for key in ("rps", "p50", "p99", "user_us", "system_us")}
        summary[name]["errors"] = sorted({e for r in results for e in r["errors"]})
        summary[name]["all_rps"] = [r["rps"] for r in results]
        if name in ratios:
            summary[name]["ratio"] = statistics.median(ratios[name])
            summary[name]["ratios"] = ratios[name]
    if peer_ratios:
        summary["mockstack"]["peer_ratio"] = statistics.median(peer_ratios)
        summary["mockstack"]["peer_ratios"] = peer_ratios
    return summary


def measure_two_loops(args, www, body, fixture_file):
    """The fixture GET with two of everything: mockstack --threads 2, nginx with two workers,
    the peer with two event loops; none pinned (two CPUs are all there is, wrk included),
    wrk with two threads at 32 connections."""
    print(f"bench: two loops each, -t2 -c32 -d{args.duration}s x {args.rounds} rounds", file=sys.stderr)
    started = []
    try:
        mockstack, mock_port = start_mockstack(args.mockstack, args.fixtures, extra=("--threads", "2"))
        started.append(mockstack)
        nginx, nginx_port = start_nginx(www, body, workers=2, pinned=False)
        started.append(nginx)
        servers = {"mockstack": (mock_port, [mockstack.pid], FIXTURE_PATH, 200),
                   "nginx": (nginx_port, nginx_pids(nginx), FIXTURE_PATH, 200)}
        if args.hummingbird:
            peer, peer_port = start_peer(args.hummingbird, {FIXTURE_PATH: fixture_file}, threads=2, pinned=False)
            started.append(peer)
            assert http_get(peer_port, FIXTURE_PATH) == (200, body), "the Hummingbird peer does not serve the same bytes"
            servers[PEER] = (peer_port, [peer.pid], FIXTURE_PATH, 200)
        return compare_under_load(servers, 32, args.duration, args.rounds, threads=2)
    finally:
        for process in started:
            stop(process)


def start_baselines(args, www, body):
    """nginx, and the Hummingbird peer when given, serving `body` at FIXTURE_PATH, each checked
    to serve exactly those bytes; returns (nginx, its port, their wrk targets by name, the
    processes started, the fixture's file)."""
    nginx, nginx_port = start_nginx(www, body)
    started = [nginx]
    try:
        status, nginx_body = http_get(nginx_port, FIXTURE_PATH)
        assert status == 200 and nginx_body == body, "nginx does not serve the same bytes"
        targets = {"nginx": (nginx_port, nginx_pids(nginx), FIXTURE_PATH, 200)}
        fixture_file = os.path.join(www, FIXTURE_PATH.lstrip("/"))
        if args.hummingbird:
            peer, peer_port = start_peer(args.hummingbird, {FIXTURE_PATH: fixture_file})
            started.append(peer)
            assert http_get(peer_port, FIXTURE_PATH) == (200, body), "the Hummingbird peer does not serve the same bytes"
            targets[PEER] = (peer_port, [peer.pid], FIXTURE_PATH, 200)
    except BaseException:
        for process in started:
            stop(process)
        raise
    return nginx, nginx_port, targets, started, fixture_file


def fixture_get_report(args):
    """The fixture GET alone, one loop at -c32 and two loops at -t2 -c32, against nginx (and the
    peer when given): the quick check of a change to the request path."""
    mockstack, mock_port = start_mockstack(args.mockstack, args.fixtures, pinned=True)
    started = [mockstack]
    try:
        status, body = http_get(mock_port, FIXTURE_PATH)
        assert status == 200, f"mockstack answered {status} for {FIXTURE_PATH}"
        www = os.path.join(WORK, "www")
        _, _, baselines, more, fixture_file = start_baselines(args, www, body)
        started += more
        servers = {"mockstack": (mock_port, [mockstack.pid], FIXTURE_PATH, 200), **baselines}
        print(f"bench: -t1 -c32 -d{args.duration}s x {args.rounds} rounds", file=sys.stderr)
        one_loop = compare_under_load(servers, 32, args.duration, args.rounds)
    finally:
        for process in started:
            stop(process)
    two_loops = measure_two_loops(args, www, body, fixture_file)
    return (["| load | server | req/s | p50 ms | p99 ms | server CPU µs/req (user+sys) | mockstack/nginx req/s (per round) | mockstack/Hummingbird (per round) |",
             "|---|---|---:|---:|---:|---:|---:|---:|"]
            + load_rows("one loop (one CPU), -c32", one_loop)
            + load_rows("two loops (two CPUs, wrk's too), -t2 -c32", two_loops)
            + [""] + fixture_get_verdicts(one_loop, two_loops))


def fixture_get_verdicts(one_loop, two_loops):
    """The fixture GET's lines judged by the Targets table: req/s against nginx's with one loop
    each and with two, and p99 with one loop against nginx's in the same rounds."""
    one, two = one_loop["mockstack"]["ratio"], two_loops["mockstack"]["ratio"]
    p99, nginx_p99 = one_loop["mockstack"]["p99"], one_loop["nginx"]["p99"]
    return [
        f"- fixture GET at -c32: {one:.2f}× nginx with one loop each — {verdict(one >= TARGETS['ratio_one_loop'])} "
        f"(≥ {TARGETS['ratio_one_loop']}×); {two:.2f}× with two — {verdict(two >= TARGETS['ratio_two_loops'])} "
        f"(≥ {TARGETS['ratio_two_loops']}×)"
        + (f"; {one_loop['mockstack']['peer_ratio']:.2f}× Hummingbird with one loop, "
           f"{two_loops['mockstack']['peer_ratio']:.2f}× with two"
           if "peer_ratio" in one_loop["mockstack"] and "peer_ratio" in two_loops["mockstack"] else ""),
        f"- p99 of the fixture GET at -c32, one loop: {p99:.3f} ms, nginx {nginx_p99:.3f} ms "
        f"(medians of the same rounds) — {verdict(p99 <= nginx_p99)} (≤ nginx's)",
    ]


def same_bytes_line(emulated, autoquery_body):
    """FindTechnologies against nginx serving its same bytes, per round, judged by the Targets table."""
    rounds = zip(emulated["FindTechnologies (AutoQuery)"]["all_rps"], emulated[SAME_BYTES]["all_rps"])
    ratios = [mock / same for mock, same in rounds]
    ratio = statistics.median(ratios)
    return (f"- FindTechnologies (AutoQuery) against nginx serving its same {len(autoquery_body):,} bytes: "
            f"{ratio:.2f}× (per round: {', '.join(f'{r:.2f}' for r in ratios)}) — "
            f"{verdict(ratio >= SAME_BYTES_RATIO)} (≥ {SAME_BYTES_RATIO}×)")


def load_rows(label, summary):
    """Table rows for one load: each server's figures, mockstack's ratios to nginx and the peer."""
    rows = []
    for name in ("mockstack", "nginx", PEER):
        if name not in summary:
            continue
        s = summary[name]
        ratio = peer = ""
        if name == "mockstack":
            ratio = f"{s['ratio']:.2f} ({', '.join(f'{r:.2f}' for r in s['ratios'])})"
            if "peer_ratio" in s:
                peer = f"{s['peer_ratio']:.2f} ({', '.join(f'{r:.2f}' for r in s['peer_ratios'])})"
        cpu = f"{s['user_us'] + s['system_us']:.1f} ({s['user_us']:.1f}+{s['system_us']:.1f})"
        rows.append(f"| {label} | {name} | {s['rps']:,.0f} | {s['p50']:.3f} | {s['p99']:.3f} | {cpu} | {ratio} | {peer} |")
    return rows


def measure_feathers_crud(port, pids, nginx_target, duration, rounds):
    """The Feathers CRUD mix (feathers-crud.lua) at -c32 and nginx's static GET back to back,
    the order alternating each round: each round first creates the records the script's first
    gets, patches and removes name (ids 900 … 1000, feathers-crud.seed). Medians over the rounds,
    and the mix's req/s as a ratio to nginx's per round (the target: ≥ FEATHERS_RATIO_TARGET)."""
    nginx_port, nginx_server_pids, nginx_path, _ = nginx_target
    results, nginx_runs, ratios = [], [], []
    for round_index in range(rounds):
        seed.send(FEATHERS_SEED, port)
        runs = {}
        for name in (("mix", "nginx") if round_index % 2 == 0 else ("nginx", "mix")):
            runs[name] = (run_wrk(port, 32, duration, pids, "/", 200, script=FEATHERS_SCRIPT) if name == "mix"
                          else run_wrk(nginx_port, 32, duration, nginx_server_pids, nginx_path))
        results.append(runs["mix"])
        nginx_runs.append(runs["nginx"])
        ratios.append(runs["mix"]["rps"] / runs["nginx"]["rps"])
    summary = {key: statistics.median(r[key] for r in results) for key in ("rps", "p50", "p99", "user_us", "system_us")}
    summary["nginx_cpu_us"] = statistics.median(r["user_us"] + r["system_us"] for r in nginx_runs)
    summary["errors"] = sorted({e for r in results for e in r["errors"]})
    summary["all"] = [r["rps"] for r in results]
    summary["ratio"] = statistics.median(ratios)
    summary["ratios"] = ratios
    return summary


def feathers_line(feathers):
    """The report's line for the Feathers CRUD mix, with both of its targets."""
    return (f"- Feathers CRUD mix (create, get, patch, find with a filter, remove on /feathers/people-paginated) at -c32: "
            f"{feathers['rps']:,.0f} req/s (rounds: {', '.join(f'{r:,.0f}' for r in feathers['all'])}), p50 {feathers['p50']:.3f} ms, "
            f"p99 {feathers['p99']:.3f} ms, server CPU {feathers['user_us'] + feathers['system_us']:.1f} µs/req "
            f"({feathers['user_us']:.1f}+{feathers['system_us']:.1f}) — "
            f"{verdict(feathers['rps'] >= FEATHERS_CRUD_TARGET)} (≥ {FEATHERS_CRUD_TARGET:,}); "
            f"{feathers['ratio']:.2f}× nginx's static GET in the same rounds ({', '.join(f'{r:.2f}' for r in feathers['ratios'])}; "
            f"nginx {feathers['nginx_cpu_us']:.1f} µs/req) — "
            f"{verdict(feathers['ratio'] >= FEATHERS_RATIO_TARGET)} (≥ {FEATHERS_RATIO_TARGET}×)")


def measure_tls(args, rounds):
    """The fixture GET over HTTPS (`serve --https-port`) and nginx serving the same bytes over
    HTTPS, both with the test certificate (ECDSA P-256), back to back, the order alternating each
    round: at -c32 on kept connections (the records' cost), and at -c8 with a new connection each
    request (the handshake's). Medians, and mockstack's req/s as a ratio to nginx's per round."""
    mockstack, mock_port = start_mockstack(args.mockstack, args.fixtures, pinned=True,
                                           extra=("--https-port", "0", "--tls-cert", TLS_CERT, "--tls-key", TLS_KEY))
    nginx = None
    try:
        https_port = mockstack.https_port
        status, body = http_get(mock_port, FIXTURE_PATH)
        assert status == 200, f"mockstack answered {status} for {FIXTURE_PATH}"
        nginx, nginx_port = start_nginx(os.path.join(WORK, "www-tls"), body, tls=True)
        targets = {"mockstack": (https_port, [mockstack.pid]), "nginx": (nginx_port, nginx_pids(nginx))}
        loads = {"kept connections, -c32": (32, ()), "a connection per request, -c8": (8, ("Connection: close",))}
        summary = {}
        for label, (connections, headers) in loads.items():
            for port, _ in targets.values():
                run_wrk(port, connections, 2, scheme="https", headers=headers)  # warm-up, not recorded
            runs = {name: [] for name in targets}
            ratios = []
            for round_index in range(rounds):
                for name in (list(targets) if round_index % 2 == 0 else list(reversed(targets))):
                    port, pids = targets[name]
                    runs[name].append(run_wrk(port, connections, args.duration, pids, scheme="https", headers=headers))
                ratios.append(runs["mockstack"][-1]["rps"] / runs["nginx"][-1]["rps"])
            summary[label] = {name: {key: statistics.median(r[key] for r in results) for key in ("rps", "p50", "p99", "user_us", "system_us")}
                              for name, results in runs.items()}
            summary[label]["ratio"] = statistics.median(ratios)
            summary[label]["ratios"] = ratios
            summary[label]["errors"] = sorted({e for results in runs.values() for r in results for e in r["errors"]})
    finally:
        stop(mockstack)
        if nginx is not None:
            stop(nginx)
    return summary


def tls_report(tls):
    """The report's lines for HTTPS: no target, the measure beside nginx's."""
    lines = []
    for label, result in tls.items():
        mock, nginx = result["mockstack"], result["nginx"]
        lines.append(
            f"- HTTPS, GET {FIXTURE_PATH}, {label}: mockstack {mock['rps']:,.0f} req/s (p99 {mock['p99']:.3f} ms, "
            f"{mock['user_us'] + mock['system_us']:.1f} µs/req), nginx {nginx['rps']:,.0f} req/s (p99 {nginx['p99']:.3f} ms, "
            f"{nginx['user_us'] + nginx['system_us']:.1f} µs/req): {result['ratio']:.2f}× nginx "
            f"({', '.join(f'{r:.2f}' for r in result['ratios'])}; no target: measured beside nginx with TLS)"
            + (f"; wrk errors: {', '.join(result['errors'])}" if result["errors"] else ""))
    return lines


def feathers_report(args):
    """The Feathers CRUD mix alone against nginx's static GET (`--only feathers`)."""
    mockstack, mock_port = start_mockstack(args.mockstack, args.fixtures, pinned=True)
    nginx = None
    try:
        status, body = http_get(mock_port, FIXTURE_PATH)
        assert status == 200, f"mockstack answered {status} for {FIXTURE_PATH}"
        nginx, nginx_port = start_nginx(os.path.join(WORK, "www"), body)
        nginx_target = (nginx_port, nginx_pids(nginx), FIXTURE_PATH, 200)
        run_wrk(nginx_port, 32, 2)  # warm-up, not recorded
        print(f"bench: Feathers CRUD mix and nginx -t1 -c32 -d{args.duration}s x {args.rounds} rounds", file=sys.stderr)
        feathers = measure_feathers_crud(mock_port, [mockstack.pid], nginx_target, args.duration, args.rounds)
    finally:
        stop(mockstack)
        if nginx is not None:
            stop(nginx)
    return [feathers_line(feathers)] + ([f"- wrk errors: {', '.join(feathers['errors'])}"] if feathers["errors"] else [])


def endpoint_targets(mock_port, mock_pid, nginx, nginx_port, nginx_target):
    """wrk targets for the emulated endpoints (each checked to answer its status first) beside
    nginx's static GET and nginx serving the same bytes as the AutoQuery answer and /types/swift
    (written into nginx's root beforehand)."""
    targets = {"nginx": nginx_target, SAME_BYTES: (nginx_port, nginx_pids(nginx), SAME_BYTES_PATH, 200),
               SWIFT_BYTES: (nginx_port, nginx_pids(nginx), SWIFT_BYTES_PATH, 200)}
    for name, (path, expected, _) in ENDPOINTS.items():
        status, _ = http_get(mock_port, path)
        assert status == expected, f"mockstack answered {status} for {path}, expected {expected}"
        targets[name] = (mock_port, [mock_pid], path, expected)
    return targets


def write_same_bytes(mock_port, www):
    """The AutoQuery answer's and /types/swift's bytes from mockstack, written into nginx's root;
    returns them."""
    os.makedirs(www, exist_ok=True)
    bodies = []
    for path, file in (("/techstacks" + AUTOQUERY, SAME_BYTES_PATH), ("/techstacks/types/swift", SWIFT_BYTES_PATH)):
        status, body = http_get(mock_port, path)
        assert status == 200, f"mockstack answered {status} for {path}"
        with open(os.path.join(www, file.lstrip("/")), "wb") as f:
            f.write(body)
        bodies.append(body)
    return bodies


def endpoint_rows(emulated, autoquery_body, swift_body):
    """The endpoints' table: each target's figures and its ratio to nginx's static GET."""
    lines = ["| endpoint | req/s | p50 ms | p99 ms | server CPU µs/req (user+sys) | ×nginx req/s (per round) |",
             "|---|---:|---:|---:|---:|---:|"]
    statics = {SAME_BYTES: f"{SAME_BYTES_PATH} (static, {len(autoquery_body):,} bytes)",
               SWIFT_BYTES: f"{SWIFT_BYTES_PATH} (static, {len(swift_body):,} bytes)"}
    for name, s in emulated.items():
        path = ENDPOINTS[name][0] if name in ENDPOINTS else statics.get(name, f"{FIXTURE_PATH} (static)")
        ratio = f"{s['ratio']:.2f} ({', '.join(f'{r:.2f}' for r in s['ratios'])})" if "ratio" in s else ""
        cpu = f"{s['user_us'] + s['system_us']:.1f} ({s['user_us']:.1f}+{s['system_us']:.1f})"
        lines.append(f"| {name}: `{path}` | {s['rps']:,.0f} | {s['p50']:.3f} | {s['p99']:.3f} | {cpu} | {ratio} |")
    return lines


def endpoints_report(args):
    """The emulated endpoints alone against nginx's static GET and nginx serving the same bytes
    (`--only endpoints`): the quick check of a change to the ServiceStack paths."""
    mockstack, mock_port = start_mockstack(args.mockstack, args.fixtures, pinned=True)
    nginx = None
    try:
        status, body = http_get(mock_port, FIXTURE_PATH)
        assert status == 200, f"mockstack answered {status} for {FIXTURE_PATH}"
        www = os.path.join(WORK, "www")
        autoquery_body, swift_body = write_same_bytes(mock_port, www)
        nginx, nginx_port = start_nginx(www, body)
        nginx_target = (nginx_port, nginx_pids(nginx), FIXTURE_PATH, 200)
        targets = endpoint_targets(mock_port, mockstack.pid, nginx, nginx_port, nginx_target)
        print(f"bench: endpoints -t1 -c32 -d{args.duration}s x {args.rounds} rounds", file=sys.stderr)
        emulated = compare_under_load(targets, 32, args.duration, args.rounds)
    finally:
        stop(mockstack)
        if nginx is not None:
            stop(nginx)
    errors = {name: s["errors"] for name, s in emulated.items() if s["errors"]}
    return endpoint_rows(emulated, autoquery_body, swift_body) + [""] + endpoint_verdicts(emulated) + [
        same_bytes_line(emulated, autoquery_body),
        f"- wrk errors: {errors if errors else 'none'}",
    ]


def endpoint_verdicts(emulated):
    """Hello and ThrowType against nginx's static GET, judged by the Targets table."""
    return [f"- {name} at -c32: {emulated[name]['ratio']:.2f}× nginx's static GET — "
            f"{verdict(emulated[name]['ratio'] >= ENDPOINTS[name][2])} (≥ {ENDPOINTS[name][2]}×)"
            for name in ENDPOINTS if ENDPOINTS[name][2] is not None]


def measure_generation(port, samples=40):
    """Wall time of uncached `/types/swift` generations for techstacks: each request names an
    option no generator reads, so none is served from the cache."""
    times = []
    for index in range(samples):
        began = time.perf_counter_ns()
        status, _ = http_get(port, f"/techstacks/types/swift?BenchSample={index}")
        times.append((time.perf_counter_ns() - began) / 1e6)
        assert status == 200
    return times


CODEGEN_APPS = ("test", "techstacks", "ai")
# Every /types/{lang} path mockstack generates.
CODEGEN_LANGUAGES = (
    "swift", "python", "typescript", "typescript.d", "mjs", "js", "java", "kotlin", "dart", "csharp", "fsharp", "vbnet",
    "php",
)
CODEGEN_TARGET_MS = 20.0  # a language's first /types/{lang} for the full metadata, its app built


def measure_codegen(binary, fixtures, starts=5, repeats=20):
    """`/types/{lang}` for the full metadata, `starts` fresh servers (`--apps` that app alone)
    per app and language, two figures each time. The first request of the language: on a server
    whose app `/__mockstack/apps` has built, so that the request pays for the file alone (the
    target). The first request to a fresh server: the app's deferred build (the load cache's,
    docs/load-cache.md) and the file together, what a client that asks before anything else
    waits (reported). Then `repeats` requests answered from the cache. Wall times, client to
    client; returns {(app, language): (firsts, freshes, cached, bytes)}."""
    results = {}
    for app in CODEGEN_APPS:
        for language in CODEGEN_LANGUAGES:
            firsts, freshes, cached, size = [], [], [], 0
            path = f"/{app}/types/{language}"
            for _ in range(starts):
                process, port = start_mockstack(binary, fixtures, extra=("--apps", app))
                try:
                    began = time.perf_counter_ns()
                    status, _ = http_get(port, path, timeout=10)
                    freshes.append((time.perf_counter_ns() - began) / 1e6)
                    assert status == 200, f"{path} answered {status}"
                finally:
                    stop(process)
                process, port = start_mockstack(binary, fixtures, extra=("--apps", app))
                try:
                    status, _ = http_get(port, "/__mockstack/apps", timeout=10)
                    assert status == 200, f"/__mockstack/apps answered {status}"
                    began = time.perf_counter_ns()
                    status, body = http_get(port, path, timeout=10)
                    firsts.append((time.perf_counter_ns() - began) / 1e6)
                    assert status == 200, f"{path} answered {status}"
                    size = len(body)
                    # The repeats, on the first server only: a cached answer costs the same on any.
                    for _ in range(0 if cached else repeats):
                        began = time.perf_counter_ns()
                        status, again = http_get(port, path)
                        cached.append((time.perf_counter_ns() - began) / 1e6)
                        assert status == 200 and again == body
                finally:
                    stop(process)
            results[(app, language)] = (firsts, freshes, cached, size)
    return results


def codegen_report(codegen):
    """The `/types/{lang}` table and its verdict."""
    lines = ["| app | language | bytes | first request, median (max) ms | fresh server, median ms | cached, median ms |",
             "|---|---|---:|---:|---:|---:|"]
    for (app, language), (firsts, freshes, cached, size) in codegen.items():
        lines.append(f"| {app} | {language} | {size:,} | {statistics.median(firsts):.2f} ({max(firsts):.2f}) | "
                     f"{statistics.median(freshes):.2f} | {statistics.median(cached):.2f} |")
    slowest = max(statistics.median(firsts) for firsts, _, _, _ in codegen.values())
    slowest_fresh = max(statistics.median(freshes) for _, freshes, _, _ in codegen.values())
    return lines + ["", f"- /types/{{{','.join(CODEGEN_LANGUAGES)}}} for {', '.join(CODEGEN_APPS)}, each language's first "
                    f"request, its app built: slowest median {slowest:.2f} ms — "
                    f"{verdict(slowest <= CODEGEN_TARGET_MS)} (≤ {CODEGEN_TARGET_MS:.0f} ms); repeats are answered "
                    f"from the cache; the first request to a fresh server, which also builds the app, slowest median "
                    f"{slowest_fresh:.2f} ms (no target: the app's build is start-up's, Benchmarks/startup.py "
                    "--first-request)"]


def measure_control_plane(binary, fixtures, duration, rounds):
    """The control plane's figures: the journal's cost on the fixture GET (journal on against off, the order
    alternating each round, -c32), a long run of LONG_RUN_REQUESTS with the journal on (the
    journal-mix.lua script) and its RSS, and POST /__mockstack/reset timed one at a time."""
    on, on_port = start_mockstack(binary, fixtures, pinned=True)
    off, off_port = start_mockstack(binary, fixtures, pinned=True, extra=("--journal-size", "0"))
    try:
        for port in (on_port, off_port):
            run_wrk(port, 32, 2)  # warm-up
        costs, on_runs, off_runs = [], [], []
        for round_index in range(rounds):
            pair = [("on", on_port, on), ("off", off_port, off)]
            results = {}
            for name, port, process in (pair if round_index % 2 == 0 else pair[::-1]):
                results[name] = run_wrk(port, 32, duration, [process.pid])
            on_runs.append(results["on"]["rps"])
            off_runs.append(results["off"]["rps"])
            costs.append(1 - results["on"]["rps"] / results["off"]["rps"])
    finally:
        stop(off)
    try:
        served, chunks = 0, []
        while served < LONG_RUN_REQUESTS:
            result = run_wrk(on_port, 32, 10, [on.pid], path="/", script=JOURNAL_SCRIPT)
            assert not result["errors"], f"long run: {result['errors']}"
            served += round(result["rps"] * 10)
            chunks.append(result["rps"])
        long_rss, long_peak = rss_kib(on.pid), rss_kib(on.pid, "VmHWM")
        status, body = http_get(on_port, "/__mockstack/requests?limit=1")
        journal = json.loads(body)
        assert status == 200 and journal["capacity"] == 1000, "the journal did not answer"

        connection = http.client.HTTPConnection("127.0.0.1", on_port, timeout=5)
        reset_ms = []
        for index in range(200):
            # State to restore each time: a Feathers record and a ServiceStack sign-in.
            connection.request("POST", "/feathers/people", body=json.dumps({"name": f"p{index}"}),
                               headers={"Content-Type": "application/json"})
            connection.getresponse().read()
            connection.request("POST", "/test/api/Authenticate", body=json.dumps({"provider": "credentials", "userName": "test", "password": "test"}),
                               headers={"Content-Type": "application/json"})
            connection.getresponse().read()
            began = time.perf_counter_ns()
            connection.request("POST", "/__mockstack/reset")
            response = connection.getresponse()
            response.read()
            reset_ms.append((time.perf_counter_ns() - began) / 1e6)
            assert response.status == 200
        connection.close()
    finally:
        stop(on)
    return {"costs": costs, "on": on_runs, "off": off_runs, "served": served, "chunks": chunks,
            "rss": long_rss, "peak": long_peak, "total": journal["total"] + journal["dropped"], "reset_ms": reset_ms}


def control_plane_report(control):
    cost = statistics.median(control["costs"])
    peak = control["peak"] / 1024
    reset = statistics.median(control["reset_ms"])
    return [
        f"- journal on vs off, fixture GET at -c32: {statistics.median(control['on']):,.0f} against "
        f"{statistics.median(control['off']):,.0f} req/s, cost {cost * 100:.1f}% (per round: "
        f"{', '.join(f'{c * 100:.1f}%' for c in control['costs'])}) — {verdict(cost <= JOURNAL_COST_TARGET)} "
        f"(≤ {JOURNAL_COST_TARGET * 100:.0f}%)",
        f"- {control['served']:,} requests with the journal on (journal-mix.lua: fixture GET and a JSON POST in turn, "
        f"{statistics.median(control['chunks']):,.0f} req/s): RSS {control['rss'] / 1024:.1f} MiB after, peak {peak:.1f} MiB "
        f"— {verdict(peak <= LONG_RUN_RSS_MIB)} (≤ {LONG_RUN_RSS_MIB:.0f} MiB)",
        f"- POST /__mockstack/reset (after a Feathers create and a ServiceStack sign-in, every shipped app): median "
        f"{reset:.3f} ms, max {max(control['reset_ms']):.3f} over {len(control['reset_ms'])} (client round trip included) "
        f"— {verdict(reset <= RESET_TARGET_MS)} (≤ {RESET_TARGET_MS:.0f} ms)",
    ]


def write_scaled_app(fixtures, rows, folder):
    """A fixtures folder with one app, `techstacks` cut down to FindTechnologies, whose
    technologies are the shipped ones repeated (with new ids, names and view counts) to `rows`."""
    source = os.path.join(fixtures, "techstacks")
    with open(os.path.join(source, "technologies.json"), encoding="utf-8") as f:
        shipped = json.load(f)
    app = os.path.join(folder, "techstacks")
    os.makedirs(app, exist_ok=True)
    shutil.copy(os.path.join(source, "metadata.json"), app)
    with open(os.path.join(app, "app.json"), "w") as f:
        json.dump({"kind": "servicestack", "metadata": "metadata.json", "host": {"serializer": "system-text-json"},
                   "operations": {"FindTechnologies": {"behaviour": "autoQuery", "data": "technologies.json", "term": "or",
                                                       "maxLimit": 500, "includeTotal": True}}}, f)
    with open(os.path.join(app, "technologies.json"), "w", encoding="utf-8") as f:
        f.write("[\n")
        for index in range(rows):
            row = dict(shipped[index % len(shipped)])
            round_ = index // len(shipped)
            row["id"] = index + 1
            row["slug"] = f"{row['slug']}-{round_}"
            row["name"] = f"{row['name']} {round_}" if round_ else row["name"]
            row["viewCount"] = (row["viewCount"] * 7 + index * 7919) % 100_000
            f.write(("," if index else "") + json.dumps(row, ensure_ascii=False, separators=(",", ":")) + "\n")
        f.write("]\n")


def measure_scaling(binary, fixtures, duration, rounds):
    """The AutoQuery over each generated size, one connection: p50, req/s, CPU µs per request
    (medians over rounds), with the load time and memory of the server holding the data."""
    results = {}
    for rows in SCALE_SIZES:
        folder = os.path.join(WORK, f"scale-{rows}")
        shutil.rmtree(folder, ignore_errors=True)
        write_scaled_app(fixtures, rows, folder)
        print(f"bench: AutoQuery over {rows:,} rows, -c1 -d{duration}s x {rounds} rounds", file=sys.stderr)
        began = time.perf_counter()
        process, port = start_mockstack(binary, folder, pinned=True)
        loaded = time.perf_counter() - began
        try:
            status, _ = http_get(port, "/techstacks" + AUTOQUERY, timeout=30)
            assert status == 200, f"the scaled AutoQuery answered {status}"
            run_wrk(port, 1, 2, path="/techstacks" + AUTOQUERY)  # warm-up
            runs = [run_wrk(port, 1, duration, [process.pid], "/techstacks" + AUTOQUERY) for _ in range(rounds)]
            results[rows] = {key: statistics.median(r[key] for r in runs) for key in ("rps", "p50", "p99", "user_us", "system_us")}
            results[rows].update(load_s=loaded, rss_mib=rss_kib(process.pid) / 1024,
                                 errors=sorted({e for r in runs for e in r["errors"]}))
        finally:
            stop(process)
        shutil.rmtree(folder, ignore_errors=True)
    return results


def scaling_report(scaling, duration):
    small, large = SCALE_SIZES
    lines = ["", f"AutoQuery scaling: `{AUTOQUERY}` over generated data sets, wrk -t1 -c1 -d{duration}s:", "",
             "| rows | req/s | p50 ms | p99 ms | server CPU µs/req | load s | RSS MiB |", "|---:|---:|---:|---:|---:|---:|---:|"]
    for rows, s in scaling.items():
        lines.append(f"| {rows:,} | {s['rps']:,.0f} | {s['p50']:.3f} | {s['p99']:.3f} | {s['user_us'] + s['system_us']:.0f} "
                     f"| {s['load_s']:.2f} | {s['rss_mib']:.0f} |")
    growth_p50 = scaling[large]["p50"] / scaling[small]["p50"]
    growth_cpu = (scaling[large]["user_us"] + scaling[large]["system_us"]) / (scaling[small]["user_us"] + scaling[small]["system_us"])
    lines += ["",
              f"- AutoQuery p50 at {large:,} rows: {scaling[large]['p50']:.2f} ms — "
              f"{verdict(scaling[large]['p50'] <= TARGETS['scale_p50_ms'])} (≤ {TARGETS['scale_p50_ms']:.0f} ms)",
              f"- cost growth {large:,}/{small:,} rows: p50 {growth_p50:.1f}×, CPU per request {growth_cpu:.1f}× — "
              f"{verdict(max(growth_p50, growth_cpu) <= TARGETS['scale_growth'])} (≤ {TARGETS['scale_growth']:.0f}×)"]
    errors = {rows: s["errors"] for rows, s in scaling.items() if s["errors"]}
    if errors:
        lines.append(f"- scaling wrk errors: {errors}")
    return lines


def first_line(command):
    try:
        result = subprocess.run(command, capture_output=True, text=True)
        return (result.stdout or result.stderr).strip().splitlines()[0]
    except (OSError, IndexError):
        return "unknown"


def machine_description():
    cpu = "unknown CPU"
    with open("/proc/cpuinfo") as cpuinfo:
        for line in cpuinfo:
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    with open("/proc/meminfo") as meminfo:
        mem_gib = int(meminfo.readline().split()[1]) / 1024 / 1024
    return f"{cpu}, {os.cpu_count()} cores, {mem_gib:.0f} GiB, Linux {platform.release()}"


def verdict(ok):
    return "meets target" if ok else "MISSES target"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mockstack", required=True)
    parser.add_argument("--fixtures", required=True)
    parser.add_argument("--duration", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--starts", type=int, default=20)
    parser.add_argument("--only", choices=["control-plane", "fixture-get", "feathers", "endpoints", "codegen", "tls"], help="run one part alone (its report lines only)")
    parser.add_argument("--hummingbird", help="the Hummingbird peer's binary (Benchmarks/peers/hummingbird-peer)")
    args = parser.parse_args()
    os.makedirs(WORK, exist_ok=True)
    if args.only == "control-plane":
        print("\n".join(control_plane_report(measure_control_plane(args.mockstack, args.fixtures, args.duration, args.rounds))))
        return
    if args.only == "fixture-get":
        print("\n".join(fixture_get_report(args)))
        return
    if args.only == "feathers":
        print("\n".join(feathers_report(args)))
        return
    if args.only == "endpoints":
        print("\n".join(endpoints_report(args)))
        return
    if args.only == "tls":
        print("\n".join(tls_report(measure_tls(args, args.rounds))))
        return
    if args.only == "codegen":
        print("\n".join(codegen_report(measure_codegen(args.mockstack, args.fixtures))))
        return

    print(f"bench: start-up, {args.starts} starts", file=sys.stderr)
    # The `example` app alone measures the server's own cost; the Targets table judges every
    # shipped app together, whose data-bearing apps (techstacks) add their own load time and memory.
    alone = os.path.join(WORK, "example-only")
    shutil.rmtree(alone, ignore_errors=True)
    shutil.copytree(os.path.join(args.fixtures, "example"), os.path.join(alone, "example"))
    startup_ms, idle_rss = measure_startup(args.mockstack, alone, args.starts)
    print(f"bench: start-up with every shipped app, {args.starts} starts", file=sys.stderr)
    all_startup_ms, all_idle_rss = measure_startup(args.mockstack, args.fixtures, args.starts)
    # The deterministic measure beside the noisy one (Benchmarks/startup.py), when valgrind is here.
    startup_instructions = None
    if all(shutil.which(tool) for tool in ("valgrind", "callgrind_control", "callgrind_annotate", "objcopy")):
        print("bench: start-up with every shipped app under callgrind", file=sys.stderr)
        startup_instructions, _ = startup.instructions(args.mockstack, args.fixtures, dict(os.environ), phases=False)

    mockstack, mock_port = start_mockstack(args.mockstack, args.fixtures, pinned=True)
    nginx = None
    peers = []
    try:
        status, body = http_get(mock_port, FIXTURE_PATH)
        assert status == 200, f"mockstack answered {status} for {FIXTURE_PATH}"
        # nginx also serves the AutoQuery answer's own bytes, the fair baseline for a 34 KB reply.
        www = os.path.join(WORK, "www")
        autoquery_body, swift_body = write_same_bytes(mock_port, www)
        generation_ms = measure_generation(mock_port)
        nginx, nginx_port, baselines, started, fixture_file = start_baselines(args, www, body)
        peers += started[1:]
        nginx_idle = nginx_rss_kib(nginx)
        nginx_target = baselines["nginx"]
        servers = {"mockstack": (mock_port, [mockstack.pid], FIXTURE_PATH, 200), **baselines}
        loads = {}
        for connections in (32, 1):
            print(f"bench: -t1 -c{connections} -d{args.duration}s x {args.rounds} rounds", file=sys.stderr)
            loads[connections] = compare_under_load(servers, connections, args.duration, args.rounds)
        two_loops = measure_two_loops(args, www, body, fixture_file)
        endpoints = endpoint_targets(mock_port, mockstack.pid, nginx, nginx_port, nginx_target)
        print(f"bench: endpoints -t1 -c32 -d{args.duration}s x {args.rounds} rounds", file=sys.stderr)
        emulated = compare_under_load(endpoints, 32, args.duration, args.rounds)
        print(f"bench: Feathers CRUD mix -t1 -c32 -d{args.duration}s x {args.rounds} rounds", file=sys.stderr)
        feathers = measure_feathers_crud(mock_port, [mockstack.pid], nginx_target, args.duration, args.rounds)
        peak_rss = rss_kib(mockstack.pid, "VmHWM")
        nginx_after = nginx_rss_kib(nginx)
    finally:
        stop(mockstack)
        if nginx is not None:
            stop(nginx)
        for peer in peers:
            stop(peer)
    print("bench: /types/{lang}, first request to a fresh server and cached", file=sys.stderr)
    codegen = measure_codegen(args.mockstack, args.fixtures)
    scaling = measure_scaling(args.mockstack, args.fixtures, args.duration, args.rounds)
    print(f"bench: HTTPS beside nginx's, -d{args.duration}s x {args.rounds} rounds", file=sys.stderr)
    tls = measure_tls(args, args.rounds)
    print(f"bench: control plane (journal on/off, {LONG_RUN_REQUESTS:,} requests, reset)", file=sys.stderr)
    control = measure_control_plane(args.mockstack, args.fixtures, args.duration, args.rounds)

    # Not `startup`: the name would make the module imported above a local of main() throughout,
    # and its use for the instruction count would fail.
    startup_median = statistics.median(startup_ms)
    idle = statistics.median(idle_rss) / 1024
    all_idle = statistics.median(all_idle_rss) / 1024
    lines = [
        f"## {datetime.date.today().isoformat()}: {machine_description()}",
        "",
        f"mockstack {first_line([args.mockstack, '--version'])} (release), "
        f"{first_line(['nginx', '-v'])}, {first_line(['wrk', '--version']).split(' Copyright')[0]}; "
        f"GET {FIXTURE_PATH} ({len(body)} bytes), wrk -t1 -d{args.duration}s --latency, "
        f"{args.rounds} rounds, medians; "
        f"{'servers pinned to the last CPU and wrk to the first' if PINNING else 'no CPU pinning'}.",
        "",
        "| load | server | req/s | p50 ms | p99 ms | server CPU µs/req (user+sys) | mockstack/nginx req/s (per round) | mockstack/Hummingbird (per round) |",
        "|---|---|---:|---:|---:|---:|---:|---:|",
    ]
    for connections, summary in loads.items():
        lines += load_rows(f"one loop (one CPU), -c{connections}", summary)
    lines += load_rows("two loops (two CPUs, wrk's too), -t2 -c32", two_loops)
    lines += [
        "",
        "Emulated ServiceStack endpoints (the `test` and `techstacks` apps), -c32, each against nginx's static GET in the same rounds:",
        "",
    ]
    lines += endpoint_rows(emulated, autoquery_body, swift_body)
    errors = {f"-c{c} {n}": loads[c][n]["errors"] for c in loads for n in ("mockstack", "nginx") if loads[c][n]["errors"]}
    errors.update({f"endpoint {n}": emulated[n]["errors"] for n in emulated if emulated[n]["errors"]})
    if feathers["errors"]:
        errors["Feathers CRUD mix"] = feathers["errors"]
    lines += [
        "",
        f"- start-up (exec → first 200, port 0), the `example` app alone: median {startup_median:.1f} ms, "
        f"min {min(startup_ms):.1f}, max {max(startup_ms):.1f} over {len(startup_ms)} starts "
        f"(no target: the table's is for every shipped app)",
        f"- idle RSS, the `example` app alone: mockstack {idle:.1f} MiB (median of {len(idle_rss)}; no target: the "
        f"table's is for every shipped app); nginx master+worker {nginx_idle / 1024:.1f} MiB",
        f"- every shipped app ({', '.join(sorted(d for d in os.listdir(args.fixtures) if os.path.isfile(os.path.join(args.fixtures, d, 'app.json'))))}): "
        f"start-up median {statistics.median(all_startup_ms):.1f} ms (min {min(all_startup_ms):.1f})"
        + (f", {startup_instructions / 1e6:.1f}M instructions to the ready line" if startup_instructions else "")
        + f" — {STARTUP_NOT_JUDGED}",
        f"- idle RSS, every shipped app: {all_idle:.1f} MiB (median of {len(all_idle_rss)}) — "
        f"{verdict(all_idle <= TARGETS['idle_rss_mib'])} (≤ {TARGETS['idle_rss_mib']:.0f} MiB)",
        f"- after the load: mockstack peak RSS {peak_rss / 1024:.1f} MiB; nginx {nginx_after / 1024:.1f} MiB",
    ] + fixture_get_verdicts(loads[32], two_loops) + [
        "- instructions per fixture GET (≤ nginx's): not judged here: callgrind counts them, "
        "Benchmarks/instructions.sh and instructions.sh --nginx",
    ] + endpoint_verdicts(emulated) + [
        same_bytes_line(emulated, autoquery_body),
        f"- techstacks /types/swift from the cache: {emulated['techstacks /types/swift (cached)']['ratio']:.2f}× nginx's static GET, "
        f"{emulated['techstacks /types/swift (cached)']['rps'] / emulated[SWIFT_BYTES]['rps']:.2f}× nginx serving the same "
        f"{len(swift_body):,} bytes (medians)",
        f"- techstacks /types/swift generated (uncached, one request at a time): median {statistics.median(generation_ms):.2f} ms, "
        f"max {max(generation_ms):.2f} over {len(generation_ms)} (no target of its own: the table judges "
        f"the first request to a fresh server, below)",
        feathers_line(feathers),
    ] + tls_report(tls) + ["", "Generated DTO files (`/types/{lang}`) for the full metadata:", ""] + codegen_report(codegen) + [
        "",
    ] + scaling_report(scaling, args.duration) + control_plane_report(control) + [
        f"- wrk errors: {errors if errors else 'none'}",
    ]
    report = "\n".join(lines) + "\n"
    with open(os.path.join(WORK, "results.md"), "w") as f:
        f.write(report)
    print(report)


if __name__ == "__main__":
    main()
