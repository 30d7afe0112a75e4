#!/usr/bin/env bash
# `accord validate` on a large generated JSONL file: throughput (MB/s) and peak RSS, --jobs 1
# against --jobs 2, and peak RSS on a file a tenth as long (it should not grow with the file).
#
#   bench/validate_command.sh [BUILD_DIR] [LINES]
#
# The file repeats ../shared/corpus/refund.jsonl (or bench/sample/refund.jsonl) to LINES lines
# (default 1,000,000) in a scratch directory, judged against bench/refund.schema.json (ajv's
# refund schema in bench_node.mjs, without its two JavaScript refinements).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"
build="$(cd "${1:-$root/build}" && pwd)"
lines="${2:-1000000}"
shared="${SHARED_DIR:-$root/../shared}"
corpus="$shared/corpus/refund.jsonl"
[[ -f "$corpus" ]] || corpus="$here/sample/refund.jsonl"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT

generate() {  # LINES FILE
  local copies=$(($1 / $(wc -l <"$corpus") + 1))
  # head closes the pipe once it has its lines: the loop's SIGPIPE is expected.
  for ((i = 0; i < copies; i++)); do cat "$corpus"; done | head -n "$1" >"$2" || true
}
generate "$lines" "$scratch/large.jsonl"
generate "$((lines / 10))" "$scratch/small.jsonl"

# One run: wall seconds, CPU seconds (user + system), peak RSS in KiB and the count line. On a
# loaded machine the wall time of N threads also reflects the scheduler's share per thread, so
# the CPU seconds say what the threads cost.
measure() {  # FILE JOBS
  local out
  out="$( { /usr/bin/time --quiet -f 'time %e %U %S %M' "$build/accord" validate \
    "$here/refund.schema.json" "$1" --summary --jobs "$2" | tail -n 1; } 2>&1)" || true
  local bytes
  bytes="$(stat -c %s "$1")"
  awk -v name="$(basename "$1")" -v jobs="$2" -v bytes="$bytes" '
    /^time/ {wall = $2; cpu = $3 + $4; rss = $5; next}
    {counts = $0}
    END {printf "%s jobs=%s wall_s=%.2f cpu_s=%.2f MB_per_s=%.1f MB_per_cpu_s=%.1f peak_rss_kib=%s (%s)\n",
      name, jobs, wall, cpu, bytes / 1e6 / wall, bytes / 1e6 / cpu, rss, counts}' <<<"$out"
}
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
measure "$scratch/small.jsonl" 1
measure "$scratch/large.jsonl" 1
measure "$scratch/large.jsonl" 2
measure "$scratch/large.jsonl" 1
measure "$scratch/large.jsonl" 2
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
