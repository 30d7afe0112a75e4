#!/usr/bin/env bash
# Builds the tests with ThreadSanitizer in build-tsan and runs the concurrency tests (one Client
# shared by 8 threads against accord-mock) and the extraction-loop tests. Non-zero exit on any
# report (halt_on_error) or failed test.
set -euo pipefail
cd "$(dirname "$0")/.."
"./scripts/deps"
build_dir="${TSAN_BUILD_DIR:-build-tsan}"
flags="-fsanitize=thread -fno-omit-frame-pointer -g -O1"
cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE=Debug -DACCORD_BUILD_SHARED=OFF \
  -DACCORD_INSTALL=OFF -DCMAKE_CXX_FLAGS="$flags" \
  -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=thread" >/dev/null
cmake --build "$build_dir" -j"$(nproc)" --target accord_tests
# accord-mock is only the other end of the wire: an uninstrumented build of it (httplib is not
# TSan-instrumented, so an instrumented mock reports httplib's own synchronisation as races).
mock_dir="${MOCK_BUILD_DIR:-build}"
cmake -S . -B "$mock_dir" >/dev/null
cmake --build "$mock_dir" -j"$(nproc)" --target accord-mock
export ACCORD_MOCK_PATH="$PWD/$mock_dir/mock_server/accord-mock"
filter="${TSAN_FILTER:-Providers/Concurrency.*:ConcurrentValidator.*:Providers/Loop.*}"
# Newer kernels randomise mmap beyond what GCC 12's TSan runtime maps ("unexpected memory
# mapping"); running without ASLR avoids that and changes nothing else.
run=()
if command -v setarch >/dev/null && setarch "$(uname -m)" -R true 2>/dev/null; then
  run=(setarch "$(uname -m)" -R)
fi
TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 ${TSAN_OPTIONS:-}" \
  "${run[@]}" "$build_dir/tests/accord_tests" --gtest_filter="$filter" --gtest_brief=1
