#!/usr/bin/env bash
# Real peers over Streamable HTTP and stdio, directly and through the tap
# (scripts/interop.sh): every session must run, with no failure; so must
# the back-channel sessions (sampling and elicitation, the TypeScript SDK
# pair that samples on the GET stream) and the https ones.
set -euo pipefail
status=0
out=$(scripts/interop.sh --out "$(mktemp -d)") || status=$?
printf '%s\n' "$out"
[ "$status" -eq 0 ] || exit "$status"
case $out in
  "interop: not run: "*) exit 0 ;;
esac
require() {
  printf '%s\n' "$out" | grep -qE "$1" || { echo "interop: $2" >&2; exit 1; }
}
require '^10 sessions, [1-9][0-9]* messages, 0 failures$' "not every session ran clean"
require '^back-channel: [1-9][0-9]* configurations, [1-9][0-9]* sessions each way, [1-9][0-9]* identical, 0 failures ' \
  "not every back-channel session ran clean"
require '^GET-stream sampling, TypeScript SDK client and server: 50 of 50 directly, 50 of 50 through the tap$' \
  "the TypeScript SDK pair did not succeed 50 of 50 both ways"
require '^https: [1-9][0-9]* sessions each way, [1-9][0-9]* identical, and the timed one; 0 findings, 0 invalid, 0 failures$' \
  "not every https session ran clean"
require '^probe: 6 scorecards of the real peers, 0 failures$' \
  "the probe's scorecards of the real peers are not what docs/probe.md shows"
require '^suite: [0-9]+ of its checks beside the probe.s on 3 servers, [0-9]+ cells that differ, 0 failures$' \
  "the suite beside the probe is not what docs/probe.md shows"
require '^suite through the tap: [1-9][0-9]* runs on the fixture server, [1-9][0-9]* with the first run.s outcome; 0 server findings above a warning, 0 failures$' \
  "the conformance suite's outcome changed through the tap"
