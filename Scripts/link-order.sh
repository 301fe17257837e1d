#!/usr/bin/env bash
# Regenerates Sources/CLI/link-order.txt: the functions a server runs, from start-up
# through a spread of requests, hottest first, which release builds lay out together
# (`make release`: -function-sections, then gold's --section-ordering-file).
#
# Why: Linux maps an executable's code 64 KiB around each page it faults in. With the functions
# a server uses scattered over 15 MiB of code, that window made most of its resident memory;
# packed together they take a few hundred pages (Benchmarks/LOG.md, "What moved the numbers").
# Names that no longer exist are ignored by the linker, so a stale list only packs less well:
# run this after large changes, then `make release` (which relinks).
#
#   Scripts/link-order.sh [binary]      (default: the release build)
set -euo pipefail
cd "$(dirname "$0")/.."
release="$(swift build -c release --show-bin-path)/mockstack"
binary="${1:-$release}"
for tool in valgrind callgrind_annotate wrk curl objcopy; do
  command -v "$tool" >/dev/null || { echo "link-order: $tool is missing (apt-get install valgrind wrk curl binutils)" >&2; exit 1; }
done
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# valgrind 3.19 cannot read the DWARF 5 the toolchain writes: profile a copy without it.
objcopy --strip-debug "$binary" "$work/mockstack"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
valgrind --tool=callgrind --demangle=no --callgrind-out-file="$work/profile" \
  "$work/mockstack" serve --port "$port" --fixtures Fixtures --log-level warning >"$work/ready" 2>/dev/null &
server=$!
for _ in $(seq 1 300); do [ -s "$work/ready" ] && break; sleep 0.1; done
base="http://127.0.0.1:$port"
for path in /example/widgets '/test/api/Hello?name=World' '/test/api/ThrowType?type=NotFound&message=gone' \
    '/techstacks/api/FindTechnologies?NameContains=a&orderByDesc=ViewCount&take=50' /techstacks/types/swift \
    /techstacks/types/metadata /feathers/messages /__mockstack/health /__mockstack/requests /nowhere; do
  curl -s -o /dev/null "$base$path"
done
curl -s -o /dev/null -X POST -H 'Content-Type: application/json' -d '{"name":"World"}' "$base/test/api/Hello"
wrk -t1 -c4 -d2s "$base/example/widgets" >/dev/null
kill -TERM "$server"
wait "$server" || true
# Every function of the binary that ran, by instructions spent in it; recursion levels
# (callgrind's 'N suffix) folded into one name.
callgrind_annotate --threshold=100 --inclusive=no "$work/profile" 2>/dev/null \
  | grep -F "[$work/mockstack]" \
  | sed -E 's/^ *[0-9,]+ \([ 0-9.%]+\)  [?]{3}://; s/ \[[^]]*\]$//' \
  | grep -v '^0x' | sed -E "s/'[0-9]+$//" | awk '!seen[$0]++ { print ".text." $0 }' \
  >Sources/CLI/link-order.txt
echo "link-order: $(wc -l <Sources/CLI/link-order.txt) functions in Sources/CLI/link-order.txt"
# The linker reads the list only when it links: make the next release build do so.
rm -f "$release"
