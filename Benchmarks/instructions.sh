#!/usr/bin/env bash
# Instructions per request for one path, counted by callgrind on the event-loop thread while wrk
# drives the server (start-up excluded). Deterministic for a given binary and request, unlike
# wall time on a shared machine, so it is the A/B measure behind "What moved the numbers".
#
#   Benchmarks/instructions.sh '/test/api/Hello?name=World' [seconds] [binary]
set -euo pipefail
cd "$(dirname "$0")/.."
path="${1:?usage: Benchmarks/instructions.sh PATH [SECONDS] [BINARY]}"
seconds="${2:-3}"
binary="${3:-$(swift build -c release --show-bin-path)/mockstack}"
for tool in valgrind callgrind_control callgrind_annotate wrk curl objcopy; do
  command -v "$tool" >/dev/null || { echo "instructions: $tool is missing (apt-get install valgrind wrk curl binutils)" >&2; exit 1; }
done
work="$(mktemp -d)"
[ -n "${KEEP_CALLGRIND:-}" ] || trap 'rm -rf "$work"' EXIT
# valgrind 3.19 cannot read the DWARF 5 the toolchain writes: count on a copy without it.
objcopy --strip-debug "$binary" "$work/mockstack"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file="$work/out.%p" \
  "$work/mockstack" serve --port "$port" --fixtures Fixtures --log-level warning >/dev/null 2>"$work/valgrind.log" &
server=$!
for _ in $(seq 1 150); do curl -sf -o /dev/null "http://127.0.0.1:$port/__mockstack/health" && break; sleep 0.2; done
curl -s -o /dev/null "http://127.0.0.1:$port$path"
callgrind_control -i on "$server" >/dev/null
requests=$(wrk -t1 -c8 -d"${seconds}s" "http://127.0.0.1:$port$path" | awk '/requests in/ {print $1}')
callgrind_control -i off "$server" >/dev/null
kill -INT "$server"; wait "$server" 2>/dev/null || true
total=$(callgrind_annotate "$work"/out.* 2>/dev/null | awk '/PROGRAM TOTALS/ {gsub(",", "", $1); print $1}')
echo "$path: $requests requests, $((total / requests)) instructions per request"
