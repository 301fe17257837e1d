#!/usr/bin/env python3
"""make hostile: the requests that once crashed, stalled or bloated the server, sent again.

Every attack that two red-team passes found is replayed against the release build (the earlier
cases named by what they attack, the later as `finding_N_…`, names `--only` matches), and the
crowds of Server Events subscribers its limits are for, while a probe asks
`/__mockstack/health` every 10 ms on a connection of its own: the longest the probe waits is the
longest the event loop stalled. Every hostile request must get its documented answer (or the
connection its documented end) within its time bound; while each `finding_` case attacks, RSS is
sampled every 20 ms; at the end the server must be alive, hold no more descriptors than before,
have grown little in RSS, and sit idle at a few percent of a core under `--watch` with a symlink
to /usr/share in its fixtures. The proxy's cases run a second server forwarding to a raw Python
upstream on loopback.

Pass: every case as documented, the loop's longest stall ≤ STALL_LIMIT_MS, each attacking
client's RSS peak ≤ ATTACK_RSS_LIMIT_MIB and back within RECOVERY_MIB after, RSS growth in all
≤ RSS_LIMIT_MIB, descriptors back to where they were, idle CPU ≤ IDLE_CPU_LIMIT. Prints a report
and writes it to Benchmarks/.work/hostile.md; exits 1 on any failure.
"""

import argparse
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from soak import open_fds, raise_open_file_limit, rss_mib  # noqa: E402  (the soak's own readings of /proc)
WORK = os.path.join(HERE, ".work")
STALL_LIMIT_MS = 250
RSS_LIMIT_MIB = 48
ATTACK_RSS_LIMIT_MIB = 64   # one attacking client's peak
# How far above its start RSS may stay once an attack is over. mimalloc keeps a finished
# attack's freed pages for reuse rather than returning them at once (a repeat of the same attack
# settles where the first left it: Benchmarks/LOG.md), so the bound is what that reuse keeps.
RECOVERY_MIB = 32
IDLE_CPU_LIMIT = 0.05
TIMEOUT_S = 2          # the server's --timeout for this run, so deadlines pass quickly
PROXY_ENDLESS_ANSWERS = 12
# The proxy holds at most 64 MiB of answers arriving at once; growing arrays and the allocator's
# slack come on top, but not in proportion to the number of upstreams.
PROXY_RSS_LIMIT_MIB = 128


# ---------------------------------------------------------------- plain HTTP/1.1 over sockets

def read_reply(sock, deadline):
    """One reply (Content-Length or chunked), or None if the connection ended first."""
    data = b""
    while b"\r\n\r\n" not in data:
        sock.settimeout(max(0.01, deadline - time.monotonic()))
        chunk = sock.recv(65536)
        if not chunk:
            return None
        data += chunk
    head, _, rest = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split(" ")[1])
    headers = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
    length = int(headers.get("content-length", "0"))
    while len(rest) < length:
        sock.settimeout(max(0.01, deadline - time.monotonic()))
        chunk = sock.recv(65536)
        if not chunk:
            break
        rest += chunk
    return status, headers, rest[:length]


def request(port, method, path, body=b"", headers=(), timeout=30.0, raw=None):
    """Sends one request on a new connection; returns (status, headers, body, seconds)."""
    started = time.monotonic()
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
        if raw is None:
            lines = [f"{method} {path} HTTP/1.1", "Host: hostile", f"Content-Length: {len(body)}", "Connection: close"]
            lines += [f"{name}: {value}" for name, value in headers]
            raw = ("\r\n".join(lines) + "\r\n\r\n").encode() + body
        sock.sendall(raw)
        reply = read_reply(sock, started + timeout)
    elapsed = time.monotonic() - started
    if reply is None:
        return None, {}, b"", elapsed
    return reply[0], reply[1], reply[2], elapsed


def control(port, method, path, document=None):
    body = json.dumps(document).encode() if document is not None else b""
    return request(port, method, "/__mockstack/" + path, body, [("Content-Type", "application/json")])


# ---------------------------------------------------------------- the server and its vital signs

def start_server(binary, fixtures, log):
    process = subprocess.Popen([binary, "serve", "--port", "0", "--fixtures", fixtures, "--watch",
                                "--timeout", str(TIMEOUT_S), "--log-level", "warning"],
                               stdout=subprocess.PIPE, stderr=log)
    ready = json.loads(process.stdout.readline())
    return process, ready["port"]


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Probe(threading.Thread):
    """Asks for health every 10 ms on one keep-alive connection; keeps the slowest answer."""

    def __init__(self, port):
        super().__init__(daemon=True)
        self.port, self.worst, self.failures, self.stop = port, 0.0, 0, threading.Event()
        # The slowest answer since the last look (``window()``): which case stalled the loop.
        self.window_worst = 0.0

    def run(self):
        sock = socket.create_connection(("127.0.0.1", self.port))
        while not self.stop.is_set():
            started = time.monotonic()
            try:
                sock.sendall(b"GET /__mockstack/health HTTP/1.1\r\nHost: probe\r\n\r\n")
                reply = read_reply(sock, started + 30)
                if reply is None or reply[0] != 200:
                    raise OSError("no health")
            except OSError:
                self.failures += 1
                sock.close()
                sock = socket.create_connection(("127.0.0.1", self.port))
            self.worst = max(self.worst, time.monotonic() - started)
            self.window_worst = max(self.window_worst, time.monotonic() - started)
            time.sleep(0.01)
        sock.close()

    def window(self):
        """The slowest answer since the last call, in ms (a probe still waiting counts too)."""
        worst, self.window_worst = self.window_worst, 0.0
        return worst * 1000


def small_window_socket(port):
    """A connection with a 4 KB receive buffer, for a client that stops reading."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect(("127.0.0.1", port))
    return sock


def wait_for_end(sock, seconds):
    """Whether the server lets go of `sock` within `seconds`: it closed or reset the connection,
    or its own end of it no longer belongs to its process (closed with output the client never
    took, a FIN the client's full window cannot let through yet). Nothing is read from `sock`,
    so a server waiting for its output to be taken sees no progress."""
    ends, port = time.monotonic() + seconds, sock.getsockname()[1]
    while time.monotonic() < ends:
        ours = subprocess.run(["ss", "-tnH", "state", "all", f"sport = :{port}"], capture_output=True, text=True).stdout.split()
        # The client's end: CLOSE-WAIT after the server's FIN, gone after its reset.
        if not ours or ours[0] in ("CLOSE-WAIT", "CLOSED"):
            return True
        theirs = subprocess.run(["ss", "-tnpH", "state", "all", f"dport = :{port}"], capture_output=True, text=True).stdout
        if "users:" not in theirs:
            return True
        time.sleep(0.1)
    return False


def ws_frame(payload, opcode=1):
    """One masked client frame (the mask is zero: the payload goes as it is)."""
    head = bytes([0x80 | opcode])
    if len(payload) < 126:
        head += bytes([0x80 | len(payload)])
    else:
        head += bytes([0x80 | 126]) + len(payload).to_bytes(2, "big")
    return head + b"\0\0\0\0" + payload


class Attack:
    """RSS sampled every 20 ms while one client attacks: its peak growth must stay under
    ATTACK_RSS_LIMIT_MIB, and the server must be back within RECOVERY_MIB of where it started
    within a few seconds after."""

    def __init__(self, pid):
        self.pid, self.peak, self.stop = pid, 0.0, threading.Event()

    def __enter__(self):
        self.before = rss_mib(self.pid)
        self.thread = threading.Thread(target=self.watch, daemon=True)
        self.thread.start()
        return self

    def watch(self):
        while not self.stop.is_set():
            self.sample()
            time.sleep(0.02)

    def sample(self):
        self.peak = max(self.peak, rss_mib(self.pid) - self.before)

    def __exit__(self, *_):
        self.stop.set()
        self.thread.join()
        deadline = time.monotonic() + 5
        self.after = rss_mib(self.pid) - self.before
        while self.after > RECOVERY_MIB and time.monotonic() < deadline:
            time.sleep(0.1)
            self.after = rss_mib(self.pid) - self.before
        return False

    def ok(self):
        return self.peak <= ATTACK_RSS_LIMIT_MIB and self.after <= RECOVERY_MIB

    def __str__(self):
        return f"RSS peak {self.peak:+.1f} MiB, {self.after:+.1f} MiB after"

# ---------------------------------------------------------------- an upstream for the proxy's cases

class FakeUpstream(threading.Thread):
    """A raw HTTP/1.1 server on 127.0.0.1, port 0, for `--proxy-unmatched` and `record`: keeps every
    request's path and headers, and answers by the path's last segment — `upgrade` a 101,
    `internal` with `Connection: X-Internal`, `untyped` a body without Content-Type, `endless` a
    chunked body that never ends (until the proxy lets go, or ENDLESS_S pass), anything else 200."""

    ENDLESS_S = 5

    def __init__(self):
        super().__init__(daemon=True)
        self.listener = socket.socket()
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(64)
        self.port = self.listener.getsockname()[1]
        self.seen = []  # (path, {lowercased name: value})
        self.lock = threading.Lock()

    def run(self):
        while True:
            try:
                conn, _ = self.listener.accept()
            except OSError:
                return
            threading.Thread(target=self.serve, args=(conn,), daemon=True).start()

    def serve(self, conn):
        conn.settimeout(10)
        data = b""
        try:
            while True:
                while b"\r\n\r\n" not in data:
                    chunk = conn.recv(65536)
                    if not chunk:
                        return
                    data += chunk
                head, _, data = data.partition(b"\r\n\r\n")
                lines = head.decode("latin-1").split("\r\n")
                path = lines[0].split(" ")[1]
                headers = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
                length = int(headers.get("content-length", "0"))
                while len(data) < length:
                    data += conn.recv(65536)
                data = data[length:]
                with self.lock:
                    self.seen.append((path, headers))
                if not self.answer(conn, path.split("?")[0].rsplit("/", 1)[-1]):
                    return
        except OSError:
            return
        finally:
            conn.close()

    def answer(self, conn, last):
        """Answers one request; False when the connection is done."""
        if last == "upgrade":
            # Bytes of the protocol switched to, then the end: libcurl reads them as the 101's body.
            conn.sendall(b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: hostile\r\nConnection: Upgrade\r\n\r\nswitched")
            return False
        if last == "internal":
            conn.sendall(b"HTTP/1.1 200 OK\r\nConnection: X-Internal\r\nX-Internal: upstream-secret\r\n"
                         b"X-Escape: x\x1b[31my\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\nok")
            return True
        if last == "untyped":
            conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 11\r\n\r\nplain bytes")
            return True
        if last == "endless":
            conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nTransfer-Encoding: chunked\r\n\r\n")
            chunk = b"%x\r\n" % 65536 + b"e" * 65536 + b"\r\n"
            deadline = time.monotonic() + self.ENDLESS_S
            while time.monotonic() < deadline:
                conn.sendall(chunk)
            return False
        conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\nok")
        return True

    def paths(self):
        with self.lock:
            return [path for path, _ in self.seen]

    def stop(self):
        self.listener.close()


class ProxyRig:
    """The fake upstream, and a second mockstack serving `example` with
    `--proxy-unmatched http://127.0.0.1:PORT/base` (and, on demand, a `record` of the same target)."""

    def __init__(self, binary, fixtures, log):
        self.binary, self.fixtures, self.log = binary, fixtures, log
        self.upstream = FakeUpstream()
        self.upstream.start()
        self.target = f"http://127.0.0.1:{self.upstream.port}/base"
        self.process = subprocess.Popen([binary, "serve", "--port", "0", "--fixtures", fixtures, "--apps", "example",
                                         "--proxy-unmatched", self.target, "--proxy-timeout", "10", "--log-level", "error"],
                                        stdout=subprocess.PIPE, stderr=log)
        self.port = json.loads(self.process.stdout.readline())["port"]

    def record(self, out):
        """A `record --kind static` of the target into `out`: (process, port)."""
        process = subprocess.Popen([self.binary, "record", "--target", self.target, "--out", out, "--app", "rec", "--kind", "static",
                                    "--port", "0", "--log-level", "error"], stdout=subprocess.PIPE, stderr=self.log)
        return process, json.loads(process.stdout.readline())["port"]

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=10)
        self.upstream.stop()


# ---------------------------------------------------------------- the cases, one per attack

class Cases:
    def __init__(self, port, pid, rig=None):
        self.port, self.pid, self.results, self.rig = port, pid, [], rig

    def check(self, finding, what, ok, detail):
        self.results.append((finding, what, bool(ok), detail))

    def coercion_limits(self):
        # TimeSpan.MinValue itself is a valid TimeSpan (.NET parses it); one tick past is not.
        for value, expected in [("10675199.23:59:59", 400), ("-10675199.02:48:05.4775809", 400), ("P99999999999999D", 400),
                                ("-10675199.02:48:05.4775808", 200), ("10675199.02:48:05.4775807", 200)]:
            status, _, body, took = request(self.port, "GET", "/test/api/EchoTypes?TimeSpan=" + value)
            self.check(1, f"TimeSpan={value}", status == expected, f"{status} in {took * 1000:.0f} ms")
        for name, value in [("Long", "9223372036854775808"), ("ULong", "18446744073709551616"),
                            ("Decimal", "1e999999999"), ("DateTime", "/Date(99999999999999999999)/")]:
            status, _, _, took = request(self.port, "GET", f"/test/api/EchoTypes?{name}={value}")
            self.check(1, f"{name}={value}", status == 400, f"{status} in {took * 1000:.0f} ms")
        document = json.dumps({"TimeSpan": "10675199.23:59:59"}).encode()
        status, _, _, _ = request(self.port, "POST", "/test/api/EchoTypes", document, [("Content-Type", "application/json")])
        self.check(1, "TimeSpan past its maximum in JSON", status == 400, str(status))

    def multipart_backslashes(self):
        boundary = "hostileboundary"
        part = ("--" + boundary + "\r\nContent-Disposition: form-data; name=\"" + "\\" * 16_000 + "\"\r\n\r\nx\r\n")
        body = (part * 60 + "--" + boundary + "--\r\n").encode()
        status, _, _, took = request(self.port, "POST", "/test/api/TestFileUploads", body,
                                     [("Content-Type", "multipart/form-data; boundary=" + boundary)])
        self.check(2, "60 parts of 16 KB of backslashes", status is not None and status < 500 and took < 1.0,
                   f"{status} in {took * 1000:.0f} ms")

    def regex_stubs(self):
        status, _, body, _ = control(self.port, "POST", "stubs", {"match": {"pathRegex": "/example/(a+)+b"}, "answer": {"status": 200}})
        if status == 201:
            status, _, _, took = request(self.port, "GET", "/example/" + "a" * 40)
            self.check(3, "(a+)+b on 40 a's", status is not None and took < 0.5, f"{status} in {took * 1000:.0f} ms")
        else:
            self.check(3, "(a+)+b refused at creation", status == 400, f"{status} {body[:120]!r}")
        status, _, _, _ = control(self.port, "POST", "stubs", {"match": {"pathRegex": "/example/.*x.*y.*z"}, "answer": {"status": 200}})
        status, _, _, took = request(self.port, "GET", "/example/" + "a" * 30_000)
        self.check(3, ".*x.*y.*z on a 30 KB path", status is not None and took < 0.5, f"{status} in {took * 1000:.0f} ms")
        control(self.port, "DELETE", "stubs")

    def delays_left_by_their_clients(self):
        before = open_fds(self.pid)
        for _ in range(50):
            sock = socket.create_connection(("127.0.0.1", self.port))
            sock.sendall(b"GET /example/hello HTTP/1.1\r\nHost: h\r\nX-MockStack-Delay: 600000\r\n\r\n")
            time.sleep(0.005)
            sock.close()
        deadline = time.monotonic() + 3
        while open_fds(self.pid) > before and time.monotonic() < deadline:
            time.sleep(0.05)
        self.check(4, "50 delayed requests whose clients left", open_fds(self.pid) <= before,
                   f"{open_fds(self.pid) - before} descriptors still held after 3 s")

    def journal_bounds(self):
        boundary = "b"
        parts = "".join(f"--{boundary}\r\nContent-Disposition: form-data; name=\"{'n' * 4000}{i}\"; filename=\"{'f' * 4000}\"\r\n\r\nx\r\n"
                        for i in range(1000))
        body = (parts + f"--{boundary}--\r\n").encode()
        request(self.port, "POST", "/test/api/TestFileUploads", body, [("Content-Type", "multipart/form-data; boundary=" + boundary)])
        headers = [(f"X-Filler-{i}", "v" * 1000) for i in range(28)]
        for _ in range(200):
            request(self.port, "GET", "/example/hello", headers=headers)
        status, _, body, _ = control(self.port, "GET", "requests?limit=1000")
        size = len(body)
        self.check(5, "1,000-part upload and 200 requests with 28 KB of headers, as the journal lists them",
                   status == 200 and size < 8 * 1024 * 1024, f"journal JSON {size / 1024 / 1024:.1f} MiB")

    def slow_reader_of_a_large_answer(self):
        # A reader that keeps taking its answer, however slowly, is served (nginx's send_timeout);
        # once it stops taking any, it is dropped at the timeout.
        record = json.dumps({"name": "x" * 100_000}).encode()
        for _ in range(60):
            request(self.port, "POST", "/feathers/people", record, [("Content-Type", "application/json")])
        sock = small_window_socket(self.port)
        sock.sendall(b"GET /feathers/people HTTP/1.1\r\nHost: h\r\n\r\n")
        started, received, ended = time.monotonic(), 0, False
        while time.monotonic() - started < TIMEOUT_S * 2.5 and not ended:
            sock.settimeout(1)
            try:
                chunk = sock.recv(64)
            except socket.timeout:
                continue
            except ConnectionResetError:
                chunk = b""
            ended = not chunk
            received += len(chunk)
            time.sleep(0.05)
        self.check(6, "a client reading 64 B at a time from a 6 MB answer is served past the timeout", not ended and received > 0,
                   f"{'cut' if ended else 'still served'} after {time.monotonic() - started:.1f} s, {received} bytes read")
        stopped = time.monotonic()
        dropped = wait_for_end(sock, TIMEOUT_S * 1.25 + 6)
        took = time.monotonic() - stopped
        sock.close()
        self.check(6, "... and let go once it stops reading", dropped and took < TIMEOUT_S * 1.25 + 2,
                   f"{'let go' if dropped else 'still held'} {took:.1f} s after it stopped")
        control(self.port, "POST", "reset?app=feathers")

    def template_amplification(self):
        payload = json.dumps({"a": "y" * 1_000_000}).encode()
        stub = {"match": {"path": "/example/echo"}, "answer": {"template": True, "body": {"k": " ".join(["{{body/a}}"] * 5000)}}}
        status, _, _, _ = control(self.port, "POST", "stubs", stub)
        if status == 201:
            status, _, body, took = request(self.port, "POST", "/example/echo", payload, [("Content-Type", "application/json")])
            self.check(7, "5,000 {{body/a}} over a 1 MB body", status is not None and took < 1.0 and len(body) < 64 * 1024 * 1024,
                       f"{status}, {len(body) / 1024 / 1024:.1f} MiB in {took * 1000:.0f} ms")
        else:
            self.check(7, "5,000 {{body/a}} refused at creation", status == 400, str(status))
        control(self.port, "DELETE", "stubs")

    def reset_keeps_sessions_stubs(self):
        control(self.port, "POST", "stubs", {"match": {"app": "example", "session": "s1", "path": "/example/hello"},
                                             "answer": {"status": 418, "body": "session stub"}})
        control(self.port, "POST", "reset?app=example")
        status, _, body, _ = request(self.port, "GET", "/__session/s1/example/hello")
        self.check(8, "a session's stub after a server-wide reset?app=", status == 418, f"{status} {body[:40]!r}")
        control(self.port, "POST", "reset")

    def framing_headers_in_stubs(self):
        for answer in [{"status": 101}, {"status": 200, "headers": {"Content-Length": "0"}},
                       {"status": 200, "headers": {"Transfer-Encoding": "chunked"}}]:
            status, _, body, _ = control(self.port, "POST", "stubs", {"match": {"path": "/example/framing"}, "answer": answer})
            self.check(9, f"stub answer {json.dumps(answer)}", status == 400, f"{status} {body[:80]!r}")
        control(self.port, "DELETE", "stubs")

    def chunked_bodies(self):
        cases = [
            ("a chunk extension", b"POST /example/hello HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
             b"5;name=value\r\nhello\r\n0\r\n\r\n", lambda s: s is not None and s != 413 and s < 500),
            ("a negative chunk size", b"POST /example/hello HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
             b"-5\r\nhello\r\n0\r\n\r\n", lambda s: s == 400),
            ("a chunk without its CRLF", b"POST /example/hello HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
             b"5\r\nhelloXX0\r\n\r\n", lambda s: s == 400),
            ("an empty line before the request line", b"\r\nGET /example/hello HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n",
             lambda s: s == 200),
        ]
        for name, raw, good in cases:
            status, _, _, _ = request(self.port, None, None, raw=raw, timeout=5)
            self.check(10, name, good(status), str(status))

    # ------------------------------------------------------------ back-pressure on one connection

    def pipelined_flood(self, sock, request, seconds=1.0):
        """Sends `request` over and over for `seconds` without reading; returns the bytes taken."""
        sock.setblocking(False)
        accepted, offset, ends = 0, 0, time.monotonic() + seconds
        while time.monotonic() < ends:
            try:
                sent = sock.send(request[offset:])
            except BlockingIOError:
                time.sleep(0.01)
                continue
            except OSError:
                break
            accepted += sent
            offset = (offset + sent) % len(request)
        return accepted

    def finding_1_pipelining_behind_unsent_output(self):
        """Pipelined GETs flooded onto a connection that never reads its answers, or behind a throttled one."""
        request = b"GET /example/hello HTTP/1.1\r\nHost: h\r\nX-Pad: " + b"p" * 900 + b"\r\n\r\n"
        for name, first in [("behind a throttled answer", b"GET /example/hello HTTP/1.1\r\nHost: h\r\nX-MockStack-Throttle: 1\r\n\r\n"),
                            ("never reading the answers", b"")]:
            with Attack(self.pid) as attack:
                sock = small_window_socket(self.port)
                sock.sendall(first)
                accepted = self.pipelined_flood(sock, request)
                attack.sample()
                sock.close()
            self.check(1, f"pipelined GETs for 1 s {name}", accepted < 32 << 20 and attack.ok(),
                       f"{accepted / 1024 / 1024:.1f} MB taken; {attack}")

    def finding_2_websocket_closing_with_unsent_output(self):
        """A WebSocket client that asks for large answers, never reads them, then closes."""
        record = json.dumps({"name": "w" * 100_000}).encode()
        for _ in range(12):
            request(self.port, "POST", "/feathers/people", record, [("Content-Type", "application/json")])
        with Attack(self.pid) as attack:
            sock = small_window_socket(self.port)
            key = "dGhlIHNhbXBsZSBub25jZQ=="
            sock.sendall((f"GET /feathers/socket.io/?EIO=4&transport=websocket HTTP/1.1\r\nHost: h\r\nUpgrade: websocket\r\n"
                          f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
            sock.sendall(ws_frame(b"40"))
            # Three answers of the whole 1.2 MB list: under the 4 MiB an upgraded stream may hold
            # at once, and more than the kernel's buffers take, so some of it waits in the server.
            for ack in range(3):
                sock.sendall(ws_frame(b'42%d["find","people",{"$limit":100}]' % ack))
            time.sleep(0.3)
            sock.sendall(ws_frame(b"\x03\xe8", opcode=8))
            started = time.monotonic()
            ended = wait_for_end(sock, TIMEOUT_S + 6)
            attack.sample()
            sock.close()
        took = time.monotonic() - started
        self.check(2, "a WebSocket closing with 3.6 MB of answers unsent, never read",
                   ended and took < TIMEOUT_S * 1.25 + 2 and attack.ok(),
                   f"{'let go' if ended else 'still held'} after {took:.1f} s; {attack}")
        control(self.port, "POST", "reset?app=feathers")

    def finding_10_empty_lines_keep_alive(self):
        """Empty lines, which a server skips before a request line, sent to hold a connection open."""
        sock = socket.create_connection(("127.0.0.1", self.port))
        started, ended = time.monotonic(), False
        while time.monotonic() - started < TIMEOUT_S * 3:
            try:
                sock.sendall(b"\r\n")
            except OSError:
                ended = True
                break
            if wait_for_end(sock, 0.5):
                ended = True
                break
        took = time.monotonic() - started
        sock.close()
        self.check(10, "an empty line every 0.5 s", ended and took < TIMEOUT_S * 1.25 + 1,
                   f"{'closed' if ended else 'still open'} after {took:.1f} s")

    def finding_12_throttled_answer_never_read(self):
        """A large answer throttled to a slow rate for a client that never reads it."""
        status, _, _, _ = control(self.port, "POST", "stubs", {"match": {"path": "/example/four-megabytes"},
                                                                "answer": {"status": 200, "body": "m" * 4_000_000}})
        sock = small_window_socket(self.port)
        sock.sendall(b"GET /example/four-megabytes HTTP/1.1\r\nHost: h\r\nX-MockStack-Throttle: 100000\r\n\r\n")
        started = time.monotonic()
        ended = wait_for_end(sock, TIMEOUT_S + 30)
        took = time.monotonic() - started
        sock.close()
        control(self.port, "DELETE", "stubs")
        self.check(12, "4 MB throttled at 100 kB/s, never read", status == 201 and ended and took < TIMEOUT_S * 1.25 + 2,
                   f"{'dropped' if ended else 'still open'} after {took:.1f} s")

    def finding_4_costly_patterns(self):
        """Backtracking-heavy regular expressions in stubs, journal counts and waits, against long paths."""
        costly = ".*[ab]{0,450}c"
        for _ in range(4):
            control(self.port, "POST", "stubs", {"match": {"pathRegex": costly}, "answer": {"status": 418}})
        status, _, _, took = request(self.port, "GET", "/example/" + "x" * 30_000 + "c")
        self.check(4, "four stubs of .*[ab]{0,450}c on a 30 KB path", status == 404 and took < 0.25,
                   f"{status} in {took * 1000:.0f} ms")
        status, _, _, _ = request(self.port, "GET", "/example/abc")
        self.check(4, "the same stubs on a short path", status == 418, str(status))
        control(self.port, "DELETE", "stubs")
        control(self.port, "DELETE", "requests")
        for _ in range(200):
            request(self.port, "GET", "/example/" + "x" * 2_100)
        status, _, body, took = control(self.port, "POST", "requests/count", {"pathRegex": costly})
        self.check(4, "requests/count of it over 200 long entries", status == 422 and took < 0.25,
                   f"{status} in {took * 1000:.0f} ms {body[:60]!r}")
        status, _, _, took = control(self.port, "POST", "requests/wait", {"pattern": {"pathRegex": costly}, "timeoutMs": 1000})
        self.check(4, "requests/wait for it over the same entries", status == 422 and took < 0.25, f"{status} in {took * 1000:.0f} ms")
        # Waits matched against each new entry: each recorded request pays the budget at most.
        latest = json.loads(control(self.port, "GET", "requests?limit=1")[2])["requests"][0]["id"]
        ended = []
        waits = [threading.Thread(target=lambda: ended.append(control(self.port, "POST", "requests/wait", {
            "pattern": {"pathRegex": costly}, "timeoutMs": 1500, "since": latest})[0])) for _ in range(8)]
        for wait in waits:
            wait.start()
        worst = 0.0
        for _ in range(20):
            worst = max(worst, request(self.port, "GET", "/example/" + "x" * 2_100)[3])
        for wait in waits:
            wait.join()
        self.check(4, "20 long requests recorded while 8 such waits wait", worst < 0.25 and all(s in (408, 422) for s in ended),
                   f"slowest {worst * 1000:.0f} ms; waits {sorted(ended)}")
        control(self.port, "DELETE", "requests")

    def finding_11_waits_end_with_their_scope(self):
        """Journal waits left waiting while their session is deleted or the server reset."""
        def waiting():
            return json.loads(control(self.port, "GET", "requests/wait")[2])["waiting"]

        def wait_in(prefix, then):
            """Starts a 60 s wait under `prefix`, runs `then` once it waits; its status and time."""
            result = []
            thread = threading.Thread(target=lambda: result.append(request(
                self.port, "POST", prefix + "/__mockstack/requests/wait",
                json.dumps({"pattern": {"path": "/never"}, "timeoutMs": 60_000}).encode(), [("Content-Type", "application/json")])))
            thread.start()
            deadline = time.monotonic() + 2
            while waiting() == 0 and time.monotonic() < deadline:
                time.sleep(0.01)
            started = time.monotonic()
            then()
            thread.join(5)
            status, _, body, _ = result[0] if result else (None, {}, b"", 0)
            return status, body, time.monotonic() - started

        status, body, took = wait_in("/__session/hostile-s", lambda: control(self.port, "DELETE", "sessions/hostile-s"))
        self.check(11, "a session's wait when the session is deleted", status == 410 and took < 1,
                   f"{status} in {took * 1000:.0f} ms {body[:60]!r}")
        status, body, took = wait_in("/__session/hostile-s", lambda: control(self.port, "POST", "reset"))
        self.check(11, "a session's wait at a server reset", status == 410 and took < 1, f"{status} in {took * 1000:.0f} ms")
        status, body, took = wait_in("", lambda: control(self.port, "POST", "reset"))
        self.check(11, "the server's wait at a server reset", status == 409 and took < 1, f"{status} in {took * 1000:.0f} ms")
        self.check(11, "wait places held afterwards", waiting() == 0, str(waiting()))

    # Engine.IO over polling, as a socket.io client speaks it (EIO=4, packets joined by \x1e).
    def engine_io_handshake(self, base):
        status, _, body, _ = request(self.port, "GET", base + "/socket.io/?EIO=4&transport=polling")
        if status != 200:
            return None
        return json.loads(body.decode()[1:])["sid"]

    def engine_io_post(self, base, sid, packets):
        return request(self.port, "POST", f"{base}/socket.io/?EIO=4&transport=polling&sid={sid}", "\x1e".join(packets).encode(),
                       [("Content-Type", "text/plain;charset=UTF-8")], timeout=20)

    def finding_3_polling_outbox(self):
        """Engine.IO polling: many large answers asked for in one POST and never polled for."""
        base = "/__session/hostile-outbox/feathers"
        request(self.port, "POST", base + "/people", json.dumps({"name": "x" * 200_000}).encode(), [("Content-Type", "application/json")])
        sid = self.engine_io_handshake(base)
        before = rss_mib(self.pid)
        # 500 finds of a 200 KB record in one 13 KB body, the answers never polled for.
        status, _, body, took = self.engine_io_post(base, sid, ["40"] + [f'42{i}["find","people"]' for i in range(500)])
        growth = rss_mib(self.pid) - before
        poll, _, answer, _ = request(self.port, "GET", f"{base}/socket.io/?EIO=4&transport=polling&sid={sid}", timeout=20)
        gone = poll == 400 and answer == b'{"code":1,"message":"Session ID unknown"}'
        self.check(3, "500 finds of a 200 KB record never polled: the session ends past 4 MiB waiting",
                   status == 200 and body == b"ok" and gone and growth <= 16 and took < 2,
                   f"POST {status} in {took * 1000:.0f} ms, RSS {growth:+.1f} MiB; next poll {poll} {answer[:60]!r}")
        sid = self.engine_io_handshake(base)
        status, _, _, took = self.engine_io_post(base, sid, ["6"] * 1001)
        alive, _, body, _ = self.engine_io_post(base, sid, ["6"])
        self.check(3, "a POST of 1,001 packets is refused with 413, the session goes on",
                   status == 413 and alive == 200 and body == b"ok", f"{status} in {took * 1000:.0f} ms, then {alive} {body[:20]!r}")
        self.engine_io_post(base, sid, ["1"])

    def finding_5_socket_activity_weight(self):
        """Socket calls with huge arguments or event names, to grow the socket activity log."""
        base = "/__session/hostile-activity/feathers"
        control(self.port, "DELETE", "sockets/activity")
        sid = self.engine_io_handshake(base)
        self.engine_io_post(base, sid, ["40"])
        before = rss_mib(self.pid)
        filler = "y" * 900_000
        for i in range(300):
            # Calls with ~900 KB of arguments, and some whose event name is that long.
            packet = f'42{i}["find","nope",{{"q":"{filler}"}}]' if i % 6 else f'42["{filler}"]'
            self.engine_io_post(base, sid, [packet])
        recorded = rss_mib(self.pid) - before
        self.engine_io_post(base, sid, ["1"])
        status, _, body, took = control(self.port, "GET", "sockets/activity")
        read = rss_mib(self.pid) - before
        entries = json.loads(body)["activity"] if status == 200 else []
        calls = [entry for entry in entries if entry["kind"] == "call"]
        cut = [entry for entry in calls if entry.get("dataTruncated") or entry.get("nameTruncated")]
        marked = all(entry["dataSize"] > 900_000 and len(entry["data"].encode()) <= 16 * 1024 for entry in cut if entry.get("dataTruncated"))
        self.check(5, "300 socket calls of ~900 KB each, then the activity read",
                   status == 200 and len(calls) == 300 and len(cut) == 300 and marked and recorded <= 24 and read <= 48
                   and len(body) < 16 * 1024 * 1024,
                   f"RSS {recorded:+.1f} MiB recorded, {read:+.1f} MiB after reading {len(body) / 1024 / 1024:.1f} MiB "
                   f"in {took * 1000:.0f} ms; {len(cut)} of {len(calls)} calls cut")
        # The request journal kept the 300 POSTs too (their bodies cut, within its own bound).
        control(self.port, "DELETE", "sockets/activity")
        control(self.port, "DELETE", "sessions/hostile-activity")
        control(self.port, "DELETE", "requests")

    def engine_io_session_cap(self):
        """Engine.IO handshakes for 3 s (at most 20,000) on keep-alive connections, spread over the
        app and two mockstack sessions' copies of it, which share its budget. Run last: the sessions
        opened live out their 45 s."""
        bases = ["/feathers", "/__session/hostile-cap-1/feathers", "/__session/hostile-cap-2/feathers"]
        socks = [socket.create_connection(("127.0.0.1", self.port)) for _ in bases]
        before = rss_mib(self.pid)
        opened, refused, other, refusal = 0, 0, 0, None
        started = time.monotonic()
        for i in range(20_000):
            if time.monotonic() - started > 3:
                break
            sock = socks[i % len(socks)]
            sock.sendall(f"GET {bases[i % len(bases)]}/socket.io/?EIO=4&transport=polling HTTP/1.1\r\nHost: h\r\n\r\n".encode())
            reply = read_reply(sock, time.monotonic() + 5)
            if reply is None:
                other += 1
                break
            status, _, body = reply
            if status == 200:
                opened += 1
            elif status == 403:
                refused += 1
                refusal = refusal or body
            else:
                other += 1
        for sock in socks:
            sock.close()
        growth = rss_mib(self.pid) - before
        expected = b'{"code":4,"message":"Too many Engine.IO sessions: at most 2000 may be open at once"}'
        self.check("3+", f"{opened + refused + other} Engine.IO handshakes in 3 s: 2,000 sessions, then 403",
                   opened == 2000 and refused > 0 and other == 0 and refusal == expected and growth <= 16,
                   f"{opened} opened, {refused} refused, {other} other; RSS {growth:+.1f} MiB; {(refusal or b'')[:90]!r}")

    def finding_6_dot_segments_escape_the_base(self):
        """Dot segments in a proxied or recorded path, to reach outside the upstream's base."""
        rig = self.rig
        for path in ["/../secret", "/x/../../secret", "/./../secret", "/%2e%2E/secret"]:
            before = len(rig.upstream.paths())
            status, _, body, _ = request(rig.port, "GET", path, timeout=5)
            sent = rig.upstream.paths()[before:]
            self.check(6, f"proxied GET {path}", status == 400 and not sent,
                       f"{status} {body[:60]!r}, upstream saw {sent or 'nothing'}")
        out = tempfile.mkdtemp(prefix="mockstack-hostile-record-")
        try:
            process, port = rig.record(out)
            try:
                status, _, _, _ = request(port, "GET", "/../secret", timeout=5)
                kept, _, _, _ = request(port, "GET", "/kept", timeout=5)
            finally:
                process.terminate()
                process.wait(timeout=10)
            with open(os.path.join(out, "rec", "app.json")) as manifest:
                routes = [route.get("path", "") for route in json.load(manifest).get("routes", [])]
            escaped = [path for path in routes if "/." in path]
            self.check(6, "record of GET /../secret", status == 400 and kept == 200 and not escaped and "/kept" in routes,
                       f"{status}; routes {routes}")
        finally:
            shutil.rmtree(out, ignore_errors=True)

    def finding_7_interim_status_as_final_answer(self):
        """An upstream answering 101, to break the framing of the client's connection."""
        raw = (b"GET /upgrade HTTP/1.1\r\nHost: h\r\n\r\n"
               b"GET /example/hello HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n")
        data = b""
        with socket.create_connection(("127.0.0.1", self.rig.port), timeout=5) as sock:
            sock.sendall(raw)
            try:
                while chunk := sock.recv(65536):  # the second request asks for the close
                    data += chunk
            except OSError:
                pass
        replies = []
        while b"\r\n\r\n" in data:
            head, _, data = data.partition(b"\r\n\r\n")
            lines = head.decode("latin-1").split("\r\n")
            fields = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
            length = int(fields.get("content-length", "0"))
            replies.append((int(lines[0].split(" ")[1]), fields, data[:length]))
            data = data[length:]
        first, second = (replies + [None, None])[:2]
        self.check(7, "an upstream's 101, then a pipelined request",
                   first is not None and first[0] == 502 and second is not None and second[0] == 200,
                   f"{first and first[0]} {first and first[2][:70]!r}, then {second and second[0]}")

    def finding_8_connection_named_fields(self):
        """Fields named in Connection, to pass hop-by-hop headers through the proxy either way."""
        raw = (b"GET /internal HTTP/1.1\r\nHost: h\r\nConnection: close, X-Secret\r\nX-Secret: client-secret\r\n\r\n")
        before = len(self.rig.upstream.seen)
        status, headers, _, _ = request(self.rig.port, None, None, raw=raw, timeout=5)
        with self.rig.upstream.lock:
            sent = [fields for _, fields in self.rig.upstream.seen[before:]]
        leaked_up = [fields.get("x-secret") for fields in sent if "x-secret" in fields]
        self.check(8, "Connection: X-Secret both ways (X-Internal back)",
                   status == 200 and len(sent) == 1 and not leaked_up and "x-internal" not in headers,
                   f"{status}; upstream got X-Secret {leaked_up}; client got X-Internal {headers.get('x-internal')!r}")
        self.check(8, "an escape in an upstream's field value", headers.get("x-escape") == "x [31my",
                   f"client got X-Escape {headers.get('x-escape')!r}")

    def finding_9_invented_content_type(self):
        """An upstream answer without Content-Type: the proxy must not invent one."""
        status, headers, body, _ = request(self.rig.port, "GET", "/untyped", timeout=5)
        self.check(9, "an upstream answer without Content-Type", status == 200 and "content-type" not in headers and body == b"plain bytes",
                   f"{status}, Content-Type {headers.get('content-type')!r}, {body!r}")

    def finding_proxy_answer_buffer_bound(self):
        """Many endless upstream answers at once, to grow the proxy's buffers without bound."""
        pid = self.rig.process.pid
        rss_before, peak, results = rss_mib(pid), 0.0, []

        def one():
            results.append(request(self.rig.port, "GET", "/endless", timeout=FakeUpstream.ENDLESS_S + 5))

        started = time.monotonic()
        threads = [threading.Thread(target=one) for _ in range(PROXY_ENDLESS_ANSWERS)]
        for thread in threads:
            thread.start()
        while any(thread.is_alive() for thread in threads):
            peak = max(peak, rss_mib(pid))
            time.sleep(0.02)
        took = time.monotonic() - started
        statuses = sorted(str(result[0]) for result in results)
        growth = peak - rss_before
        self.check("proxy buffer", f"{PROXY_ENDLESS_ANSWERS} endless upstream answers at once",
                   statuses == ["502"] * PROXY_ENDLESS_ANSWERS and growth <= PROXY_RSS_LIMIT_MIB and took < FakeUpstream.ENDLESS_S + 2,
                   f"{', '.join(statuses)} in {took:.1f} s; proxy RSS peak {peak:.0f} MiB ({growth:+.0f} MiB)")

    def finding_stub_header_bytes(self):
        """Stub header values with control characters or non-ASCII bytes, to inject header lines."""
        for value, expected in [("a\u0001b", 400), ("line\r\nX-Injected: 1", 400), ("nul\u0000", 400), ("caf\u00e9", 400),
                                ("del\u007f", 400), ("tab\tok", 201)]:
            status, _, body, _ = control(self.port, "POST", "stubs", {"match": {"path": "/example/bytes"},
                                                                      "answer": {"headers": {"X-Bytes": value}}})
            named = expected == 201 or b"X-Bytes" in body
            self.check("stub headers", f"stub header value {value!r}", status == expected and named, f"{status} {body[:90]!r}")
        control(self.port, "DELETE", "stubs")

    def open_stream(self, channel):
        """Asks for a Server Events stream of the test app; returns (status, socket) when it is
        answered 200 (the socket open, its body unread), else (status, body)."""
        sock = socket.create_connection(("127.0.0.1", self.port), timeout=10)
        sock.sendall(f"GET /test/event-stream?channels={channel} HTTP/1.1\r\nHost: hostile\r\n\r\n".encode())
        # A stream's head has no Content-Length: read_reply stops at the head.
        reply = read_reply(sock, time.monotonic() + 10)
        if reply is not None and reply[0] == 200:
            return 200, sock
        sock.close()
        return (reply[0], reply[2]) if reply is not None else (None, b"")

    def server_events_crowds(self):
        """Server Events subscribers that read nothing: 1,000 joining one channel, every join
        told to all of them (half a million frames), then 10,000 more asked for on channels of
        their own, past the 2,000 the app allows."""
        before = rss_mib(self.pid)
        open_streams, peak = [], 0.0
        try:
            started = time.monotonic()
            for _ in range(1000):
                status, sock = self.open_stream("crowd")
                if status != 200:
                    break
                open_streams.append(sock)
                peak = max(peak, rss_mib(self.pid) - before) if len(open_streams) % 100 == 0 else peak
            joined = time.monotonic() - started
            status, _, body, _ = control(self.port, "GET", "server-events?app=test&channel=crowd")
            listed = len(json.loads(body)["subscribers"]) if status == 200 else -1
            peak = max(peak, rss_mib(self.pid) - before)
            self.check("-", "1,000 Server Events subscribers join one channel and read nothing",
                       len(open_streams) == 1000 and listed == 1000 and peak <= ATTACK_RSS_LIMIT_MIB,
                       f"{len(open_streams)} open in {joined:.1f} s, {listed} listed; RSS {peak:+.1f} MiB")
            refused, other, refusal = 0, 0, b""
            for i in range(10_000):
                status, reply = self.open_stream(f"own{i}")
                if status == 200:
                    open_streams.append(reply)
                elif status == 503:
                    refused += 1
                    refusal = refusal or reply
                else:
                    other += 1
            expected = b'"message":"Too many Server Events subscriptions: at most 2000 may be open at once"'
            peak = max(peak, rss_mib(self.pid) - before)
            self.check("-", "10,000 more asked for on channels of their own: up to 2,000 open, then 503",
                       len(open_streams) == 2000 and refused == 9000 and other == 0 and expected in refusal
                       and peak <= ATTACK_RSS_LIMIT_MIB,
                       f"{len(open_streams)} open, {refused} refused, {other} other; RSS {peak:+.1f} MiB; {refusal[:110]!r}")
        finally:
            for sock in open_streams:
                sock.close()
        # Their closes end the subscriptions; the next stream is served again.
        deadline = time.monotonic() + 10
        listed = None
        while time.monotonic() < deadline:
            status, _, body, _ = control(self.port, "GET", "server-events?app=test")
            listed = len(json.loads(body)["subscribers"]) if status == 200 else None
            if listed == 0:
                break
            time.sleep(0.1)
        status, sock = self.open_stream("after")
        if sock is not None and status == 200:
            sock.close()
        self.check("-", "their clients leave: every subscription ends, a new stream opens",
                   listed == 0 and status == 200, f"{listed} still listed; then {status}")

    def watcher_stays_idle(self):
        before = cpu_seconds(self.pid)
        time.sleep(3)
        share = (cpu_seconds(self.pid) - before) / 3
        self.check(11, "--watch idle with a symlink to /usr/share in the fixtures", share <= IDLE_CPU_LIMIT,
                   f"{share * 100:.1f}% of a core")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--mockstack", required=True, help="the mockstack binary (a release build)")
    parser.add_argument("--fixtures", default=os.path.join(HERE, "..", "Fixtures"))
    parser.add_argument("--only", default="", help="comma-separated parts of case names: run only the cases named so (e.g. finding_3,finding_6)")
    args = parser.parse_args()
    os.makedirs(WORK, exist_ok=True)
    # The Server Events case holds 2,000 streams open at once.
    raise_open_file_limit(4096)

    fixtures = tempfile.mkdtemp(prefix="mockstack-hostile-")
    try:
        shutil.copytree(args.fixtures, fixtures, dirs_exist_ok=True)
        os.symlink("/usr/share", os.path.join(fixtures, "example", "share"))
        with open(os.path.join(WORK, "hostile.log"), "wb") as log:
            process, port = start_server(args.mockstack, fixtures, log)
            rig = ProxyRig(args.mockstack, fixtures, log)
            try:
                return run(process, port, rig, [part for part in args.only.split(",") if part])
            finally:
                rig.stop()
                process.terminate()
                try:
                    process.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    print("the server did not stop within 10 s of SIGTERM (its loop is stuck); killed")
                    process.kill()
                    process.wait()
    finally:
        shutil.rmtree(fixtures, ignore_errors=True)


def run(process, port, rig, only=()):
    pid = process.pid
    for _ in range(20):
        request(port, "GET", "/example/hello")
    # A first Engine.IO session starts the real-time timers' dispatch queue, which opens three
    # descriptors of its own (an epoll, an eventfd, a timerfd) and keeps them: not a leak.
    sid = json.loads(request(port, "GET", "/feathers/socket.io/?EIO=4&transport=polling")[2].decode()[1:])["sid"]
    request(port, "POST", f"/feathers/socket.io/?EIO=4&transport=polling&sid={sid}", b"1", [("Content-Type", "text/plain;charset=UTF-8")])
    rss_before, fds_before = rss_mib(pid), open_fds(pid)
    probe = Probe(port)
    probe.start()
    cases = Cases(port, pid, rig)
    stalls = []
    for case in [cases.coercion_limits, cases.multipart_backslashes, cases.regex_stubs, cases.delays_left_by_their_clients,
                 cases.journal_bounds, cases.slow_reader_of_a_large_answer, cases.template_amplification,
                 cases.reset_keeps_sessions_stubs, cases.framing_headers_in_stubs, cases.chunked_bodies,
                 cases.finding_1_pipelining_behind_unsent_output, cases.finding_2_websocket_closing_with_unsent_output,
                 cases.finding_3_polling_outbox, cases.finding_4_costly_patterns, cases.finding_5_socket_activity_weight,
                 cases.finding_6_dot_segments_escape_the_base, cases.finding_7_interim_status_as_final_answer,
                 cases.finding_8_connection_named_fields, cases.finding_9_invented_content_type,
                 cases.finding_10_empty_lines_keep_alive, cases.finding_11_waits_end_with_their_scope,
                 cases.finding_12_throttled_answer_never_read, cases.finding_proxy_answer_buffer_bound,
                 cases.finding_stub_header_bytes, cases.server_events_crowds,
                 # Last: the app's Engine.IO sessions stay at the cap for 45 s after it.
                 cases.engine_io_session_cap]:
        if only and not any(part in case.__name__ for part in only):
            continue
        probe.window()
        with Attack(pid) as attack:
            try:
                case()
            except (OSError, ValueError, KeyError) as error:
                cases.check("?", case.__name__, False, f"{type(error).__name__}: {error}")
        # Each `finding_` case is one attacking client (the proxy's many-upstream case grows the
        # proxy's own process, checked there): the server's RSS must stay within the bound while
        # it attacks and come back after.
        if case.__name__.startswith("finding_"):
            cases.check("-", f"RSS while {case.__name__} attacks", attack.ok(), str(attack))
        time.sleep(0.05)
        stalls.append((case.__name__, probe.window()))
        if process.poll() is not None:
            cases.check("?", "the server is alive after " + case.__name__, False, f"exit status {process.returncode}")
            break
    probe.stop.set()
    probe.join()
    if process.poll() is None:
        cases.watcher_stays_idle()
        try:
            status = request(port, "GET", "/__mockstack/health", timeout=5)[0]
        except OSError as error:
            status = f"{type(error).__name__}: {error}"
        cases.check("-", "healthy at the end", status == 200, str(status))
        # Connections just answered (the health check's own included) close within moments.
        deadline = time.monotonic() + 5
        while open_fds(pid) > fds_before and time.monotonic() < deadline:
            time.sleep(0.1)
        growth = rss_mib(pid) - rss_before
        cases.check("-", "RSS growth", growth <= RSS_LIMIT_MIB, f"{growth:+.1f} MiB (from {rss_before:.1f})")
        held = open_fds(pid)
        extra = ""
        if held > fds_before:
            sockets = subprocess.run(["ss", "-anp"], capture_output=True, text=True).stdout.splitlines()
            extra = ": " + "; ".join(" ".join(line.split()[:5]) for line in sockets if f"pid={pid}," in line and "LISTEN" not in line)
        cases.check("-", "descriptors held at the end", held <= fds_before, f"{held} (from {fds_before}){extra}")
    slowest = max(stalls, key=lambda stall: stall[1]) if stalls else ("-", 0)
    cases.check("-", "the loop's longest stall (health every 10 ms)", probe.worst * 1000 <= STALL_LIMIT_MS and probe.failures == 0,
                f"{probe.worst * 1000:.0f} ms (in {slowest[0]}), {probe.failures} failed probes")

    lines = ["| finding | case | result | measured |", "|---|---|---|---|"]
    lines += [f"| {finding} | {what} | {'ok' if ok else 'FAILED'} | {detail} |" for finding, what, ok, detail in cases.results]
    failed = sum(1 for result in cases.results if not result[2])
    lines += ["", "The loop's longest stall during each case: " + ", ".join(f"{name} {ms:.0f} ms" for name, ms in stalls) + "."]
    report = "\n".join(lines) + f"\n\n{len(cases.results) - failed} passed, {failed} failed\n"
    print(report)
    with open(os.path.join(WORK, "hostile.md"), "w") as out:
        out.write(f"# make hostile, {time.strftime('%Y-%m-%d %H:%M')}\n\n" + report)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
