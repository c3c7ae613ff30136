#!/usr/bin/env bash
# The census of real MCP servers: installs the servers scripts/census/
# servers.json lists, pinned, from npm, PyPI (and crates.io with --crates)
# into target/census/, then probes each over stdio, and over Streamable HTTP
# where it offers it, under every revision it accepts, each within a time
# limit, in a network namespace with only loopback where the machine
# allows one (no server reaches any host). Writes docs/census/results.jsonl
# (the probe's JSON lines, each tagged with the server's name, package,
# version, family and library) and the tables of docs/census.md.
#
#   scripts/census.sh [--only NAME,NAME] [--crates] [--jobs N] [--out DIR]
#
# --only probes those servers alone and leaves docs/ as it is (the results
# go to DIR, default target/census/run); so does --out.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/lib/options.sh
source scripts/lib/options.sh
only=""
crates=()
jobs=2
out=""
while [ $# -gt 0 ]; do
  case "$1" in
    --only) option_value census.sh "$1" "${2:-}"; only=$2; shift 2 ;;
    --crates) crates=(--crates); shift ;;
    --jobs) option_value census.sh "$1" "${2:-}" whole; jobs=$2; shift 2 ;;
    --out) option_value census.sh "$1" "${2:-}"; out=$2; shift 2 ;;
    -h|--help) script_help "$0"; exit 0 ;;
    *) echo "census.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
for needed in node npm python3; do
  command -v "$needed" >/dev/null 2>&1 || { echo "census.sh: $needed is needed (the servers run on it)" >&2; exit 2; }
done
docs=1
if [ -n "$only" ] || [ -n "$out" ]; then
  docs=0
fi
[ -n "$out" ] || out=target/census/run
mkdir -p "$out" target/census
install=target/census/servers
cargo build --release --locked -q -p mcp-envelope-cli -p mcp-envelope-tooling
bin=$(pwd)/target/release/mcp-envelope
python3 scripts/census/census.py install --out "$install" ${only:+--only "$only"} "${crates[@]}"
results=$out/results.jsonl
run=(python3 scripts/census/census.py run --out "$install" --bin "$bin" --results "$results"
  --jobs "$jobs" ${only:+--only "$only"} "${crates[@]}")
started=$SECONDS
# Alone on a network with only loopback, when the machine lets this user
# make one; else on this machine's, with a note.
if unshare -n true 2>/dev/null; then
  unshare -n sh -c 'ip link set lo up && exec "$@"' sh "${run[@]}" | tee "$out/run.txt"
else
  echo "census.sh: no network namespace here (unshare -n): the servers run on this machine's network"
  "${run[@]}" | tee "$out/run.txt"
fi
elapsed=$((SECONDS - started))
peak=$(grep -o 'peak memory [0-9]* MiB' "$install/table.md" | tail -1 || true)
peak_note=""
[ -z "$peak" ] || peak_note=", the probe's $peak"
line="Run on $(date -u +%Y-%m-%d) in ${elapsed} s with --jobs $jobs$peak_note."
if [ "$docs" = 1 ]; then
  mkdir -p docs/census
  cp "$results" docs/census/results.jsonl
  target/release/workbench-tool census-report --results docs/census/results.jsonl --run "$line" --docs docs/census.md
  echo "census.sh: docs/census.md and docs/census/results.jsonl written"
else
  target/release/workbench-tool census-report --results "$results" --run "$line" > "$out/tables.md"
  echo "census.sh: $out/results.jsonl and $out/tables.md written"
fi
