#!/usr/bin/env bash
# Fuzzing in CI: every target built and run for a smoke budget on nightly,
# fork mode (what the nightly workflow runs) on two targets, and the
# ClusterFuzzLite build proved outside Docker. (The regression files are
# replayed on stable by `cargo test`, which .ci/run has already run.)
set -euo pipefail
if ! cargo +nightly --version >/dev/null 2>&1; then
  echo "no nightly toolchain: fuzz smoke skipped (regressions were replayed by cargo test)"
  exit 0
fi
# shellcheck source=scripts/lib/fuzz-targets.sh
source scripts/lib/fuzz-targets.sh
tables=$(mktemp -d)
trap 'rm -rf "$tables"' EXIT

# Each table row must show inputs that really ran: a number above zero.
ran_rows() {
  awk -F'|' 'NR > 2 && $3 + 0 > 0 && $3 ~ /^ *[0-9]+ *$/' "$1" | wc -l
}

scripts/fuzz.sh --time "${FUZZ_SMOKE_SECONDS:-10}" --no-cmin --table "$tables/single.md"
cat "$tables/single.md"
want=$(fuzz_targets | wc -l)
[ "$(ran_rows "$tables/single.md")" -eq "$want" ] || { echo "fuzz smoke: not every target ran" >&2; exit 1; }
# A target fuzzed without AddressSanitizer must show its corpus replayed
# under it, with figures read from that replay.
while IFS=$'\t' read -r target sanitizer _; do
  [ "$sanitizer" = address ] && continue
  grep -qE "^\| $target \|.*\| $sanitizer(, comparisons untraced)?; corpus replayed under address: [1-9][0-9]* runs, [1-9][0-9]* edges \|$" \
    "$tables/single.md" || { echo "fuzz smoke: $target's corpus was not replayed under AddressSanitizer" >&2; exit 1; }
done < <(fuzz_target_sanitizers)

# Fork mode, as the nightly job runs it: both targets must run and report.
scripts/fuzz.sh --time 5 --jobs 2 --no-cmin --table "$tables/fork.md" parse_serde differential
cat "$tables/fork.md"
[ "$(ran_rows "$tables/fork.md")" -eq 2 ] || { echo "fuzz smoke: fork mode did not run both targets" >&2; exit 1; }

out=$(mktemp -d)
SRC=$(cd .. && pwd) OUT="$out" .clusterfuzzlite/build.sh
for target in $(fuzz_targets); do
  for file in "$target" "$target.dict"; do
    [ -s "$out/$file" ] || { echo "ClusterFuzzLite build: $file missing from OUT" >&2; exit 1; }
  done
done
ls "$out"/*_seed_corpus.zip >/dev/null
echo "ClusterFuzzLite build.sh: $(ls "$out" | wc -l) files in OUT"
rm -rf "$out"
