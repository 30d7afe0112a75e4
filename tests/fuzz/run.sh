#!/usr/bin/env bash
# Builds accord's libFuzzer targets with clang-14 (ASan + UBSan) in build-fuzz (or FUZZ_BUILD_DIR,
# a build configured with ACCORD_FUZZ=ON) and runs each for a bounded time on its seed corpus.
# Exit 1 when any target crashes, leaks, times out or hits UB.
#
#   tests/fuzz/run.sh [SECONDS_PER_TARGET=20] [TARGET...]
#
# New inputs go to build-fuzz/corpus/<target>/ (the seeds in tests/fuzz/corpus/ are only read);
# a crashing input is saved as build-fuzz/artifacts/<target>-crash-*. Figures per target are
# printed at the end: executions, seconds, corpus entries, result.
set -euo pipefail
seconds="${1:-20}"
shift || true
cd "$(dirname "$0")/../.."
root="$PWD"
build_dir="${FUZZ_BUILD_DIR:-build-fuzz}"

"$root/scripts/deps" clang

# A build directory configured already (CI's sanitized test build, which has ACCORD_FUZZ on) is
# used as it is; otherwise a fuzz-only build: line tables are all a crash report needs, and full
# debug info would double the build time.
if [[ ! -f "$build_dir/CMakeCache.txt" ]]; then
  cmake -S . -B "$build_dir" -DCMAKE_CXX_COMPILER=clang++-14 -DACCORD_FUZZ=ON \
    -DACCORD_BUILD_TESTS=OFF -DACCORD_BUILD_SHARED=OFF -DACCORD_INSTALL=OFF \
    -DCMAKE_BUILD_TYPE=Debug "-DCMAKE_CXX_FLAGS_DEBUG=-O1 -gline-tables-only" >/dev/null
fi
# Every target tests/fuzz/CMakeLists.txt declares, unless some are named.
targets=("$@")
((${#targets[@]} == 0)) && mapfile -t targets <"$build_dir/tests/fuzz/targets.txt"
cmake --build "$build_dir" -j"$(nproc)" --target "${targets[@]/#/fuzz_}"

mkdir -p "$build_dir/artifacts" "$build_dir/logs"
# One target per core at a time: each libFuzzer process is single-threaded, so CI's two cores
# fuzz twice as long in the same wall time. A target writes its summary line to its own file.
run_target() {
  local target="$1" work="$build_dir/corpus/$1" log="$build_dir/logs/$1.log" started status=0
  mkdir -p "$work"
  started=$(date +%s)
  # -timeout: one input taking 10 s is a hang; -rss_limit_mb: a blow-up is a failure too.
  "$build_dir/tests/fuzz/fuzz_$target" "$work" "tests/fuzz/corpus/$target" \
    -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=16384 \
    -print_final_stats=1 -artifact_prefix="$build_dir/artifacts/$target-" >"$log" 2>&1 ||
    status=$?
  local took=$(($(date +%s) - started)) runs entries result
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  entries=$(find "$work" "tests/fuzz/corpus/$target" -type f | wc -l)
  if ((status == 0)); then
    result="ok"
  else
    result="FAILED (exit $status, see $log)"
    grep -m 5 -E "ERROR|runtime error|Test unit written" "$log" >&2 || tail -20 "$log" >&2
  fi
  printf '%-24s %12s %6ss %8s  %s\n' "$target" "${runs:-?}" "$took" "$entries" "$result" \
    >"$build_dir/logs/$target.summary"
  return $status
}
failed=()
rm -f "$build_dir"/logs/*.summary
declare -A running=()
for target in "${targets[@]}"; do
  while ((${#running[@]} >= $(nproc))); do
    wait -n || true
    for pid in "${!running[@]}"; do
      kill -0 "$pid" 2>/dev/null || unset "running[$pid]"
    done
  done
  run_target "$target" &
  running[$!]="$target"
done
wait || true
summary=()
for target in "${targets[@]}"; do
  line=$(cat "$build_dir/logs/$target.summary" 2>/dev/null || echo "$target FAILED (no summary)")
  summary+=("$line")
  [[ "$line" == *" ok" ]] || failed+=("$target")
done

printf '%-24s %12s %7s %8s  %s\n' target executions time corpus result
printf '%s\n' "${summary[@]}"
if ((${#failed[@]} > 0)); then
  echo "fuzz: crashes in ${failed[*]}" >&2
  exit 1
fi
