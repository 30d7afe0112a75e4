#!/usr/bin/env bash
# Runs check.mjs: the official openai and @anthropic-ai/sdk npm packages against accord-mock.
# Usage: tests/sdk/run.sh ACCORD_MOCK_PATH [WORK_DIR]
# WORK_DIR keeps node_modules between runs (default: a fresh temporary directory). Skips (exit 0)
# only when node is absent; a failed npm install is a failure, never a skip.
set -euo pipefail
mock="${1:?usage: run.sh ACCORD_MOCK_PATH [WORK_DIR]}"

if ! command -v node >/dev/null 2>&1; then
  echo "skipped: node not found"
  exit 0
fi
here="$(cd "$(dirname "$0")" && pwd)"
if ! command -v npm >/dev/null 2>&1; then
  echo "FAIL: node is installed but npm is not; install npm to run the SDK check" >&2
  exit 1
fi
[[ -x "$mock" ]] || { echo "FAIL: accord-mock not found at $mock" >&2; exit 1; }

work="${2:-}"
if [[ -z "$work" ]]; then
  work="$(mktemp -d)"
  trap 'rm -rf "$work"' EXIT
fi
mkdir -p "$work"
cp "$here/package.json" "$here/check.mjs" "$work/"
# The SDKs are pinned in package.json; --no-save keeps the scratch copy identical to the repo's.
if ! (cd "$work" && npm install --no-save --no-audit --no-fund --loglevel=error >npm-install.log 2>&1); then
  echo "FAIL: npm install of the SDKs failed (is the npm registry reachable?):" >&2
  cat "$work/npm-install.log" >&2
  exit 1
fi
node "$work/check.mjs" "$mock"
