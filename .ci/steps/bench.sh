#!/usr/bin/env bash
# Benchmarks in CI: every group of both suites once, in smoke mode, with
# each contender's answers checked before it would be timed.
set -euo pipefail
want=$(awk '/^name = "gungraun"$/ {getline; gsub(/[^0-9.]/, ""); print; exit}' Cargo.lock)
if [ "$(gungraun-runner --version 2>/dev/null | awk '{print $2}')" != "$want" ]; then
  cargo install gungraun-runner --version "$want" --locked
fi
# Here the instruction-count suite must run, not say what it lacks.
MCP_ENVELOPE_REQUIRE_INSTRUCTIONS=1 cargo bench -- --test

