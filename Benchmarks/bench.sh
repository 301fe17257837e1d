#!/usr/bin/env bash
# `make bench`: mockstack side by side with nginx on this machine, in one run.
# Installs wrk and nginx from Debian when missing, then hands over to bench.py, which does the measuring.
# Settings (environment): BENCH_DURATION (seconds per wrk run, default 10), BENCH_ROUNDS (default 5),
# BENCH_STARTS (start-up samples, default 20), MOCKSTACK_BIN (default: the release build),
# BENCH_PEERS=0 to leave out the Hummingbird peer (built here on first use, about 4 minutes),
# BENCH_CLIENT_TESTS=0 to leave out Benchmarks/client-tests.py (BENCH_CLIENT_TEST_COUNT tests, default 50;
# BENCH_CLIENT_BUILDS first builds of each package, default 3),
# BENCH_FANOUT=0 and BENCH_SSE=0 to leave out the Feathers and the Server Events fan-outs.
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
command -v wrk >/dev/null 2>&1 || missing+=(wrk)
command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || missing+=(nginx-light)
command -v python3 >/dev/null 2>&1 || missing+=(python3)
if [ ${#missing[@]} -gt 0 ]; then
  echo "bench: installing ${missing[*]} with apt-get" >&2
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

bin="${MOCKSTACK_BIN:-$(swift build -c release --show-bin-path)/mockstack}"
if [ ! -x "$bin" ]; then
  echo "bench: $bin is not built; run 'make bench' (it builds the release binary first)" >&2
  exit 1
fi

peer=()
if [ "${BENCH_PEERS:-1}" != 0 ]; then
  peer_package=Benchmarks/peers/hummingbird-peer
  echo "bench: building the Hummingbird peer ($peer_package)" >&2
  swift build -c release --package-path "$peer_package" >&2
  peer=(--hummingbird "$(swift build -c release --package-path "$peer_package" --show-bin-path)/hummingbird-peer")
fi

python3 Benchmarks/bench.py --mockstack "$bin" --fixtures Fixtures "${peer[@]}" \
  --duration "${BENCH_DURATION:-10}" --rounds "${BENCH_ROUNDS:-5}" --starts "${BENCH_STARTS:-20}"

# What a client library's tests pay: a client package's first build and each test's helper time
# (a few minutes: two packages built from scratch). BENCH_CLIENT_TESTS=0 leaves it out.
if [ "${BENCH_CLIENT_TESTS:-1}" != 0 ]; then
  python3 Benchmarks/client-tests.py --tests "${BENCH_CLIENT_TEST_COUNT:-50}" --builds "${BENCH_CLIENT_BUILDS:-3}"
fi

# Feathers real-time: a service event fanned out to 1,000 WebSocket clients.
# BENCH_FANOUT=0 leaves it out.
if [ "${BENCH_FANOUT:-1}" != 0 ]; then
  python3 Benchmarks/realtime-fanout.py --mockstack "$bin" || echo "bench: the fan-out missed a target (above)" >&2
fi

# ServiceStack Server Events: one message to a channel of 1,000 subscribers, and what idle and
# heartbeating subscriptions cost. BENCH_SSE=0 leaves it out.
if [ "${BENCH_SSE:-1}" != 0 ]; then
  python3 Benchmarks/sse-fanout.py --mockstack "$bin" \
    || echo "bench: the Server Events fan-out missed a target (above)" >&2
fi
