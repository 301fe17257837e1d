#!/usr/bin/env bash
# Instructions per request for one path, counted by callgrind on the event-loop thread while wrk
# drives the server (start-up excluded). Deterministic for a given binary and request, unlike
# wall time on a shared machine, so it is the A/B measure behind Benchmarks/LOG.md.
#
#   Benchmarks/instructions.sh '/test/api/Hello?name=World' [seconds] [binary]
#   Benchmarks/instructions.sh --nginx /example/widgets [seconds] [binary]
#   Benchmarks/instructions.sh --lua Benchmarks/feathers-crud.lua /feathers/people-paginated [seconds] [binary]
#
# With --nginx it counts nginx (one process, the settings bench.py gives it) serving the bytes
# mockstack answers PATH with, saved as a file: the same measure for the baseline.
# With --lua SCRIPT, wrk runs SCRIPT (a mix of requests it builds itself, as bench.py runs it)
# instead of GETs of PATH; PATH is only the first request, made before the count. The requests
# in SCRIPT's seed file, if there is one (feathers-crud.lua → feathers-crud.seed, sent by
# Benchmarks/seed.py), go first, as bench.py sends them. A non-2xx answer in the mix fails the
# count: it would be measuring error paths.
set -euo pipefail
cd "$(dirname "$0")/.."
nginx="" script=""
case "${1:-}" in
  --nginx) nginx=1; shift ;;
  --lua) script="${2:?--lua needs a wrk Lua script}"; shift 2 ;;
esac
path="${1:?usage: Benchmarks/instructions.sh [--nginx | --lua SCRIPT] PATH [SECONDS] [BINARY]}"
seconds="${2:-3}"
binary="${3:-$(swift build -c release --show-bin-path)/mockstack}"
for tool in valgrind callgrind_control callgrind_annotate wrk curl objcopy ${nginx:+nginx}; do
  command -v "$tool" >/dev/null || { echo "instructions: $tool is missing (apt-get install valgrind wrk curl binutils nginx)" >&2; exit 1; }
done
work="$(mktemp -d)"
[ -n "${KEEP_CALLGRIND:-}" ] || trap 'rm -rf "$work"' EXIT
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
wait_for() { for _ in $(seq 1 150); do curl -sf -o /dev/null "$1" && return; sleep 0.2; done; }
port=$(free_port)

if [ -n "$nginx" ]; then
  # The bytes to serve, from mockstack itself (not under valgrind).
  "$binary" serve --port "$port" --fixtures Fixtures --log-level warning >/dev/null 2>&1 &
  server=$!
  wait_for "http://127.0.0.1:$port/__mockstack/health"
  mkdir -p "$work/www$(dirname "$path")" "$work/tmp"
  curl -sf -o "$work/www$path" "http://127.0.0.1:$port$path"
  kill "$server"; wait "$server" 2>/dev/null || true
  port=$(free_port)
  cat >"$work/nginx.conf" <<CONF
master_process off;
daemon off;
worker_processes 1;
pid $work/nginx.pid;
error_log $work/error.log warn;
events { worker_connections 4096; }
http {
    access_log off; keepalive_requests 100000000; keepalive_timeout 120s;
    sendfile on; tcp_nopush on; tcp_nodelay on;
    open_file_cache max=64 inactive=60s; open_file_cache_valid 3600s;
    client_body_temp_path $work/tmp; proxy_temp_path $work/tmp; fastcgi_temp_path $work/tmp;
    uwsgi_temp_path $work/tmp; scgi_temp_path $work/tmp;
    types { } default_type "application/json; charset=utf-8";
    server { listen 127.0.0.1:$port; root $work/www; }
}
CONF
  name="nginx $path" stop=TERM ready="$path"
  valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file="$work/out.%p" \
    nginx -c "$work/nginx.conf" >/dev/null 2>"$work/valgrind.log" &
  server=$!
else
  name="$path${script:+ with $script}" stop=INT ready=/__mockstack/health
  # valgrind 3.19 cannot read the DWARF 5 the toolchain writes: count on a copy without it.
  objcopy --strip-debug "$binary" "$work/mockstack"
  valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file="$work/out.%p" \
    "$work/mockstack" serve --port "$port" --fixtures Fixtures --log-level warning >/dev/null 2>"$work/valgrind.log" &
  server=$!
fi

# Start-up and first-use costs stay out of the count: one request, then as long a load as the
# counted one uncounted, which fills the request journal (1,000 entries) to where every new
# entry pushes out the oldest, as on a server that has run for a while. A mix with a seed file
# changes what it reads (its creates and removes expect the seeded records), so it is counted
# from its seed without the warm-up.
wait_for "http://127.0.0.1:$port$ready"
seed="${script%.lua}.seed"
if [ -n "$script" ] && [ -f "$seed" ]; then python3 Benchmarks/seed.py "$seed" "$port"; fi
curl -s -o /dev/null "http://127.0.0.1:$port$path"
if [ -z "$script" ] || [ ! -f "$seed" ]; then
  wrk -t1 -c8 -d"${seconds}s" ${script:+-s "$script"} "http://127.0.0.1:$port$path" >"$work/warm-up.txt"
fi
callgrind_control -i on "$server" >/dev/null
wrk -t1 -c8 -d"${seconds}s" ${script:+-s "$script"} "http://127.0.0.1:$port$path" >"$work/wrk.txt"
callgrind_control -i off "$server" >/dev/null
requests=$(awk '/requests in/ {print $1}' "$work/wrk.txt")
if [ -n "$script" ] && grep -q "Non-2xx" "$work/wrk.txt"; then
  echo "instructions: $(grep Non-2xx "$work/wrk.txt" | xargs) of $requests; nothing counted" >&2
  kill -"$stop" "$server"; wait "$server" 2>/dev/null || true
  exit 1
fi
kill -"$stop" "$server"; wait "$server" 2>/dev/null || true
total=$(callgrind_annotate "$work"/out.* 2>/dev/null | awk '/PROGRAM TOTALS/ {gsub(",", "", $1); print $1}')
echo "$name: $requests requests, $((total / requests)) instructions per request"
