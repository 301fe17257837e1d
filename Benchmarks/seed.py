#!/usr/bin/env python3
"""Sends a seed file's requests to a server before a wrk Lua script runs against it: one request
a line, `METHOD PATH [JSON BODY]`, on one keep-alive connection; any answer but a 2xx stops it.

    python3 Benchmarks/seed.py Benchmarks/feathers-crud.seed PORT

`Benchmarks/instructions.sh --lua SCRIPT` sends `SCRIPT`'s `.seed` file this way, and bench.py
seeds the Feathers CRUD mix with it before each round.
"""
import http.client
import sys


def send(seed_file, port, host="127.0.0.1"):
    """Sends every request in `seed_file`; raises on the first answer that is not a 2xx."""
    connection = http.client.HTTPConnection(host, port, timeout=30)
    try:
        with open(seed_file, encoding="utf-8") as lines:
            for number, line in enumerate(lines, 1):
                if not line.strip():
                    continue
                method, path, *body = line.rstrip("\n").split(" ", 2)
                headers = {"Content-Type": "application/json"} if body else {}
                connection.request(method, path, body=body[0].encode() if body else None, headers=headers)
                response = connection.getresponse()
                response.read()
                if not 200 <= response.status < 300:
                    raise RuntimeError(f"{seed_file}:{number}: {method} {path} answered {response.status}")
    finally:
        connection.close()


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: seed.py SEED_FILE PORT")
    send(sys.argv[1], int(sys.argv[2]))
