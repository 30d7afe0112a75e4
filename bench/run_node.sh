#!/usr/bin/env bash
# The Node side of the comparison: installs ../shared/anchors/package.json (pinned zod, ajv,
# ai-sdk) into a scratch folder under the build tree and runs the two anchor scripts there.
#
#   bench/run_node.sh [BUILD_DIR] [CORPUS_DIR] [LOOP_CALLS]
#
# SHARED_DIR (default ../shared next to the source tree) holds anchors/ and corpus/.
# Prints the anchors' lines: docs_per_sec for JSON.parse, zod and ajv on each corpus (with
# their agreement with the .expected files), then calls_per_sec for the AI SDK's
# generateObject against bare fetch().
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"
build="${1:-$root/build}"
shared="${SHARED_DIR:-$root/../shared}"
corpus="${2:-$shared/corpus}"
calls="${3:-2000}"
anchors="$shared/anchors"

command -v node >/dev/null || { echo "run_node.sh: node not found" >&2; exit 1; }
[[ -f "$anchors/package.json" ]] || { echo "run_node.sh: no $anchors/package.json" >&2; exit 1; }

# The scripts import their packages relative to where they live, so they run from the scratch
# folder next to node_modules.
scratch="$build/node-anchors"
mkdir -p "$scratch"
cp "$anchors/package.json" "$anchors"/*.mjs "$scratch/"
if [[ ! -d "$scratch/node_modules" ]] || [[ "$anchors/package.json" -nt "$scratch/node_modules" ]]; then
  (cd "$scratch" && npm install --no-audit --no-fund --loglevel=error >/dev/null)
  touch "$scratch/node_modules"
fi

echo "node $(node --version)"
(cd "$scratch" && node bench_node.mjs "$(cd "$corpus" && pwd)")
(cd "$scratch" && node loop_node.mjs "$calls")
