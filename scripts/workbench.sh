#!/usr/bin/env bash
# The main job, in one command: everything that keeps mcp-envelope honest,
# ending in one Markdown report.
#
#   scripts/workbench.sh [--out DIR]
#
# Steps: build the CLI; run both backends over every test file and corpus
# file under every revision and framing, and count any disagreement.
set -euo pipefail
cd "$(dirname "$0")/.."

out="bench-results/workbench-$(date -u +%Y%m%dT%H%M%SZ)"
while [ $# -gt 0 ]; do
  case "$1" in
    --out) out="$2"; shift 2 ;;
    -h|--help) sed -n '2,9p' "$0"; exit 0 ;;
    *) echo "workbench: unknown option $1" >&2; exit 2 ;;
  esac
done
mkdir -p "$out"
report="$out/report.md"
status=0

echo "== building the CLI (release)" >&2
cargo build --quiet --release -p mcp-envelope-cli
cli=target/release/mcp-envelope

mapfile -t files < <(find testdata/jsontestsuite/test_parsing testdata/mcp-spec/2026-07-28/examples \
  testdata/github-mcp-server-toolsnaps corpus -type f ! -name LICENSE ! -name '*.md' 2>/dev/null | sort)

{
  echo "# mcp-envelope workbench report"
  echo
  echo "Commit \`$(git rev-parse --short HEAD 2>/dev/null || echo unknown)\`, $(date -u +%Y-%m-%dT%H:%M:%SZ), $(nproc) cores, $(rustc --version)."
  echo
  echo "## Backend agreement"
  echo
  echo "Both backends (serde_json, simd-json) on ${#files[@]} files: JSONTestSuite, the MCP examples, the GitHub tool definitions and the corpus."
  echo
  echo "| revision | framing | messages | invalid | disagreements |"
  echo "|---|---|---|---|---|"
} > "$report"

for revision in 2024-11-05 2025-03-26 2025-06-18 2025-11-25 2026-07-28 jsonrpc; do
  for framing in whole lines; do
    echo "== agreement: $revision, $framing" >&2
    set +e
    "$cli" check --backend both --format json --framing "$framing" --revision "$revision" "${files[@]}" > "$out/agreement-$revision-$framing.jsonl"
    rc=$?
    set -e
    [ "$rc" -ge 2 ] && status=1
    python3 - "$out/agreement-$revision-$framing.jsonl" "$revision" "$framing" >> "$report" <<'PY'
import json, sys
path, revision, framing = sys.argv[1:4]
lines = [json.loads(l) for l in open(path, encoding="utf-8")]
invalid = sum(1 for l in lines if l["kind"] == "invalid")
disagree = sum(1 for l in lines if l.get("disagreement"))
print(f"| {revision} | {framing} | {len(lines)} | {invalid} | {disagree} |")
PY
  done
done

cat "$report"
echo >&2
echo "report: $report" >&2
exit "$status"
