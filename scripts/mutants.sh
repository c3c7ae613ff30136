#!/usr/bin/env bash
# Mutation testing of the core (cargo-mutants): each mutant of core/src is
# built and run against the core's tests and the fuzz kit's
# (`cargo test -p mcp-envelope -p mcp-envelope-check`: the properties and
# the regression replay live in check/); prints the score per
# file and fails on a missed mutant not accepted, with its reason, in the
# reviewed file mutants/accepted.txt.
#
#   scripts/mutants.sh [--in-diff BASE] [--shard K/N] [--file PATH]... [--jobs N] [--out DIR]
#                      [--history FILE]
#
# --in-diff BASE   only the mutants of the lines changed since BASE (a pull request)
# --shard K/N      only shard K of N (the nightly job runs them all in parallel)
# --file PATH      only the mutants of PATH (repeatable)
# --jobs N         mutants built and tested at once (default 1)
# --out DIR        where cargo-mutants writes mutants.out (default target/mutants)
# --history FILE   append the score per file to FILE (JSON lines; the
#                  workbench keeps bench-results/mutants-history.jsonl)
#
# Installs cargo-mutants (the version below) and cargo-nextest when they are
# missing. Tests run under nextest in the optimised `mutants` profile
# (.cargo/mutants.toml), each bolero property for 0.5 s rather than 2
# (MCP_ENVELOPE_PROPERTY_SECONDS): about 5 s a mutant, so a full run of
# core/src (2,278 mutants) takes about two hours on two cores, hence the
# shards. Neither change can catch a mutant `cargo test` would miss (nextest
# runs the same tests but the doctests, the properties run shorter), so the
# score is a lower bound on what `cargo test` catches.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/lib/options.sh
source scripts/lib/options.sh
# shellcheck source=scripts/lib/tool.sh
source scripts/lib/tool.sh
MUTANTS_VERSION=27.1.0

args=()
out=target/mutants
diff_base=""
history=()
scope=all
while [ $# -gt 0 ]; do
  case "$1" in
    --in-diff) option_value mutants.sh "$1" "${2:-}"; diff_base=$2; scope=diff; shift 2 ;;
    --shard)
      option_value mutants.sh "$1" "${2:-}"
      [[ $2 =~ ^[0-9]+/[1-9][0-9]*$ ]] || { echo "mutants.sh: --shard takes K/N, not '$2'" >&2; exit 2; }
      args+=(--shard "$2"); scope=$2; shift 2 ;;
    --file) option_value mutants.sh "$1" "${2:-}"; args+=(--file "$2"); scope=files; shift 2 ;;
    --jobs) option_value mutants.sh "$1" "${2:-}" whole; args+=(--jobs "$2"); shift 2 ;;
    --out) option_value mutants.sh "$1" "${2:-}"; out=$2; shift 2 ;;
    --history) option_value mutants.sh "$1" "${2:-}"; history=(--history "$2"); shift 2 ;;
    -h|--help) script_help "$0"; exit 0 ;;
    *) echo "mutants.sh: unknown option $1" >&2; exit 2 ;;
  esac
done

if [ "$(cargo mutants --version 2>/dev/null | awk '{print $2}')" != "$MUTANTS_VERSION" ]; then
  echo "mutants.sh: installing cargo-mutants $MUTANTS_VERSION"
  cargo install cargo-mutants --version "$MUTANTS_VERSION" --locked
fi
if ! cargo nextest --version >/dev/null 2>&1; then
  echo "mutants.sh: installing cargo-nextest"
  cargo install cargo-nextest --locked
fi
export MCP_ENVELOPE_PROPERTY_SECONDS=${MCP_ENVELOPE_PROPERTY_SECONDS:-0.5}
mkdir -p "$out"
if [ -n "$diff_base" ]; then
  git diff "$diff_base" -- core/src > "$out/changes.diff"
  if [ ! -s "$out/changes.diff" ]; then
    echo "mutants.sh: no change to core/src since $diff_base: nothing to mutate"
    exit 0
  fi
  args+=(--in-diff "$out/changes.diff")
fi
# cargo-mutants' own baseline runs only the mutated package's tests; the
# fuzz kit's run with every mutant. Were one of them failing unmutated (a
# stale key in mutants/accepted.txt, say), every mutant would count as
# caught and the score would mean nothing: so both packages' tests run
# here first, unmutated, in the profile the mutants use.
echo "mutants.sh: the tests of both packages, unmutated"
if ! cargo nextest run --cargo-profile mutants --package mcp-envelope --package mcp-envelope-check \
  > "$out/unmutated.log" 2>&1; then
  tail -n 30 "$out/unmutated.log" >&2
  echo "mutants.sh: the tests fail with no mutant applied ($out/unmutated.log): every mutant would count as caught; fix them first" >&2
  exit 1
fi
status=0
cargo mutants --package mcp-envelope --test-package mcp-envelope --test-package mcp-envelope-check --output "$out" "${args[@]}" || status=$?
# 0: all caught; 2: some missed (judged against the reviewed file below);
# 3: timeouts (caught); anything else is the run failing.
case $status in
  0|2|3) ;;
  *) echo "mutants.sh: cargo mutants failed with status $status" >&2; exit "$status" ;;
esac
if [ ${#history[@]} -gt 0 ]; then
  history+=(--commit "$(git rev-parse --short HEAD)" --scope "$scope")
fi
tool mutants "$out/mutants.out/outcomes.json" --accepted mutants/accepted.txt "${history[@]}" | tee "$out/score.md"
