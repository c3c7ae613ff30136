#!/usr/bin/env bash
# Real peers over Streamable HTTP and stdio, directly and through the tap
# (scripts/interop.sh): every session must run, with no failure.
set -euo pipefail
status=0
out=$(scripts/interop.sh --out "$(mktemp -d)") || status=$?
printf '%s\n' "$out"
[ "$status" -eq 0 ] || exit "$status"
case $out in
  "interop: not run: "*) exit 0 ;;
esac
printf '%s\n' "$out" | grep -qE '^10 sessions, [1-9][0-9]* messages, 0 failures$' ||
  { echo "interop: not every session ran clean" >&2; exit 1; }
