#!/usr/bin/env bash
# Runs one of this directory's node checks with the official SDK npm packages (pinned in
# package.json), e.g. check.mjs (the SDKs parse accord-mock's replies) or corpus.mjs (the SDKs'
# schema transforms take accord's wires).
# Usage: tests/sdk/run.sh WORK_DIR SCRIPT.mjs [ARGS...]   copies the checks, installs, runs one
#        tests/sdk/run.sh --install WORK_DIR              copies the checks and installs only
#        tests/sdk/run.sh --installed WORK_DIR SCRIPT.mjs [ARGS...]   runs one, installs nothing
# WORK_DIR keeps node_modules between runs. ctest installs once (--install, a fixture) and runs
# every check --installed against it: a fresh install per check was most of their time. Without
# node the check fails when CI=true (CI must install it: scripts/deps) and is skipped elsewhere;
# a failed npm install is always a failure.
set -euo pipefail
usage="usage: run.sh [--install | --installed] WORK_DIR [SCRIPT.mjs [ARGS...]]"
mode=run
if [[ "${1:-}" == --install || "${1:-}" == --installed ]]; then
  mode="${1#--}"
  shift
fi
work="${1:?$usage}"
shift
if [[ $mode != install ]]; then
  script="${1:?$usage}"
  shift
fi

if ! command -v node >/dev/null 2>&1; then
  if [[ "${CI:-}" == true ]]; then
    echo "FAIL: node not found; CI needs it for the SDK checks (scripts/deps installs nodejs)" >&2
    exit 1
  fi
  echo "skipped: node not found"
  exit 0
fi
here="$(cd "$(dirname "$0")" && pwd)"

if [[ $mode != installed ]]; then
  if ! command -v npm >/dev/null 2>&1; then
    echo "FAIL: node is installed but npm is not; install npm to run the SDK checks" >&2
    exit 1
  fi
  mkdir -p "$work"
  # The scripts and the modules they import from beside them.
  cp "$here/package.json" "$here"/*.mjs "$work/"
  # --no-save keeps the scratch copy identical to the repo's (quick when already installed).
  if ! (cd "$work" && npm install --no-save --no-audit --no-fund --loglevel=error >npm-install.log 2>&1); then
    echo "FAIL: npm install of the SDKs failed (is the npm registry reachable?):" >&2
    cat "$work/npm-install.log" >&2
    exit 1
  fi
fi
[[ $mode == install ]] && exit 0
node "$work/$script" "$@"
