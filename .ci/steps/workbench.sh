#!/usr/bin/env bash
# The workbench's agreement step, with cargo's target folder moved away
# (as CI caches and shared machines do): it must find the CLI where cargo
# put it and report real counts, never a table of zeros.
set -euo pipefail
moved=$(mktemp -d)
out=$(mktemp -d)
trap 'rm -rf "$moved" "$out"' EXIT
CARGO_TARGET_DIR="$moved" scripts/workbench.sh --no-fuzz --no-bench --out "$out" > /dev/null
report="$out/report.md"
rows=$(grep -cE '^\| (20[0-9-]+|jsonrpc) \| (whole|lines|sse) \| [1-9][0-9]* \| [0-9]+ \| 0 \|$' "$report" || true)
if [ "$rows" -ne 18 ]; then
  echo "workbench agreement with a moved target folder: $rows of 18 rows ran and agreed" >&2
  cat "$report" >&2
  exit 1
fi
echo "workbench agreement with CARGO_TARGET_DIR moved: 18 of 18 rows ran, 0 disagreements"
