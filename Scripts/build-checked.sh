#!/usr/bin/env bash
# Runs a build command and fails when the compiler warned about any of this package's own
# files (dependencies' warnings are theirs). The project's rule is: no warnings.
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
log="$(mktemp)"
trap 'rm -f "$log"' EXIT

# One line is left out of what is shown (the log keeps it): glibc's link-time warning about
# `mktemp`, which the static Swift runtime's FoundationEssentials calls when it writes a file
# atomically. It is the toolchain's, nothing here can act on it, and it read like a problem with
# the release build.
"$@" 2>&1 | tee "$log" | grep --line-buffered -v -F "the use of \`mktemp' is dangerous"
status=${PIPESTATUS[0]}
if [ "$status" -ne 0 ]; then
  exit "$status"
fi
warnings=$(grep -E "^($root/)?(Sources|Tests|Plugins|Benchmarks|Examples)/[^:]+:[0-9]+:[0-9]+: warning:" "$log" | sort -u || true)
if [ -n "$warnings" ]; then
  echo "Build produced warnings in mockstack's own sources:" >&2
  echo "$warnings" >&2
  exit 1
fi
