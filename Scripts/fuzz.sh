#!/usr/bin/env bash
# make fuzz: builds the libFuzzer targets in Fuzz/ (swiftc -sanitize=fuzzer,address) and runs
# each for FUZZ_SECONDS (default 600), FUZZ_JOBS at a time (default 2, one per core here),
# starting from the committed seeds in Fuzz/Corpus/<target>/. What a run finds is kept in
# Fuzz/.work/corpus/<target>/ for the next run; a crash leaves its input in
# Fuzz/.work/crashes/ and fails the run. FUZZ_TARGETS narrows the set ("FuzzJSON FuzzMultipart").
set -euo pipefail

cd "$(dirname "$0")/../Fuzz"
SECONDS_EACH="${FUZZ_SECONDS:-600}"
JOBS="${FUZZ_JOBS:-2}"
TARGETS="${FUZZ_TARGETS:-FuzzJSON FuzzQueryString FuzzMultipart FuzzBinding FuzzAutoQuery FuzzFeathersQuery FuzzHTTP1 FuzzWebSocket}"
SWIFT="${SWIFT:-swift}"

# SwiftPM's --sanitize=fuzzer links libFuzzer and instruments C, but the Swift driver drops
# -sanitize=fuzzer when it only compiles a module (no link step), which leaves every Swift
# module without coverage counters: libFuzzer then runs blind. So the coverage is asked for
# by name, as clang's -fsanitize=fuzzer does it.
BUILD=(-c release --sanitize=fuzzer --sanitize=address -Xswiftc -sanitize-coverage=edge,inline-8bit-counters,pc-table,trace-cmp)
"$SWIFT" build "${BUILD[@]}"
BIN="$("$SWIFT" build "${BUILD[@]}" --show-bin-path)"
mkdir -p .work/crashes .work/logs
for target in $TARGETS; do
    [[ -x "$BIN/$target" ]] || { echo "fuzz.sh: no target named $target (there are: $(ls Sources | grep -v FuzzSupport | tr '\n' ' '))" >&2; exit 2; }
done

run_one() {
    local target="$1"
    mkdir -p ".work/corpus/$target"
    # New inputs go to the first folder; the seeds are read, never written. No leak checks:
    # LeakSanitizer cannot see Swift's references held in enum payloads with tag bits, and
    # reports the apps' (reachable) load-time allocations as leaks.
    ASAN_OPTIONS="detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}" "$BIN/$target" ".work/corpus/$target" "Corpus/$target" \
        -max_total_time="$SECONDS_EACH" -timeout=10 -rss_limit_mb=2048 -max_len=65536 -detect_leaks=0 \
        -artifact_prefix=".work/crashes/$target-" -print_final_stats=1 \
        > ".work/logs/$target.log" 2>&1
}

declare -A status
pending=()
for target in $TARGETS; do
    run_one "$target" &
    pending+=("$!:$target")
    if (( ${#pending[@]} >= JOBS )); then
        entry="${pending[0]}"; pending=("${pending[@]:1}")
        if wait "${entry%%:*}"; then status[${entry#*:}]=ok; else status[${entry#*:}]=CRASH; fi
    fi
done
for entry in "${pending[@]}"; do
    if wait "${entry%%:*}"; then status[${entry#*:}]=ok; else status[${entry#*:}]=CRASH; fi
done

failed=0
printf '%-20s %-6s %12s %8s %8s\n' target result runs cov ft
for target in $TARGETS; do
    log=".work/logs/$target.log"
    runs=$(grep -o 'stat::number_of_executed_units: [0-9]*' "$log" | tail -1 | awk '{print $2}' || true)
    cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | awk '{print $2}' || true)
    ft=$(grep -o 'ft: [0-9]*' "$log" | tail -1 | awk '{print $2}' || true)
    printf '%-20s %-6s %12s %8s %8s\n' "$target" "${status[$target]}" "${runs:-?}" "${cov:-?}" "${ft:-?}"
    if [[ "${status[$target]}" != ok ]]; then
        failed=1
        grep -m5 -E 'ERROR|Fatal error|SUMMARY|Test unit written' "$log" | sed 's/^/    /' || true
    fi
done
echo "($SECONDS_EACH s each; logs in Fuzz/.work/logs, crashing inputs in Fuzz/.work/crashes)"
exit "$failed"
