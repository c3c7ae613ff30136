#!/usr/bin/env bash
# Three servers of the census (scripts/census.sh), one from each of three
# families, installed pinned and probed over stdio under every revision
# each accepts: the command stays alive between its nightly runs.
set -euo pipefail
for needed in node npm python3; do
  if ! command -v "$needed" >/dev/null 2>&1; then
    echo "census: not run: $needed is not installed (the servers run on it)"
    exit 0
  fi
done
out=$(mktemp -d)
log=$(scripts/census.sh --only server-memory,py-time,calculator --out "$out" 2>&1) || { printf '%s\n' "$log"; exit 1; }
printf '%s\n' "$log"
# Each server probed under at least one revision, none left unprobed.
python3 - "$out/results.jsonl" <<'PY'
import json, sys
lines = [json.loads(line) for line in open(sys.argv[1], encoding="utf-8")]
unreachable = [line for line in lines if "unreachable" in line]
carded = {line["name"] for line in lines if "summary" in line}
missing = {"server-memory", "py-time", "calculator"} - carded
for line in unreachable:
    print(f"census: {line['name']} ({line['transport']}) not probed: {line['unreachable']}", file=sys.stderr)
for name in sorted(missing):
    print(f"census: no scorecard for {name}", file=sys.stderr)
sys.exit(1 if unreachable or missing else 0)
PY
