#!/usr/bin/env bash
# Benchmarks in CI: every group of both suites once, in smoke mode, with
# each contender's answers checked before it would be timed.
set -euo pipefail
want=$(awk '/^name = "gungraun"$/ {getline; gsub(/[^0-9.]/, ""); print; exit}' Cargo.lock)
if [ "$(gungraun-runner --version 2>/dev/null | awk '{print $2}')" != "$want" ]; then
  cargo install gungraun-runner --version "$want" --locked
fi
cargo bench -- --test

# bench-compare.sh refuses what it cannot measure before it builds anything.
expect_usage_error() {
  local status=0 message
  message=$(scripts/bench-compare.sh "$@" 2>&1 >/dev/null) || status=$?
  if [ "$status" != 2 ] || [[ $message != "bench-compare.sh: "* ]]; then
    echo "bench-compare.sh $*: expected a usage error (status 2), got status $status: $message" >&2
    exit 1
  fi
}
expect_usage_error HEAD --rounds
expect_usage_error HEAD --rounds x
expect_usage_error HEAD --threshold
expect_usage_error HEAD --rounds 0 --no-instructions
echo "bench-compare.sh: usage errors checked"
