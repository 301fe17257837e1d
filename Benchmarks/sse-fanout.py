#!/usr/bin/env python3
"""ServiceStack Server Events fan-out: one message to a channel of many subscribers.

Starts `mockstack serve --apps test` and opens --clients subscriptions to
`/test/event-stream?channels=bench` (HTTP/1.1, the chunked SSE body read from raw sockets), waits
until the server lists them all (`POST /__mockstack/server-events/wait`), then, --rounds times,
sends one message to the channel through the control plane (`POST /__mockstack/server-events`,
selector `cmd.tick`, the round's number as the message) and times it until the last subscriber
has its frame (`data: bench@cmd.tick N`).

As in realtime-fanout.py, what is timed is the server: a subscriber's frame counts from when its
bytes reached the client's socket (the kernel's receive timestamp, SO_TIMESTAMPNS), and the
sockets, watched edge-triggered, are read only once every subscriber still waiting has had bytes,
so this Python loop takes no CPU from the server during a fan-out.

Each join is told to everyone already in the channel (`bench@cmd.onJoin`), so connecting N
subscribers sends some N²/2 frames: the sockets are drained as they connect, and the resident set
"with the subscribers connected" is read once that has settled. Subscribers heartbeat
(`/test/event-heartbeat?id=`, on one keep-alive connection) every heartbeatIntervalMs, as clients
do, so none expires while the bench runs; then the heartbeats stop for an --idle window, over which
the server's CPU time (utime + stime from /proc/PID/stat, in clock ticks; and, to the nanosecond,
its threads' /proc/PID/task/TID/schedstat) should stay at ~0: an idle subscription costs nothing.
Last, every subscriber heartbeats once every heartbeatIntervalMs, each at its own offset, for
--heartbeat-periods periods: the server's CPU a heartbeat; and, as its yardstick, the CPU a request
of as many Hello requests at the same pace (each request at that pace wakes the server alone, which
costs far more than a request among many).

Targets: p99 from the send to the last subscriber <= 50 ms; RSS with 1,000 subscribers
<= 64 MiB; an idle window of ~0 ticks.

    python3 Benchmarks/sse-fanout.py [--mockstack BIN] [--clients 1000] [--rounds 50] [--idle 10] \
        [--heartbeat-periods 2] [--threads 1]

Results: stdout and Benchmarks/.work/sse-fanout.md; exit 1 when a target is missed.
"""
import argparse
import json
import os
import select
import socket
import statistics
import sys
import time

from fanout_support import ROOT, SO_TIMESTAMPNS, cpu_ticks, p99, receive_time, release_binary, rss_kib, start_server

CHANNEL = "bench"
# Idle ticks the verdict still calls "no CPU": one tick may land in the window from work just before it.
IDLE_TICKS_ALLOWED = 1


def thread_nanoseconds(pid):
    """Each thread's CPU time so far, as the scheduler counts it (not sampled by ticks)."""
    times = {}
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            times[task] = int(open(f"/proc/{pid}/task/{task}/schedstat").read().split()[0])
        except FileNotFoundError:
            pass
    return times


def nanoseconds_since(pid, before):
    """The CPU time the process's threads took since `before` (a thread that ended meanwhile is left out)."""
    return sum(spent - before.get(task, 0) for task, spent in thread_nanoseconds(pid).items())


def read_response(sock, buffer):
    """One HTTP/1.1 answer with a Content-Length from a keep-alive connection: (status, body, rest)."""
    while b"\r\n\r\n" not in buffer:
        chunk = sock.recv(65536)
        if not chunk:
            raise ConnectionError("the server closed the connection")
        buffer += chunk
    head, _, rest = bytes(buffer).partition(b"\r\n\r\n")
    length = 0
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value)
    while len(rest) < length:
        chunk = sock.recv(65536)
        if not chunk:
            raise ConnectionError("the server closed the connection")
        rest += chunk
    return int(head.split()[1]), rest[:length], bytearray(rest[length:])


def control(port, method, path, body):
    """One request on a connection of its own: (status, JSON answer)."""
    data = json.dumps(body).encode()
    with socket.create_connection(("127.0.0.1", port)) as connection:
        connection.sendall(f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                           f"Content-Length: {len(data)}\r\n\r\n".encode() + data)
        status, payload, _ = read_response(connection, bytearray())
    return status, json.loads(payload) if payload else None


class Subscriber:
    """One `/event-stream` subscription on a raw socket. Its chunked body is not decoded: a chunk is
    one serve of the stream's output, which holds whole frames, so a frame's bytes are never split by
    a chunk's size line and are found as they are. Only a short tail is kept between reads."""

    def __init__(self, port):
        self.sock = socket.create_connection(("127.0.0.1", port))
        self.sock.sendall(f"GET /test/event-stream?channels={CHANNEL} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                          "Accept: text/event-stream\r\n\r\n".encode())
        buffer = b""
        marker = b"data: cmd.onConnect "
        while marker not in buffer or b"\n" not in buffer.split(marker, 1)[1]:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("the server ended the stream before cmd.onConnect")
            buffer += chunk
        if not buffer.startswith(b"HTTP/1.1 200"):
            raise RuntimeError(buffer.split(b"\r\n", 1)[0].decode(errors="replace"))
        connect = json.loads(buffer.split(marker, 1)[1].split(b"\n", 1)[0])
        self.id = connect["id"]
        self.heartbeat_interval = int(connect["heartbeatIntervalMs"]) / 1000
        self.idle_timeout = int(connect["idleTimeoutMs"]) / 1000
        self.tail = buffer[-64:]
        # The frame a round waits for, None between rounds.
        self.wanted = None
        self.sock.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
        self.sock.setblocking(False)

    def drain(self):
        """Reads what has arrived: whether `self.wanted` was in it, and the kernel's receive time
        (CLOCK_REALTIME ns) of the last bytes read."""
        found, arrived = False, None
        while True:
            try:
                chunk, ancillary, _, _ = self.sock.recvmsg(262144, 64)
            except BlockingIOError:
                return found, arrived
            if not chunk:
                raise ConnectionError(f"subscription {self.id}: the stream ended")
            arrived = receive_time(ancillary)
            seen = self.tail + chunk
            if self.wanted and self.wanted in seen:
                found = True
            self.tail = seen[-64:]


class Heartbeats:
    """The subscribers' heartbeats, on one keep-alive connection (opened again if the server closes it)."""

    def __init__(self, port):
        self.port = port
        self.sock = None
        self.buffer = bytearray()
        # Each subscription's latest heartbeat (or its start), monotonic seconds.
        self.last = {}
        self.sent = 0

    def add(self, subscription):
        self.last[subscription] = time.monotonic()

    def request(self, method, path):
        """The status of one request without a body on the connection."""
        for attempt in (0, 1):
            try:
                if self.sock is None:
                    self.sock = socket.create_connection(("127.0.0.1", self.port))
                    self.buffer = bytearray()
                self.sock.sendall(f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\n\r\n".encode())
                status, _, self.buffer = read_response(self.sock, self.buffer)
                return status
            except (ConnectionError, OSError):
                if self.sock is not None:
                    self.sock.close()
                self.sock = None
                if attempt:
                    raise

    def beat(self, subscription):
        status = self.request("POST", f"/test/event-heartbeat?id={subscription}")
        if status != 200:
            raise RuntimeError(f"heartbeat of {subscription}: {status}")
        self.last[subscription] = time.monotonic()
        self.sent += 1

    def due(self, interval):
        """Heartbeats every subscription whose last one is `interval` seconds old, as clients do."""
        now = time.monotonic()
        for subscription, last in self.last.items():
            if now - last >= interval:
                self.beat(subscription)


def settle(poller, by_fd, quiet=0.3):
    """Drains every socket until none has had bytes for `quiet` seconds."""
    while True:
        events = poller.poll(quiet)
        if not events:
            return
        for fd, _ in events:
            by_fd[fd].drain()


def run(port, pid, clients, rounds, idle_seconds, periods):
    idle_rss = rss_kib(pid)
    poller = select.epoll()
    by_fd = {}
    subscribers = []
    heartbeats = Heartbeats(port)
    started = time.monotonic()
    for _ in range(clients):
        subscriber = Subscriber(port)
        heartbeats.add(subscriber.id)
        subscribers.append(subscriber)
        fd = subscriber.sock.fileno()
        by_fd[fd] = subscriber
        # Edge-triggered: a socket is reported once for each arrival, whether or not it was read.
        poller.register(fd, select.EPOLLIN | select.EPOLLET)
        for ready, _ in poller.poll(0):
            by_fd[ready].drain()
        # Connecting them all takes long enough for the first ones to expire without.
        heartbeats.due(subscriber.heartbeat_interval)
    interval = subscribers[0].heartbeat_interval
    status, listed = control(port, "POST", "/__mockstack/server-events/wait",
                             {"app": "test", "channel": CHANNEL, "count": clients, "timeoutMs": 60000})
    assert status == 200 and len(listed["subscribers"]) == clients, (status, listed and len(listed["subscribers"]))
    settle(poller, by_fd)
    connect_seconds = time.monotonic() - started
    connected_rss = rss_kib(pid)

    # Milliseconds from sending each round's message to the last subscriber's frame and to the median one's.
    lasts, medians = [], []
    cpu_before = cpu_ticks(pid)
    for index in range(rounds):
        heartbeats.due(interval)
        settle(poller, by_fd, quiet=0.05)
        wanted = b"data: %s@cmd.tick %d\n" % (CHANNEL.encode(), index)
        for subscriber in subscribers:
            subscriber.wanted = wanted
        arrivals = []
        waiting, signalled = set(by_fd), set()
        sent = time.time_ns()
        status, answer = control(port, "POST", "/__mockstack/server-events",
                                 {"app": "test", "channel": CHANNEL, "selector": "cmd.tick", "message": index})
        assert status == 200 and answer == {"sent": clients}, (status, answer)
        deadline = time.perf_counter() + 5
        while waiting:
            if time.perf_counter() > deadline:
                raise RuntimeError(
                    f"round {index}: {clients - len(waiting)} of {clients} subscribers had the frame in 5 s")
            events = poller.poll(0.1)
            signalled.update(fd for fd, _ in events)
            # Read once every subscriber still waiting has had bytes: no CPU taken from the fan-out.
            if events and not waiting <= signalled:
                continue
            for fd in signalled:
                found, arrived = by_fd[fd].drain()
                if found and fd in waiting:
                    waiting.discard(fd)
                    arrivals.append(arrived)
            signalled.clear()
        lasts.append((max(arrivals) - sent) / 1e6)
        medians.append((statistics.median(arrivals) - sent) / 1e6)
    fanout_ticks = cpu_ticks(pid) - cpu_before
    for subscriber in subscribers:
        subscriber.wanted = None

    # Each subscription's expiry check falls due an idle timeout after it subscribed: the idle
    # window must come after the first of them, or it measures nothing but sleep.
    while time.monotonic() < started + subscribers[0].idle_timeout:
        heartbeats.due(interval)
        for fd, _ in poller.poll(0.2):
            by_fd[fd].drain()
    # Every subscription pulsed now, so none expires during the idle window and the periods after it.
    for subscriber in subscribers:
        heartbeats.beat(subscriber.id)
    settle(poller, by_fd, quiet=1.0)
    idle_before, idle_threads = cpu_ticks(pid), thread_nanoseconds(pid)
    time.sleep(idle_seconds)
    idle_ticks = cpu_ticks(pid) - idle_before
    idle_ns = nanoseconds_since(pid, idle_threads)
    events_in_idle = len(poller.poll(0))

    # Each subscriber heartbeats once a period, at its own offset in it, as clients connected at
    # different times do; their cmd.onHeartbeat frames are read as they come.
    def paced(send, count):
        """Calls `send(i)` `count` times, evenly over `count / clients` intervals, reading the
        subscribers' sockets in between: (ticks, nanoseconds of server CPU, seconds taken)."""
        ticks, threads, start = cpu_ticks(pid), thread_nanoseconds(pid), time.monotonic()
        for index in range(count):
            at = start + index / clients * interval
            while (wait := at - time.monotonic()) > 0:
                for fd, _ in poller.poll(wait):
                    by_fd[fd].drain()
            send(index)
        settle(poller, by_fd, quiet=0.2)
        return cpu_ticks(pid) - ticks, nanoseconds_since(pid, threads), time.monotonic() - start

    beats_before = heartbeats.sent
    heartbeat_ticks, heartbeat_ns, window = paced(lambda index: heartbeats.beat(subscribers[index % clients].id),
                                                  periods * clients)
    heartbeat_count = heartbeats.sent - beats_before

    # The yardstick: what any request costs at that pace on this machine (each wakes the server alone).
    def hello(_):
        if heartbeats.request("GET", "/test/api/Hello?name=World") != 200:
            raise RuntimeError("Hello did not answer 200")
    hello_ticks, hello_ns, _ = paced(hello, clients)

    poller.close()
    for subscriber in subscribers:
        subscriber.sock.close()
    return {"idle_rss": idle_rss, "connected_rss": connected_rss,
            "connect_seconds": connect_seconds, "lasts": lasts, "medians": medians,
            "fanout_cpu": fanout_ticks / os.sysconf("SC_CLK_TCK") / rounds * 1000,
            "idle_ticks": idle_ticks, "idle_ns": idle_ns, "events_in_idle": events_in_idle, "interval": interval,
            "heartbeat_ticks": heartbeat_ticks, "heartbeat_ns": heartbeat_ns, "heartbeats": heartbeat_count,
            "window": window, "hello_ticks": hello_ticks, "hello_ns": hello_ns, "hellos": clients}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mockstack", default=os.environ.get("MOCKSTACK_BIN"))
    parser.add_argument("--clients", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=50)
    parser.add_argument("--idle", type=float, default=10,
                        help="seconds without heartbeats or messages over which the server's CPU is read (below "
                             "the 30 s idle timeout less a heartbeat interval)")
    parser.add_argument("--heartbeat-periods", type=int, default=2,
                        help="heartbeat intervals over which every subscriber heartbeats once each")
    parser.add_argument("--threads", type=int, default=1, help="the server's event loops (serve --threads)")
    args = parser.parse_args()
    binary = args.mockstack or release_binary()
    server, port = start_server(binary, "test", args.threads, args.clients)
    try:
        result = run(port, server.pid, args.clients, args.rounds, args.idle, args.heartbeat_periods)
    finally:
        server.terminate()
        server.wait()
    ticks_per_second = os.sysconf("SC_CLK_TCK")
    last_p99 = p99(result["lasts"])
    per_subscriber = (result["connected_rss"] - result["idle_rss"]) / args.clients
    per_heartbeat = result["heartbeat_ns"] / max(1, result["heartbeats"]) / 1000
    per_hello = result["hello_ns"] / result["hellos"] / 1000
    lines = [
        f"## Server Events fan-out ({args.clients} subscribers of one channel, {args.rounds} rounds, "
        f"{args.threads} loop(s))",
        "",
        "| measure | value | target |",
        "|---|---:|---:|",
        f"| RSS idle | {result['idle_rss'] / 1024:.1f} MiB | |",
        f"| RSS with {args.clients} subscribers connected | {result['connected_rss'] / 1024:.1f} MiB | <= 64 MiB |",
        f"| per subscriber | {per_subscriber:.1f} KiB | |",
        f"| connecting them all (each join told to the channel) | {result['connect_seconds']:.1f} s | |",
        f"| message sent to the last subscriber's frame, median | {statistics.median(result['lasts']):.2f} ms | |",
        f"| message sent to the last subscriber's frame, p99 | {last_p99:.2f} ms | <= 50 ms |",
        f"| message sent to the median subscriber's frame, median | {statistics.median(result['medians']):.2f} ms | |",
        f"| frames delivered a second during a fan-out (subscribers / median time to the last) | "
        f"{args.clients / statistics.median(result['lasts']) * 1000:,.0f} | |",
        f"| server CPU a fan-out (user + system, with the control plane's request) | {result['fanout_cpu']:.1f} ms | |",
        f"| server CPU over {args.idle:g} s idle (no heartbeats, no messages) | {result['idle_ticks']} ticks "
        f"(1 tick = {1000 / ticks_per_second:g} ms), {result['idle_ns'] / 1e6:.1f} ms; "
        f"{result['events_in_idle']} subscribers had bytes | ~0 ticks |",
        f"| server CPU with a heartbeat every {result['interval']:g} s from each | "
        f"{result['heartbeat_ticks']} ticks, {result['heartbeat_ns'] / 1e6:.0f} ms over {result['window']:.1f} s, "
        f"{result['heartbeats']} heartbeats: {per_heartbeat:.0f} µs a heartbeat | |",
        f"| the same pace of Hello requests (the yardstick) | {result['hello_ticks']} ticks, "
        f"{result['hello_ns'] / 1e6:.0f} ms, {result['hellos']} requests: {per_hello:.0f} µs a request | |",
        f"| load average at the end | {os.getloadavg()[0]:.1f} | |",
    ]
    missed = []
    if result["connected_rss"] > 64 * 1024:
        missed.append("RSS")
    if last_p99 > 50:
        missed.append("p99")
    if result["idle_ticks"] > IDLE_TICKS_ALLOWED:
        missed.append("idle CPU")
    verdict = ("meets target" if not missed else "MISSES target (" + ", ".join(missed) + ")")
    lines += ["", f"Server Events fan-out to {args.clients} subscribers (p99 <= 50 ms, RSS <= 64 MiB, idle ~0 ticks): "
              f"{verdict}"]
    report = "\n".join(lines) + "\n"
    print(report)
    work = ROOT / "Benchmarks" / ".work"
    work.mkdir(parents=True, exist_ok=True)
    (work / "sse-fanout.md").write_text(report)
    sys.exit(1 if missed else 0)


if __name__ == "__main__":
    main()
