#!/usr/bin/env bash
# Every script refuses a missing or malformed option value with a message
# and status 2, before it builds or runs anything.
set -euo pipefail
expect_usage_error() {
  local script=$1 status=0 message
  shift
  message=$("scripts/$script" "$@" 2>&1 >/dev/null) || status=$?
  if [ "$status" != 2 ] || [[ $message != "$script: "* ]]; then
    echo "$script $*: expected a usage error (status 2), got status $status: $message" >&2
    exit 1
  fi
}
expect_usage_error fuzz.sh --time
expect_usage_error fuzz.sh --jobs two
expect_usage_error fuzz.sh --max-len 1.5
expect_usage_error fuzz.sh --table
expect_usage_error fuzz-coverage.sh --table
expect_usage_error bench.sh --rounds
expect_usage_error bench.sh --rounds x
expect_usage_error bench.sh --rounds 0
expect_usage_error bench.sh --out
expect_usage_error workbench.sh --fuzz-time
expect_usage_error workbench.sh --baseline
expect_usage_error workbench.sh --mutants some
expect_usage_error bench-compare.sh HEAD --rounds
expect_usage_error bench-compare.sh HEAD --rounds 1.5
expect_usage_error bench-compare.sh HEAD --threshold
expect_usage_error mutants.sh --shard
expect_usage_error mutants.sh --shard 1-4
expect_usage_error mutants.sh --jobs x
# Instruction counts only (--rounds 0) is a comparison; with them off too,
# nothing would be measured.
expect_usage_error bench-compare.sh HEAD --rounds 0 --no-instructions
# --help prints the script's opening comment and nothing of its code.
for script in bench-compare.sh bench.sh fuzz-coverage.sh fuzz.sh mutants.sh workbench.sh; do
  help=$("scripts/$script" --help) || { echo "$script --help: exit status $?" >&2; exit 1; }
  if [ "$(wc -l <<< "$help")" -lt 3 ] || grep -qE '^(set -|cd |source |#)' <<< "$help"; then
    echo "$script --help: not just its opening comment:" >&2
    echo "$help" >&2
    exit 1
  fi
done
echo "option values: every script refuses a missing or malformed one; --help gives each one's usage"
