#!/usr/bin/env python3
"""make soak: mockstack under many connections and a long mixed workload, with faults.

1. Hold: HOLD (1,000) keep-alive connections are opened and each is answered; then every one
   sends a request at the same moment; they are held idle for a while and each is answered once
   more, so none was dropped.
2. Soak: WORKERS (64) connections run a mixed workload across every shipped app for MINUTES (10):
   static fixtures, ServiceStack services (templates, thrown errors, validation, sign-in, AutoQuery,
   multipart, /types), Feathers CRUD behind JWT authentication, sessions, stubs and the journal;
   about one request in twenty asks for a fault (X-MockStack-Fault), a delay or a throttle.
   Beside them, clients that send a request one byte a second (the server must cut them after its
   --timeout) and clients that reset their connection mid-request (RST) keep coming.
   Every answer is checked: status, and the part of the body that proves it is the right answer.
   A fault must be seen as the fault (no well-formed answer). The server's RSS is sampled.

Pass: no failed non-fault request, no stall (every non-delayed request answered within STALL_S),
RSS growth after the warm-up ≤ 10%, the slow clients cut by the server, the server alive and
healthy at the end and exiting 0 on SIGTERM. Prints a report and writes it to Benchmarks/.work/soak.md.
"""

import argparse
import asyncio
import datetime
import json
import os
import platform
import random
import resource
import socket
import statistics
import struct
import subprocess
import sys
import time
from array import array
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
WORK = os.path.join(HERE, ".work")
STALL_S = 1.0          # a non-delayed request answered later than this counts as a stall
REQUEST_TIMEOUT_S = 10.0
RSS_GROWTH_LIMIT = 0.10
FAULTS = ("reset", "empty", "truncate", "malformed-chunk", "random-then-close", "hang")


class Failure(Exception):
    pass


# ---------------------------------------------------------------- a minimal HTTP/1.1 client

class Reply:
    def __init__(self, status, headers, body):
        self.status, self.headers, self.body = status, headers, body

    def json(self):
        return json.loads(self.body)


class Connection:
    """One keep-alive connection; reopened on demand after the server closes it."""

    def __init__(self, port):
        self.port = port
        self.reader = self.writer = None

    async def open(self):
        self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)

    def close(self, reset=False):
        if self.writer is None:
            return
        if reset:
            sock = self.writer.get_extra_info("socket")
            if sock is not None:
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self.writer.close()
        self.reader = self.writer = None

    async def request(self, method, path, body=b"", headers=None, timeout=REQUEST_TIMEOUT_S):
        if self.writer is None:
            await self.open()
        lines = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1"]
        for name, value in (headers or {}).items():
            lines.append(f"{name}: {value}")
        if body or method in ("POST", "PUT", "PATCH"):
            lines.append(f"Content-Length: {len(body)}")
        self.writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + body)
        try:
            reply = await asyncio.wait_for(self._read_reply(method == "HEAD"), timeout)
        except BaseException:
            self.close()
            raise
        if reply.headers.get("connection", "").lower() == "close":
            self.close()
        return reply

    async def _read_reply(self, head_only):
        raw = await self.reader.readuntil(b"\r\n\r\n")
        lines = raw.decode("latin-1").split("\r\n")
        parts = lines[0].split(" ", 2)
        if len(parts) < 2 or not parts[0].startswith("HTTP/1.") or not parts[1].isdigit():
            raise Failure(f"not an HTTP status line: {lines[0][:60]!r}")
        headers = {}
        for line in lines[1:]:
            if line:
                name, _, value = line.partition(":")
                headers[name.strip().lower()] = value.strip()
        status = int(parts[1])
        if head_only or status in (204, 304) or 100 <= status < 200:
            return Reply(status, headers, b"")
        if headers.get("transfer-encoding", "").lower() == "chunked":
            body = bytearray()
            while True:
                size_line = await self.reader.readuntil(b"\r\n")
                size = int(size_line.split(b";")[0].strip(), 16)  # ValueError on a malformed chunk
                if size == 0:
                    await self.reader.readuntil(b"\r\n")
                    return Reply(status, headers, bytes(body))
                body += await self.reader.readexactly(size)
                if await self.reader.readexactly(2) != b"\r\n":
                    raise Failure("chunk not followed by CRLF")
        if "content-length" in headers:
            return Reply(status, headers, await self.reader.readexactly(int(headers["content-length"])))
        return Reply(status, headers, await self.reader.read())


# ---------------------------------------------------------------- the server

def raise_open_file_limit(wanted):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = max(soft, wanted) if hard == resource.RLIM_INFINITY else min(hard, max(soft, wanted))
    if target > soft:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def start_server(binary, fixtures, extra):
    process = subprocess.Popen(
        [binary, "serve", "--port", "0", "--fixtures", fixtures, "--log-level", "error", *extra],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    line = process.stdout.readline()
    try:
        ready = json.loads(line)
    except ValueError:
        process.kill()
        raise SystemExit(f"mockstack did not print its ready line: {line!r}")
    return process, ready["port"]


def fixture_answer(port, path):
    """The fixture's bytes as the server sends them (compact JSON), checked against the file."""
    with socket.create_connection(("127.0.0.1", port)) as s:
        s.sendall(b"GET /example/widgets HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        raw = b""
        while chunk := s.recv(65536):
            raw += chunk
    body = raw.split(b"\r\n\r\n", 1)[1]
    with open(path, "rb") as file:
        if json.loads(body) != json.load(file):
            raise SystemExit("the server's /example/widgets is not the fixture file's JSON")
    return body


def rss_mib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def open_fds(pid):
    return len(os.listdir(f"/proc/{pid}/fd"))


# ---------------------------------------------------------------- phase 1: hold

async def hold_phase(port, count, hold_seconds, pid):
    connections = [Connection(port) for _ in range(count)]
    failures = Counter()

    async def first(conn):
        try:
            await conn.open()
            reply = await conn.request("GET", "/example/widgets")
            if reply.status != 200:
                failures[f"first request: {reply.status}"] += 1
        except Exception as error:  # noqa: BLE001 — every kind of failure is counted
            failures[f"first request: {type(error).__name__}"] += 1

    started = time.monotonic()
    # Opened a hundred at a time, as a pool warming up would; the listen backlog is not on trial.
    for batch in range(0, count, 100):
        await asyncio.gather(*(first(c) for c in connections[batch:batch + 100]))
    opened_s = time.monotonic() - started

    async def again(conn, label):
        begun = time.monotonic()
        try:
            reply = await conn.request("GET", "/test/api/Hello?name=Hold")
            if reply.status != 200 or reply.body != b'{"result":"Hello, Hold!"}':
                failures[f"{label}: {reply.status}"] += 1
        except Exception as error:  # noqa: BLE001
            failures[f"{label}: {type(error).__name__}"] += 1
        return time.monotonic() - begun

    together = await asyncio.gather(*(again(c, "all at once") for c in connections))
    fds = open_fds(pid)
    rss = rss_mib(pid)
    await asyncio.sleep(hold_seconds)
    after_hold = await asyncio.gather(*(again(c, "after holding") for c in connections))
    for conn in connections:
        conn.close()
    return {
        "count": count, "opened_s": opened_s, "fds": fds, "rss_mib": rss, "held_s": hold_seconds,
        "all_at_once_max_ms": max(together) * 1000, "all_at_once_p50_ms": statistics.median(together) * 1000,
        "after_hold_max_ms": max(after_hold) * 1000, "failures": dict(failures),
    }


# ---------------------------------------------------------------- phase 2: the workload

class Tally:
    def __init__(self):
        self.counts = Counter()          # scenario → requests
        self.faults = Counter()          # fault → requests that showed it
        self.failures = Counter()        # what went wrong → times
        self.examples = {}
        self.latencies = array("d")      # seconds, non-delayed requests
        self.stalls = 0

    def fail(self, what, detail=""):
        self.failures[what] += 1
        self.examples.setdefault(what, detail[:200])


def expect(condition, what):
    if not condition:
        raise Failure(what)


class Workload:
    def __init__(self, index, port, tally, rng, fixture_body):
        self.index = index
        self.port = port
        self.tally = tally
        self.rng = rng
        self.fixture_body = fixture_body
        self.sequence = 0

    def next_id(self):
        """A name no other worker uses: worker index and sequence number."""
        self.sequence += 1
        return f"{self.index}x{self.sequence}"

    async def timed(self, conn, method, path, body=b"", headers=None):
        begun = time.monotonic()
        reply = await conn.request(method, path, body, headers)
        elapsed = time.monotonic() - begun
        self.tally.latencies.append(elapsed)
        if elapsed > STALL_S:
            self.tally.stalls += 1
        return reply

    # Each scenario makes one or a few requests on the worker's connection and checks them.

    async def fixture(self, conn):
        reply = await self.timed(conn, "GET", "/example/widgets")
        expect(reply.status == 200 and reply.body == self.fixture_body, f"fixture GET {reply.status}")

    async def fixture_post(self, conn):
        reply = await self.timed(conn, "POST", "/example/widgets", b'{"name":"soak"}', {"Content-Type": "application/json"})
        expect(reply.status == 201 and reply.headers.get("location") == "/example/widgets/7", f"fixture POST {reply.status}")

    async def hello(self, conn):
        n = self.next_id()
        reply = await self.timed(conn, "GET", f"/test/api/Hello?name=Soak{n}")
        expect(reply.status == 200 and reply.body == f'{{"result":"Hello, Soak{n}!"}}'.encode(), f"Hello {reply.status}")

    async def throw_type(self, conn):
        reply = await self.timed(conn, "GET", "/test/api/ThrowType?type=NotFound&message=not+here")
        expect(reply.status == 404 and reply.json()["responseStatus"]["errorCode"] == "NotFound", f"ThrowType {reply.status}")

    async def validation(self, conn):
        reply = await self.timed(conn, "POST", "/test/api/ThrowValidation", b"{}", {"Content-Type": "application/json"})
        expect(reply.status == 400 and reply.json()["responseStatus"]["errorCode"] == "InclusiveBetween", f"ThrowValidation {reply.status}")

    async def servicestack_auth(self, conn):
        body = b'{"provider":"credentials","userName":"test","password":"test"}'
        reply = await self.timed(conn, "POST", "/test/api/Authenticate", body, {"Content-Type": "application/json"})
        expect(reply.status == 200, f"Authenticate {reply.status}")
        token = reply.json()["bearerToken"]
        reply = await self.timed(conn, "GET", "/test/api/TestAuth", headers={"Authorization": f"Bearer {token}"})
        expect(reply.status == 200 and b'"userName":"test"' in reply.body, f"TestAuth {reply.status}")

    async def autoquery(self, conn):
        letter = self.rng.choice("aeiourst")
        take = self.rng.choice((5, 20, 50))
        reply = await self.timed(conn, "GET", f"/techstacks/api/FindTechnologies?NameContains={letter}&orderByDesc=ViewCount&take={take}")
        expect(reply.status == 200, f"FindTechnologies {reply.status}")
        results = reply.json()["results"]
        expect(0 < len(results) <= take and all(letter in r["name"].lower() for r in results), "FindTechnologies rows")

    async def app_overview(self, conn):
        reply = await self.timed(conn, "GET", "/techstacks/api/AppOverview")
        expect(reply.status == 200 and len(reply.json()["topTechnologies"]) == 100, f"AppOverview {reply.status}")

    async def types(self, conn):
        reply = await self.timed(conn, "GET", "/techstacks/types/metadata")
        expect(reply.status == 200 and "operations" in reply.json(), f"/types/metadata {reply.status}")
        reply = await self.timed(conn, "GET", "/test/types/swift")
        expect(reply.status == 200 and b"import Foundation" in reply.body, f"/types/swift {reply.status}")

    async def speech_to_text(self, conn):
        boundary = f"SoakBoundary{self.next_id()}"
        body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"audio\"; filename=\"soak.wav\"\r\n"
                f"Content-Type: audio/wav\r\n\r\nRIFF....WAVE\r\n--{boundary}--\r\n").encode()
        headers = {"Content-Type": f"multipart/form-data; boundary={boundary}", "Authorization": "Bearer ak-mockstack"}
        reply = await self.timed(conn, "POST", "/ai/api/SpeechToText", body, headers)
        expect(reply.status == 200, f"SpeechToText {reply.status}")

    async def feathers(self, conn, prefix=""):
        auth = b'{"strategy":"local","email":"test@example.com","password":"secret"}'
        reply = await self.timed(conn, "POST", f"{prefix}/feathers/authentication", auth, {"Content-Type": "application/json"})
        expect(reply.status == 201, f"Feathers authentication {reply.status}")
        bearer = {"Authorization": f"Bearer {reply.json()['accessToken']}", "Content-Type": "application/json"}
        text = f"soak message {self.next_id()}"
        reply = await self.timed(conn, "POST", f"{prefix}/feathers/messages", json.dumps({"text": text}).encode(), bearer)
        expect(reply.status == 201 and reply.json()["text"] == text, f"Feathers create {reply.status}")
        record = reply.json()["id"]
        reply = await self.timed(conn, "GET", f"{prefix}/feathers/messages/{record}", headers=bearer)
        expect(reply.status == 200 and reply.json()["text"] == text, f"Feathers get {reply.status}")
        reply = await self.timed(conn, "PATCH", f"{prefix}/feathers/messages/{record}", b'{"read":true}', bearer)
        expect(reply.status == 200 and reply.json()["read"] is True, f"Feathers patch {reply.status}")
        query = text.replace(" ", "%20")
        reply = await self.timed(conn, "GET", f"{prefix}/feathers/messages?text={query}", headers=bearer)
        expect(reply.status == 200 and reply.json()["total"] == 1, f"Feathers find {reply.status}")
        reply = await self.timed(conn, "DELETE", f"{prefix}/feathers/messages/{record}", headers=bearer)
        expect(reply.status == 200 and reply.json()["id"] == record, f"Feathers remove {reply.status}")

    async def people(self, conn):
        reply = await self.timed(conn, "POST", "/feathers/people-paginated", b'{"name":"Soak","age":41}', {"Content-Type": "application/json"})
        expect(reply.status == 201 and reply.json()["age"] == 41, f"people create {reply.status}")
        record = reply.json()["id"]
        reply = await self.timed(conn, "GET", "/feathers/people-paginated?age[$gte]=40&$limit=5&$sort[id]=-1")
        expect(reply.status == 200 and reply.json()["limit"] == 5, f"people find {reply.status}")
        reply = await self.timed(conn, "DELETE", f"/feathers/people-paginated/{record}")
        expect(reply.status == 200, f"people remove {reply.status}")

    async def session(self, conn):
        session = f"soak-{self.next_id()}"
        await self.feathers(conn, prefix=f"/__session/{session}")
        stub = json.dumps({"match": {"method": "GET", "path": "/example/stubbed"},
                           "answer": {"status": 418, "body": {"stub": session}}}).encode()
        reply = await self.timed(conn, "POST", f"/__session/{session}/__mockstack/stubs", stub, {"Content-Type": "application/json"})
        expect(reply.status == 201, f"session stub {reply.status}")
        reply = await self.timed(conn, "GET", f"/__session/{session}/example/stubbed")
        expect(reply.status == 418 and reply.json() == {"stub": session}, f"session stubbed GET {reply.status}")
        reply = await self.timed(conn, "GET", f"/__session/{session}/__mockstack/requests?limit=3")
        expect(reply.status == 200 and len(reply.json()["requests"]) == 3, f"session journal {reply.status}")
        reply = await self.timed(conn, "DELETE", f"/__mockstack/sessions/{session}")
        expect(reply.status == 204, f"session delete {reply.status}")

    async def journal(self, conn):
        reply = await self.timed(conn, "GET", "/__mockstack/requests?app=test&limit=5")
        journal = reply.json() if reply.status == 200 else {}
        expect(reply.status == 200 and len(journal["requests"]) == min(5, journal["total"]), f"journal {reply.status}")

    async def delayed(self, conn):
        begun = time.monotonic()
        reply = await conn.request("GET", "/example/widgets", headers={"X-MockStack-Delay": "20-80"})
        elapsed = time.monotonic() - begun
        expect(reply.status == 200 and reply.body == self.fixture_body, f"delayed {reply.status}")
        expect(elapsed >= 0.019, f"delay too short ({elapsed * 1000:.1f} ms)")
        self.tally.faults["delay"] += 1

    async def throttled(self, conn):
        reply = await conn.request("GET", "/example/widgets", headers={"X-MockStack-Throttle": "20000"})
        expect(reply.status == 200 and reply.body == self.fixture_body, f"throttled {reply.status}")
        self.tally.faults["throttle"] += 1

    async def fault(self, conn):
        """A request that asks for a fault, on a connection of its own; the fault must be seen."""
        fault = self.rng.choice(FAULTS)
        own = Connection(self.port)
        try:
            timeout = 0.3 if fault == "hang" else REQUEST_TIMEOUT_S
            reply = await own.request("GET", "/example/widgets", headers={"X-MockStack-Fault": fault}, timeout=timeout)
        except (asyncio.IncompleteReadError, ConnectionError, asyncio.TimeoutError, ValueError, Failure):
            self.tally.faults[fault] += 1   # the break the client should see
        else:
            raise Failure(f"fault {fault} answered {reply.status}")
        finally:
            own.close(reset=fault == "hang")   # a client giving up on a hung request

    SCENARIOS = (  # (weight, name)
        (20, "fixture"), (4, "fixture_post"), (14, "hello"), (8, "throw_type"), (6, "validation"),
        (5, "servicestack_auth"), (8, "autoquery"), (2, "app_overview"), (1, "types"),
        (5, "speech_to_text"), (6, "feathers"), (6, "people"), (1, "session"), (3, "journal"),
        (2, "delayed"), (1, "throttled"), (3, "fault"),
    )

    async def run_worker(self, deadline):
        names = [name for _, name in self.SCENARIOS]
        weights = [weight for weight, _ in self.SCENARIOS]
        conn = Connection(self.port)
        while time.monotonic() < deadline:
            name = self.rng.choices(names, weights)[0]
            self.tally.counts[name] += 1
            try:
                await getattr(self, name)(conn)
            except Failure as failure:
                self.tally.fail(str(failure).split(" (")[0], str(failure))
                conn.close()
            except Exception as error:  # noqa: BLE001 — a broken connection is a failure too
                self.tally.fail(f"{name}: {type(error).__name__}", repr(error))
                conn.close()
        conn.close()


async def slow_client(port, stop, cuts):
    """Sends a request one byte a second, over and over; notes how long the server let each run
    and how it ended (closed, reset, or answered once the request was whole)."""
    request = b"GET /example/widgets HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: " + b"s" * 200 + b"\r\n\r\n"
    while not stop.is_set():
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        begun = time.monotonic()
        sent, outcome = 0, None
        try:
            while not stop.is_set():
                if sent < len(request):
                    writer.write(request[sent:sent + 1])
                    await writer.drain()
                    sent += 1
                try:
                    data = await asyncio.wait_for(reader.read(1024), 1.0)
                except asyncio.TimeoutError:
                    continue
                outcome = "answered" if data else "closed"
                break
        except ConnectionError:
            outcome = "reset"
        finally:
            writer.close()
        if outcome:
            cuts.append((time.monotonic() - begun, sent, outcome))


async def resetting_client(port, stop, tally, rng):
    """Opens a connection, sends part or all of a request, and resets it with an RST."""
    requests = [
        b"GET /example/widgets HTTP/1.1\r\nHost: x\r\n\r\n",
        b"POST /test/api/Hello HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 5000\r\n\r\n" + b"{" * 700,
        b"POST /feathers/people HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 30\r\n\r\n{\"name\":",
        b"GET /techstacks/api/FindTechnologies?NameContains=a&take=50 HTTP/1.1\r\nHost: x\r\n\r\n",
    ]
    while not stop.is_set():
        conn = Connection(port)
        try:
            await conn.open()
            chosen = rng.choice(requests)
            conn.writer.write(chosen[:rng.randint(1, len(chosen))])
            await conn.writer.drain()
            await asyncio.sleep(rng.random() * 0.02)
            tally["resets"] += 1
        except ConnectionError:
            tally["refused"] += 1
        finally:
            conn.close(reset=True)
        await asyncio.sleep(0.01)


async def soak_phase(port, pid, minutes, workers, slow_count, resetters, seed, fixture_body, sample_s):
    tally = Tally()
    deadline = time.monotonic() + minutes * 60
    stop = asyncio.Event()
    cuts = []
    reset_tally = Counter()
    samples = []

    async def sampler():
        begun = time.monotonic()
        while not stop.is_set():
            samples.append((time.monotonic() - begun, rss_mib(pid), open_fds(pid), sum(tally.counts.values())))
            try:
                await asyncio.wait_for(stop.wait(), sample_s)
            except asyncio.TimeoutError:
                pass

    sampling = asyncio.create_task(sampler())
    adversaries = [asyncio.create_task(slow_client(port, stop, cuts)) for i in range(slow_count)]
    adversaries += [asyncio.create_task(resetting_client(port, stop, reset_tally, random.Random(seed + 2000 + i))) for i in range(resetters)]
    loads = [Workload(i, port, tally, random.Random(seed + i), fixture_body) for i in range(workers)]
    begun = time.monotonic()
    await asyncio.gather(*(load.run_worker(deadline) for load in loads))
    elapsed = time.monotonic() - begun
    stop.set()
    await asyncio.gather(sampling, *adversaries, return_exceptions=True)
    return tally, samples, cuts, reset_tally, elapsed


# ---------------------------------------------------------------- report

def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * p))] if ordered else 0.0


def machine_description():
    cpu = "unknown CPU"
    try:
        with open("/proc/cpuinfo") as info:
            cpu = next(line.split(":", 1)[1].strip() for line in info if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    return f"{cpu}, {os.cpu_count()} CPUs, {memory:.0f} GiB, {platform.system()} {platform.release()}"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--mockstack", required=True)
    parser.add_argument("--fixtures", required=True)
    parser.add_argument("--minutes", type=float, default=float(os.environ.get("SOAK_MINUTES", 10)))
    parser.add_argument("--hold", type=int, default=int(os.environ.get("SOAK_HOLD", 1000)))
    parser.add_argument("--hold-seconds", type=float, default=10.0)
    parser.add_argument("--workers", type=int, default=64)
    parser.add_argument("--slow", type=int, default=8, help="clients sending one byte a second")
    parser.add_argument("--resetters", type=int, default=4, help="clients resetting mid-request")
    parser.add_argument("--timeout", type=int, default=30, help="the server's --timeout, seconds")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    limit = raise_open_file_limit(args.hold + args.workers + 512)
    if limit < args.hold + args.workers + 64:
        raise SystemExit(f"open-file limit {limit} is too low for {args.hold} connections")
    process, port = start_server(args.mockstack, args.fixtures, ["--timeout", str(args.timeout)])
    lines, ok = [], True

    def report(line=""):
        print(line, flush=True)
        lines.append(line)

    try:
        version = subprocess.run([args.mockstack, "--version"], capture_output=True, text=True).stdout.strip()
        report(f"# mockstack soak — {datetime.date.today().isoformat()}")
        report()
        report(f"mockstack {version}, {machine_description()}; seed {args.seed}, server --timeout {args.timeout}.")
        report()
        fixture_body = fixture_answer(port, os.path.join(args.fixtures, "example", "widgets.json"))
        idle = rss_mib(process.pid)

        hold = asyncio.run(hold_phase(port, args.hold, args.hold_seconds, process.pid))
        held = not hold["failures"]
        ok &= held
        report(f"## Hold: {hold['count']:,} connections")
        report(f"- opened and answered in {hold['opened_s']:.2f} s; then one request on every one at once: "
               f"p50 {hold['all_at_once_p50_ms']:.1f} ms, max {hold['all_at_once_max_ms']:.1f} ms")
        report(f"- server: {hold['fds']:,} open files, RSS {hold['rss_mib']:.1f} MiB (idle before: {idle:.1f} MiB)")
        report(f"- held idle {hold['held_s']:.0f} s, then every one answered again (max {hold['after_hold_max_ms']:.1f} ms)")
        report(f"- failures: {hold['failures'] or 'none'} — {'PASS' if held else 'FAIL'}")
        report()

        tally, samples, cuts, resets, elapsed = asyncio.run(soak_phase(
            port, process.pid, args.minutes, args.workers, args.slow, args.resetters, args.seed,
            fixture_body, sample_s=max(1.0, args.minutes * 60 / 120)))
        total = sum(tally.counts.values())
        warm = max(30.0, args.minutes * 60 * 0.1)
        after_warm = [s for s in samples if s[0] >= warm]
        # Growth is judged only with a few samples past the warm-up; a shorter run fails it.
        judged = len(after_warm) >= 3
        baseline = after_warm[0][1] if judged else float("nan")
        final = statistics.median(s[1] for s in samples[-3:])
        peak = max(s[1] for s in samples)
        growth = final / baseline - 1 if judged else float("nan")
        latencies = tally.latencies
        report(f"## Soak: {args.minutes:g} min, {args.workers} connections, every app, faults")
        report(f"- {total:,} scenarios, {len(latencies):,} checked requests ({len(latencies) / elapsed:,.0f}/s), "
               f"plus {sum(tally.faults.values()):,} faults, delays and throttles seen as asked: "
               + ", ".join(f"{name} {count:,}" for name, count in sorted(tally.faults.items())))
        report(f"- latency of the non-delayed requests: p50 {percentile(latencies, 0.5) * 1000:.2f} ms, "
               f"p99 {percentile(latencies, 0.99) * 1000:.2f} ms, max {max(latencies) * 1000:.1f} ms; "
               f"stalls (> {STALL_S:g} s): {tally.stalls}")
        failed = sum(tally.failures.values())
        report(f"- failed requests: {failed}" + "".join(f"\n  - {what}: {count} (e.g. {tally.examples[what]})" for what, count in tally.failures.most_common(10)))
        if judged:
            report(f"- RSS: {baseline:.1f} MiB after the {warm:.0f} s warm-up, {final:.1f} MiB at the end, peak {peak:.1f} MiB: "
                   f"growth {growth * 100:+.1f}% (limit {RSS_GROWTH_LIMIT * 100:.0f}%); open files at the end {samples[-1][2]}")
        else:
            report(f"- RSS: {final:.1f} MiB at the end, peak {peak:.1f} MiB; the run was too short to judge growth after a {warm:.0f} s warm-up")
        cut_times = [t for t, _, _ in cuts]
        endings = Counter(outcome for _, _, outcome in cuts)
        # Cut after the timeout, not before it, and not much after; by a close, never an answer.
        slow_ok = bool(cuts) and args.timeout <= min(cut_times) and max(cut_times) <= args.timeout + 3 and set(endings) == {"closed"}
        if cuts:
            report(f"- one-byte-a-second clients: {len(cuts)} cut by the server after "
                   f"{min(cut_times):.1f}–{max(cut_times):.1f} s (median {statistics.median(cut_times):.1f} s, "
                   f"{statistics.median(b for _, b, _ in cuts):.0f} bytes sent; "
                   + ", ".join(f"{how} {n}" for how, n in sorted(endings.items())) + ")")
        else:
            report("- one-byte-a-second clients: none was cut by the server")
        report(f"- resetting clients: {resets['resets']:,} connections reset mid-request, {resets['refused']} refused")
        ok &= failed == 0 and tally.stalls == 0 and judged and growth <= RSS_GROWTH_LIMIT and (slow_ok or args.slow == 0)

        alive = process.poll() is None
        ok &= alive
        health = "unreachable"
        if alive:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=2) as s:
                    s.sendall(b"GET /__mockstack/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                    health = s.recv(100).split(b"\r\n")[0].decode()
            except OSError as error:
                health = repr(error)
            process.terminate()
            code = process.wait(timeout=10)
        else:
            code = process.returncode
        ok &= health.endswith("200 OK") and code == 0
        report(f"- server at the end: {'alive' if alive else 'DEAD'}, health {health!r}, exit code {code} after SIGTERM")
        report()
        report(f"**{'PASS' if ok else 'FAIL'}**")
        report()
        report("RSS samples (s, MiB, open files, scenarios): " + "; ".join(f"{t:.0f} {r:.1f} {f} {n}" for t, r, f, n in samples[::max(1, len(samples) // 20)]))
    finally:
        if process.poll() is None:
            process.kill()
        os.makedirs(WORK, exist_ok=True)
        with open(os.path.join(WORK, "soak.md"), "w") as out:
            out.write("\n".join(lines) + "\n")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
