"""What the fan-out benchmarks share (realtime-fanout.py, sse-fanout.py): the server under test
started and read from /proc, the open-file limit raised for their clients, the kernel's receive
timestamps, and the p99 of their rounds."""
import json
import os
import pathlib
import resource
import socket
import struct
import subprocess

ROOT = pathlib.Path(__file__).resolve().parent.parent
# <asm-generic/socket.h>: the receive timestamp as a timespec, CLOCK_REALTIME (not in Python's socket module).
SO_TIMESTAMPNS = 35


def release_binary():
    out = subprocess.run(["swift", "build", "-c", "release", "--show-bin-path"], cwd=ROOT, capture_output=True,
                         text=True, check=True)
    return str(pathlib.Path(out.stdout.strip()) / "mockstack")


def start_server(binary, apps, threads, clients):
    """`serve --port 0 --apps APPS` with `threads` loops, this process allowed `clients` sockets
    and some: (the process, its port)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, clients + 256)), hard))
    server = subprocess.Popen([binary, "serve", "--port", "0", "--apps", apps, "--threads", str(threads),
                               "--log-level", "warning"], stdout=subprocess.PIPE, text=True)
    try:
        return server, json.loads(server.stdout.readline())["port"]
    except BaseException:
        server.terminate()
        server.wait()
        raise


def cpu_ticks(pid):
    """The process's user and system CPU time so far, in clock ticks (os.sysconf("SC_CLK_TCK") a second)."""
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])


def rss_kib(pid):
    """The process's resident set, in KiB."""
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def receive_time(ancillary):
    """The kernel's receive time (CLOCK_REALTIME ns) in what `recvmsg` returned with the bytes of
    a socket with SO_TIMESTAMPNS on: that of the last segment read."""
    stamp = next((struct.unpack("qq", data[:16]) for level, kind, data in ancillary
                  if level == socket.SOL_SOCKET and kind == SO_TIMESTAMPNS), None)
    if stamp is None:
        raise RuntimeError("no kernel receive timestamp (SO_TIMESTAMPNS) with the bytes")
    return stamp[0] * 1_000_000_000 + stamp[1]


def p99(values):
    """The 99th percentile, nearest rank (of 50 rounds: the slowest)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
