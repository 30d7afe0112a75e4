#!/usr/bin/env bash
# Installs a built accord into a temporary prefix, builds the consumers in tests/package against it
# (CMake package and pkg-config; static and shared library), runs them and checks what they print.
#
#   tests/package/run.sh [BUILD_DIR]        default: build
#
# CXX, CXXFLAGS and LDFLAGS reach both consumer builds (ctest passes the sanitizer flags this way);
# CMAKE and PKG_CONFIG choose the tools.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
cmake=${CMAKE:-cmake}
export PKG_CONFIG=${PKG_CONFIG:-pkg-config}

work=$(mktemp -d "${TMPDIR:-/tmp}/accord-package.XXXXXX")
trap 'rm -rf "$work"' EXIT
prefix=$work/prefix

fail() {
  echo "package test: $*" >&2
  exit 1
}
# Runs a command quietly; shows its output only when it fails.
step() {
  "$@" >"$work/step.log" 2>&1 || { cat "$work/step.log" >&2; fail "failed: $*"; }
}
expect() {  # expect NAME OUTPUT PATTERN: OUTPUT must contain a line matching the regex
  grep -Eq -- "$3" <<<"$2" || { printf '%s\n' "$2" >&2; fail "$1: no line matching '$3'"; }
}

version=$(sed -n 's/^project(accord VERSION \([0-9][0-9.]*\).*/\1/p' "$root/CMakeLists.txt")
[[ -n $version ]] || fail "no version in $root/CMakeLists.txt"
IFS=. read -r major minor _ <<<"$version"

step "$cmake" --install "$build" --prefix "$prefix"
config=$(find "$prefix" -name accordConfig.cmake -path '*/cmake/accord/*')
pc=$(find "$prefix" -name accord.pc -path '*/pkgconfig/*')
archive=$(find "$prefix" -name libaccord.a)
[[ -f $config ]] || fail "no accordConfig.cmake under lib*/cmake/accord in the install"
[[ -f $pc ]] || fail "no accord.pc under lib*/pkgconfig in the install"
[[ -f $archive ]] || fail "no libaccord.a in the install"
[[ -f $prefix/include/accord/version.hpp ]] || fail "the generated version.hpp is not installed"
libdir=$(dirname "$archive")
[[ -e $libdir/libaccord.so ]] || fail "no libaccord.so next to libaccord.a"

# The consumer's schema part needs the schema DSL and emitter inside the library; a build from
# before those modules existed is checked with the version and Path part alone.
schema=ON
symbols=$(nm -C --defined-only "$archive" 2>/dev/null)
for symbol in 'accord::emit(' 'accord::object(' 'accord::string()'; do
  if ! grep -qF "$symbol" <<<"$symbols"; then
    schema=OFF
    echo "package test: libaccord lacks ${symbol%(*}; the consumers skip the schema part" >&2
    break
  fi
done

check_output() {  # check_output NAME PROGRAM...
  local out
  out=$("${@:2}") || fail "$1 exited with status $?"
  expect "$1" "$out" "^accord $version\$"
  expect "$1" "$out" '^path items\[0\]\.name$'
  if [[ $schema == ON ]]; then
    expect "$1" "$out" '^schema \{.*"type":"object"'
    expect "$1" "$out" '^schema .*"email":\{[^}]*"format":"email"'
  fi
}
links_shared() {  # links_shared PROGRAM: does it load libaccord.so at run time?
  local libs  # captured first: grep -q closing the pipe early would fail ldd under pipefail
  libs=$(LD_LIBRARY_PATH=$libdir ldd "$1") || fail "ldd $1 failed"
  grep -q 'libaccord\.so' <<<"$libs"
}

# CMake: find_package(accord 0.1 REQUIRED) from the temporary prefix and nowhere else.
step "$cmake" -S "$here/cmake" -B "$work/cmake" -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF -DACCORD_CONSUMER_SCHEMA=$schema
found_dir=$(sed -n 's/^accord_DIR:PATH=//p' "$work/cmake/CMakeCache.txt")
[[ $found_dir == "$(dirname "$config")" ]] || fail "find_package found accord in '$found_dir'"
step "$cmake" --build "$work/cmake" -j2
check_output "CMake consumer (accord::accord)" "$work/cmake/consumer"
check_output "CMake consumer (accord::accord_shared)" "$work/cmake/consumer_shared"
links_shared "$work/cmake/consumer" && fail "accord::accord linked the shared library"
links_shared "$work/cmake/consumer_shared" || fail "accord::accord_shared did not link libaccord.so"

# While accord is 0.x a minor release may break things, so asking for an older minor must fail.
if ((major == 0 && minor > 0)); then
  mkdir -p "$work/older"
  # Refused for its version, not for anything else: the installed config must have been considered.
  # shellcheck disable=SC2016 # the ${...} are CMake's, not the shell's
  printf '%s\n' 'cmake_minimum_required(VERSION 3.25)' 'project(older LANGUAGES CXX)' \
    "find_package(accord $major.$((minor - 1)) QUIET)" \
    'if(accord_FOUND)' '  message(FATAL_ERROR "accord ${accord_VERSION} accepted")' 'endif()' \
    "if(NOT \"\${accord_CONSIDERED_VERSIONS}\" STREQUAL \"$version\")" \
    '  message(FATAL_ERROR "considered: ${accord_CONSIDERED_VERSIONS}")' 'endif()' \
    >"$work/older/CMakeLists.txt"
  step "$cmake" -S "$work/older" -B "$work/older/build" -DCMAKE_PREFIX_PATH="$prefix"
fi

# pkg-config: the Makefile a non-CMake project would write.
export PKG_CONFIG_PATH
PKG_CONFIG_PATH=$(dirname "$pc")
[[ $("$PKG_CONFIG" --modversion accord) == "$version" ]] || fail "accord.pc has the wrong version"
static_libs=$("$PKG_CONFIG" --static --libs accord)
for lib in -laccord -lfmt -lcurl -lre2 -lpcre2-8 -lidn2; do
  [[ " $static_libs " == *" $lib "* ]] || fail "pkg-config --static --libs accord lacks $lib"
done
schema_flag=0
[[ $schema == ON ]] && schema_flag=1
mkdir -p "$work/pkgconfig"
step make -C "$work/pkgconfig" -f "$here/pkgconfig/Makefile" \
  CPPFLAGS="${CPPFLAGS:-} -DACCORD_CONSUMER_SCHEMA=$schema_flag"
LD_LIBRARY_PATH=$libdir check_output "pkg-config consumer (shared)" "$work/pkgconfig/consumer"
check_output "pkg-config consumer (static)" "$work/pkgconfig/consumer-static"
links_shared "$work/pkgconfig/consumer" || fail "pkg-config --libs did not link libaccord.so"
links_shared "$work/pkgconfig/consumer-static" && fail "the static pkg-config consumer loads libaccord.so"

echo "package test: accord $version installs, and CMake and pkg-config consumers build and run" \
  "(schema part: $schema)"
