#!/usr/bin/env bash
# Every measurement of bench/README.md's table in one run, each repeated ROUNDS times (the machine
# is shared and noisy); prints the median of each and the ratios against the targets.
#
#   bench/measure.sh [BUILD_DIR] [ROUNDS]
#
# Needs a built tree (accord-bench, accord-mock), node + npm for the Node side, the shared corpus.
# MOCK=path uses another accord-mock binary; LOOP_CALLS (default 2000) sets the loop's length;
# SHARED_DIR (default ../shared next to the source tree) holds corpus/ and anchors/.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"
build="$(cd "${1:-$root/build}" && pwd)"
rounds="${2:-3}"
shared="${SHARED_DIR:-$root/../shared}"
corpus="$(cd "$shared/corpus" && pwd)"
bench="$build/bench/accord-bench"
loop_calls="${LOOP_CALLS:-2000}"
mock=()
[[ -n "${MOCK:-}" ]] && mock=(--mock "$MOCK")
results="$(mktemp)"
trap 'rm -f "$results"' EXIT

record() { echo "$1 $2" >>"$results"; }  # name value
last_value() { awk '{v=$2} END {print v}'; }  # the "key: N" last line of accord-bench
median() { grep "^$1 " "$results" | awk '{print $2}' | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

# The Node packages are installed once, outside the rounds.
"$here/run_node.sh" "$build" "$corpus" 1 >/dev/null
for ((round = 1; round <= rounds; round++)); do
  echo "round $round/$rounds" >&2
  # Node and accord alternate within each round, so both see the same machine.
  while read -r name kind value; do
    record "$name.$kind" "${value#docs_per_sec=}"
  done < <(cd "$build/node-anchors" && node bench_node.mjs "$corpus" | sed 's/://' | awk '{print $1, $2, $3}')
  for schema in refund transfer; do
    for mode in full worded; do
      out="$("$bench" validate --schema "$schema" --corpus "$corpus/$schema.jsonl" \
        --expected "$corpus/$schema.expected" --mode "$mode")" || echo "VERDICTS DIFFER: $schema $mode" >&2
      record "$schema.accord-$mode" "$(last_value <<<"$out")"
      record "$schema.agreement-$mode" "$(grep agreement <<<"$out" | awk '{print $2}' | cut -d/ -f1)"
    done
    for mode in parse nlohmann; do
      record "$schema.accord-$mode" "$("$bench" validate --schema "$schema" --corpus "$corpus/$schema.jsonl" \
        --mode "$mode" | last_value)"
    done
  done
  record loop.extract "$("$bench" loop "${mock[@]}" --calls "$loop_calls" | last_value)"
  record loop.raw "$("$bench" loop "${mock[@]}" --calls "$loop_calls" --raw | last_value)"
  record concurrent.1 "$("$bench" concurrent "${mock[@]}" --in-flight 1 --calls 60 | last_value)"
  record concurrent.64 "$("$bench" concurrent "${mock[@]}" --in-flight 64 --calls 3000 | last_value)"
  record rss.extract "$("$bench" loop "${mock[@]}" --calls 1 --warmup 0 | grep peak_rss_kib | awk '{print $2}')"
done

for schema in refund transfer; do
  echo "== $schema (docs/sec, medians of $rounds rounds)"
  echo "  verdicts equal to $schema.expected: full $(median "$schema.agreement-full")/10000, worded $(median "$schema.agreement-worded")/10000"
  for name in accord-full accord-worded accord-parse accord-nlohmann ajv zod parse; do
    printf '  %-18s %s\n' "$name" "$(median "$schema.$name")"
  done
  awk -v a="$(median "$schema.accord-full")" -v j="$(median "$schema.ajv")" -v z="$(median "$schema.zod")" \
    -v f="$(median "$schema.accord-parse")" -v p="$(median "$schema.parse")" 'BEGIN {
      printf "  accord/ajv %.2f (target 2)  accord/zod %.2f (target 5)  accord/accord-parse %.2f  accord/JSON.parse %.2f\n",
        a / j, a / z, a / f, a / p }'
done
echo "== loop (calls/sec)"
echo "  extract $(median loop.extract)  raw $(median loop.raw)"
awk -v e="$(median loop.extract)" -v r="$(median loop.raw)" 'BEGIN { printf "  extract/raw %.2f (target 0.8)\n", e / r }'
echo "== concurrent, 50 ms mock delay (calls/sec)"
echo "  in-flight 1: $(median concurrent.1)  in-flight 64: $(median concurrent.64)"
awk -v s="$(median concurrent.1)" -v c="$(median concurrent.64)" 'BEGIN { printf "  64/1 %.1f (target 40)\n", c / s }'
echo "== peak RSS of a process doing one refund extraction: $(median rss.extract) KiB (target < 20480)"
