#!/usr/bin/env python3
"""Feathers real-time fan-out: service events to many connected WebSocket clients.

Starts `mockstack serve --apps feathers`, signs in once over REST, then opens --clients Socket.IO
connections (Engine.IO 4 on a WebSocket from the start, `/feathers/socket.io/`), each signed in by
its handshake's Authorization header so that the `authenticated` channel, which a generated app
publishes every event to, holds them all. Then, --rounds times, one REST `POST /feathers/people`
and the time until every client has its `people created` event.

What is timed is the server. A client's event counts from when its bytes reached the client's
socket: the kernel's receive timestamp (SO_TIMESTAMPNS), read with the bytes. And the clients
take no CPU during a fan-out: each socket is watched edge-triggered, and they are read only
once every client still waiting has had bytes. The clients all run in this one Python process,
and reading 1,000 sockets costs it some 40-55 ms of CPU a round on a 2-core machine, two to
three times the server's fan-out; timed when Python got round to reading them, and read while
the server was still writing, the events measured that loop more than the server.
--read-during reads each socket as its bytes arrive (that older loop, for comparison); the last
client as Python read it is reported too, and the loop's own CPU a round.

Reports the server's resident set before and with the clients connected (what a connection costs),
and per round the time from sending the POST to the last client's event and to the median
client's: median and p99 over the rounds (p99 of 50 rounds is the slowest), and the delivery
rate during a fan-out (clients over the median time to the last). Targets: 1,000 clients in
<= 64 MiB, p99 <= 50 ms.

    python3 Benchmarks/realtime-fanout.py [--mockstack BIN] [--clients 1000] [--rounds 50] [--threads 1] [--read-during]

Results: stdout and Benchmarks/.work/realtime-fanout.md.
"""
import argparse
import base64
import json
import os
import select
import socket
import statistics
import sys
import time

from fanout_support import ROOT, SO_TIMESTAMPNS, cpu_ticks, p99, receive_time, release_binary, rss_kib, start_server


def cpu_seconds(pid):
    """The process's user and system CPU time so far."""
    return cpu_ticks(pid) / os.sysconf("SC_CLK_TCK")


class SocketClient:
    """One Socket.IO client on a raw WebSocket: the handshake, then server frames read by hand
    (unmasked, unfragmented), pings answered."""

    def __init__(self, port, token):
        self.sock = socket.create_connection(("127.0.0.1", port))
        self.buffer = bytearray()
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall((
            "GET /feathers/socket.io/?EIO=4&transport=websocket HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
            f"Sec-WebSocket-Key: {key}\r\nAuthorization: Bearer {token}\r\n\r\n").encode())
        while b"\r\n\r\n" not in self.buffer:
            self.buffer += self.sock.recv(65536)
        head, _, rest = bytes(self.buffer).partition(b"\r\n\r\n")
        if not head.startswith(b"HTTP/1.1 101"):
            raise RuntimeError(head.decode(errors="replace"))
        self.buffer = bytearray(rest)
        assert self.next_message().startswith(b"0{")
        self.send("40")
        assert self.next_message().startswith(b"40{")
        self.sock.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
        self.sock.setblocking(False)

    def send(self, text):
        payload = text.encode()
        mask = os.urandom(4)
        self.sock.sendall(bytes([0x81, 0x80 | len(payload)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))

    def next_message(self):
        """Blocking: the next text message (during the handshake)."""
        while True:
            for message in self.messages():
                return message
            self.buffer += self.sock.recv(65536)

    def messages(self):
        """The whole text messages in the buffer, taken off it."""
        found = []
        buffer = self.buffer
        while len(buffer) >= 2:
            opcode, length, offset = buffer[0] & 0x0F, buffer[1] & 0x7F, 2
            if length == 126:
                if len(buffer) < 4:
                    break
                length, offset = int.from_bytes(buffer[2:4], "big"), 4
            elif length == 127:
                if len(buffer) < 10:
                    break
                length, offset = int.from_bytes(buffer[2:10], "big"), 10
            if len(buffer) < offset + length:
                break
            if opcode == 0x8:
                raise ConnectionError("closed by the server")
            if opcode == 0x1:
                found.append(bytes(buffer[offset:offset + length]))
            del buffer[:offset + length]
        return found

    def readable(self):
        """What arrived: the text messages, when the kernel received the bytes that completed
        them and when this loop read them (CLOCK_REALTIME ns); pings answered."""
        chunk, ancillary, _, _ = self.sock.recvmsg(262144, 64)
        read = time.time_ns()
        if not chunk:
            raise ConnectionError("connection ended")
        # The stamp of the last segment read: for an event that came with later bytes, a later time.
        arrived = receive_time(ancillary)
        self.buffer += chunk
        messages = self.messages()
        if b"2" in messages:
            self.send("3")
        return messages, arrived, read


def rest(port, method, path, body):
    data = json.dumps(body).encode()
    with socket.create_connection(("127.0.0.1", port)) as connection:
        connection.sendall(f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                           f"Content-Length: {len(data)}\r\nConnection: close\r\n\r\n".encode() + data)
        reply = b""
        while chunk := connection.recv(65536):
            reply += chunk
    head, _, payload = reply.partition(b"\r\n\r\n")
    return int(head.split()[1]), payload


def run(port, pid, clients, rounds, read_during):
    status, payload = rest(port, "POST", "/feathers/authentication", {"strategy": "local", "email": "test@example.com", "password": "secret"})
    assert status == 201, payload
    token = json.loads(payload)["accessToken"]
    idle = rss_kib(pid)
    sockets = [SocketClient(port, token) for _ in range(clients)]
    connected = rss_kib(pid)
    # Edge-triggered: a socket is reported once for each arrival, whether or not it was read.
    poller = select.epoll()
    by_fd = {client.sock.fileno(): client for client in sockets}
    for fd in by_fd:
        poller.register(fd, select.EPOLLIN | select.EPOLLET)
    # Milliseconds from sending each round's POST to the last client and to the median one:
    # by the kernel's receive timestamps, and by the time this loop read the event.
    lasts, medians, read_lasts, read_medians = [], [], [], []
    cpu_before = cpu_seconds(pid)
    client_cpu_before = time.process_time()
    for index in range(rounds):
        marker = b'"name":"fan-out %d."' % index
        arrivals, reads = [], []
        waiting, signalled = set(by_fd), set()
        sent = time.time_ns()
        status, _ = rest(port, "POST", "/feathers/people", {"name": "fan-out %d." % index})
        assert status == 201
        deadline = time.perf_counter() + 5
        while waiting:
            if time.perf_counter() > deadline:
                raise RuntimeError(f"round {index}: {clients - len(waiting)} of {clients} clients heard the event in 5 s")
            events = poller.poll(0.1)
            signalled.update(fd for fd, _ in events)
            # Unless asked to read as bytes arrive, the sockets are read once every client still
            # waiting has had bytes: this loop takes no CPU from the server during the fan-out.
            if not read_during and events and not waiting <= signalled:
                continue
            for fd in signalled:
                messages, arrived, read = by_fd[fd].readable()
                if any(message.startswith(b'42["people created",') and marker in message for message in messages):
                    waiting.discard(fd)
                    arrivals.append(arrived)
                    reads.append(read)
            signalled.clear()
        lasts.append((max(arrivals) - sent) / 1e6)
        medians.append((statistics.median(arrivals) - sent) / 1e6)
        read_lasts.append((max(reads) - sent) / 1e6)
        read_medians.append((statistics.median(reads) - sent) / 1e6)
    cpu = cpu_seconds(pid) - cpu_before
    client_cpu = time.process_time() - client_cpu_before
    poller.close()
    for client in sockets:
        client.sock.close()
    return {"idle": idle, "connected": connected, "lasts": lasts, "medians": medians, "read_lasts": read_lasts,
            "read_medians": read_medians, "cpu": cpu / rounds * 1000, "client_cpu": client_cpu / rounds * 1000}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mockstack", default=os.environ.get("MOCKSTACK_BIN"))
    parser.add_argument("--clients", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=50)
    parser.add_argument("--threads", type=int, default=1, help="the server's event loops (serve --threads)")
    parser.add_argument("--read-during", action="store_true",
                        help="read each socket as its bytes arrive, during the fan-out (the client loop then competes with the server for CPU)")
    args = parser.parse_args()
    binary = args.mockstack or release_binary()
    server, port = start_server(binary, "feathers", args.threads, args.clients)
    try:
        result = run(port, server.pid, args.clients, args.rounds, args.read_during)
    finally:
        server.terminate()
        server.wait()
    last_p99 = p99(result["lasts"])
    per_client = (result["connected"] - result["idle"]) / args.clients
    lines = [
        f"## Feathers real-time fan-out ({args.clients} WebSocket clients, {args.rounds} rounds, {args.threads} loop(s)"
        + (", read during the fan-out)" if args.read_during else ")"),
        "",
        "| measure | value | target |",
        "|---|---:|---:|",
        f"| RSS idle | {result['idle'] / 1024:.1f} MiB | |",
        f"| RSS with {args.clients} clients connected | {result['connected'] / 1024:.1f} MiB | <= 64 MiB |",
        f"| per connected client | {per_client:.1f} KiB | |",
        f"| REST create to the last client, median | {statistics.median(result['lasts']):.2f} ms | |",
        f"| REST create to the last client, p99 | {last_p99:.2f} ms | <= 50 ms |",
        f"| REST create to the median client, median | {statistics.median(result['medians']):.2f} ms | |",
        f"| events delivered a second during a fan-out (clients / median time to the last) | {args.clients / statistics.median(result['lasts']) * 1000:,.0f} | |",
        f"| server CPU a fan-out (user + system) | {result['cpu']:.1f} ms | |",
        f"| the client loop: read to the last client, median / p99 | {statistics.median(result['read_lasts']):.2f} / {p99(result['read_lasts']):.2f} ms | |",
        f"| the client loop's CPU a round | {result['client_cpu']:.1f} ms | |",
        f"| load average at the end | {os.getloadavg()[0]:.1f} | |",
    ]
    report = "\n".join(lines) + "\n"
    print(report)
    work = ROOT / "Benchmarks" / ".work"
    work.mkdir(parents=True, exist_ok=True)
    (work / "realtime-fanout.md").write_text(report)
    failed = result["connected"] > 64 * 1024 or last_p99 > 50
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
