#!/usr/bin/env bash
# Compares mockstack's /types/swift for an app with a Swift DTO file the real host generated,
# after the header: the options the real file's header gives (its lines without `//`) are asked
# for, as `x swift FILE` would ask, and the two bodies are diffed.
#
#   Scripts/compare-swift-dtos.sh APP REAL_FILE [--option Key=Value ...]
#
# Extra `--option`s are added to the header's (a type the real file predates can be excluded
# with `--option ExcludeTypes=Name`). Exit status 0 when identical; otherwise the diff is
# printed (real file on the left). MOCKSTACK_BIN picks the binary (default: the debug build's),
# MOCKSTACK_FIXTURES the fixture folder (default: Fixtures).
set -euo pipefail

if [[ $# -lt 2 ]]; then
    echo "usage: $0 APP REAL_FILE [--option Key=Value ...]" >&2
    exit 2
fi
app=$1
real=$2
shift 2
root=$(cd "$(dirname "$0")/.." && pwd)
binary=${MOCKSTACK_BIN:-$root/.build/debug/mockstack}
fixtures=${MOCKSTACK_FIXTURES:-$root/Fixtures}

options=()
# The header's options between `BaseUrl:` and `*/` that are not commented out, as Key=Value.
while IFS= read -r pair; do
    options+=(--option "$pair")
done < <(awk '/^BaseUrl:/ { inside = 1; next }
              inside && /^\*\// { exit }
              inside && NF && !/^\/\// { key = $1; sub(/:$/, "", key); print key "=" substr($0, length($1) + 2) }' "$real")
base_url=$(awk '/^BaseUrl: / { print $2; exit }' "$real")

ours=$(mktemp)
trap 'rm -f "$ours"' EXIT
"$binary" codegen swift --app "$app" --fixtures "$fixtures" --base-url "$base_url" "${options[@]}" "$@" >"$ours"
diff <(sed '1,/^\*\/$/d' "$real") <(sed '1,/^\*\/$/d' "$ours")
echo "$app: identical to $real after the header"
