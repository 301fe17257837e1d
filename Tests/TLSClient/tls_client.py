"""A TLS client for mockstack's HTTPS tests (Tests/MockStackTests/HTTPSTests.swift).

Python's own ssl module, with the strict checks Python 3.13 turns on by default, trusting only
the CA file given. Each scenario prints one JSON object.

    python3 tls_client.py SCENARIO PORT CAFILE
"""
import json
import socket
import ssl
import sys


def context(cafile):
    made = ssl.create_default_context(cafile=cafile)
    made.verify_flags |= ssl.VERIFY_X509_STRICT
    return made


def connect(host, port, cafile):
    raw = socket.create_connection(("127.0.0.1" if host == "localhost" else host, port), timeout=10)
    return context(cafile).wrap_socket(raw, server_hostname=host)


def read_answer(sock, buffered=b""):
    """One HTTP/1.1 answer with a Content-Length: (status, headers, body, rest)."""
    data = buffered
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            raise EOFError("closed before the head: %r" % data)
        data += chunk
    head, _, rest = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split(" ")[1])
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    length = int(headers.get("content-length", "0"))
    while len(rest) < length:
        chunk = sock.recv(65536)
        if not chunk:
            raise EOFError("closed in the body")
        rest += chunk
    return status, headers, rest[:length], rest[length:]


def request(method, path, body=b"", extra=""):
    head = "%s %s HTTP/1.1\r\nHost: localhost\r\n%s" % (method, path, extra)
    if body or method == "POST":
        head += "Content-Type: application/json\r\nContent-Length: %d\r\n" % len(body)
    return head.encode() + b"\r\n" + body


def requests(port, cafile):
    """Keep-alive requests under both names, a large body, two pipelined, and the peer's names."""
    out = {}
    for host in ("localhost", "127.0.0.1"):
        sock = connect(host, port, cafile)
        statuses = []
        for index in range(20):
            sock.sendall(request("GET", "/test/api/Hello?name=n%d" % index))
            status, _, body, _ = read_answer(sock)
            statuses.append([status, json.loads(body)["result"]])
        big = json.dumps({"name": "a" * 3_000_000}).encode()
        sock.sendall(request("POST", "/test/api/Hello", big))
        status, _, body, _ = read_answer(sock)
        sock.sendall(request("GET", "/test/api/Hello?name=p1") + request("GET", "/test/api/Hello?name=p2"))
        first = read_answer(sock)
        second = read_answer(sock, first[3])
        sock.sendall(request("GET", "/test/types/swift"))
        _, _, dtos, _ = read_answer(sock)
        base = [line for line in dtos.decode().split("\n") if line.startswith("BaseUrl: ")]
        out[host] = {
            "keepAlive": statuses[0] + statuses[-1] + [len(statuses)],
            "large": [status, len(body)],
            "pipelined": [json.loads(first[2])["result"], json.loads(second[2])["result"]],
            "version": sock.version(),
            "names": [list(pair) for pair in sock.getpeercert()["subjectAltName"]],
            "baseUrl": base[0] if base else None,
        }
        sock.close()
    return out


def plain(port, _cafile):
    """Plain HTTP sent to the HTTPS port."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    sock.sendall(b"GET /test/api/Hello HTTP/1.1\r\nHost: localhost\r\n\r\n")
    status, headers, body, _ = read_answer(sock)
    return {"status": status, "body": json.loads(body), "connection": headers.get("connection"),
            "closed": sock.recv(10) == b""}


def garbage(port, cafile):
    """A broken handshake is closed; the next client is served."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    sock.sendall(b"\x16\x03\x01\x00\x05hello" + bytes(range(256)))
    closed = sock.recv(4096) is not None
    sock.close()
    tls = connect("localhost", port, cafile)
    tls.sendall(request("GET", "/test/api/Hello?name=after"))
    status, _, body, _ = read_answer(tls)
    return {"closed": closed, "after": [status, json.loads(body)["result"]]}


def too_large(port, cafile):
    """A body over the limit is refused at once with its 413, read whole while the body is still being sent."""
    sock = connect("localhost", port, cafile)
    sock.sendall(request("POST", "/test/api/Hello").replace(b"Content-Length: 0", b"Content-Length: 17000000")
                 + b"{" * 65536)
    status, headers, body, _ = read_answer(sock)
    return {"status": status, "body": json.loads(body), "connection": headers.get("connection")}


def websocket(port, cafile):
    """A Socket.IO WebSocket over TLS: the upgrade, then the server's Engine.IO open packet."""
    sock = connect("localhost", port, cafile)
    sock.sendall(request("GET", "/feathers/socket.io/?EIO=4&transport=websocket",
                         extra="Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
                               "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"))
    data = b""
    while b"\r\n\r\n" not in data:
        data += sock.recv(4096)
    head, _, frame = data.partition(b"\r\n\r\n")
    while len(frame) < 2 or len(frame) < 2 + (frame[1] & 0x7F):
        frame += sock.recv(4096)
    length = frame[1] & 0x7F
    return {"status": head.split(b"\r\n")[0].decode(), "opcode": frame[0] & 0x0F,
            "packet": frame[2:2 + length].decode()[:8]}


if __name__ == "__main__":
    scenario, port, cafile = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    run = {"requests": requests, "plain": plain, "garbage": garbage, "too-large": too_large,
           "websocket": websocket}[scenario]
    print(json.dumps(run(port, cafile)))
