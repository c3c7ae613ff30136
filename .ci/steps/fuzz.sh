#!/usr/bin/env bash
# Fuzzing in CI: every target built and run for a smoke budget on nightly,
# and the ClusterFuzzLite build proved outside Docker. (The regression files
# are replayed on stable by `cargo test`, which .ci/run has already run.)
set -euo pipefail
if ! cargo +nightly --version >/dev/null 2>&1; then
  echo "no nightly toolchain: fuzz smoke skipped (regressions were replayed by cargo test)"
  exit 0
fi
scripts/fuzz.sh --time "${FUZZ_SMOKE_SECONDS:-10}" --no-cmin

out=$(mktemp -d)
SRC=$(cd .. && pwd) OUT="$out" .clusterfuzzlite/build.sh
for target in parse_serde parse_simd differential structured stream ids; do
  for file in "$target" "$target.dict"; do
    [ -s "$out/$file" ] || { echo "ClusterFuzzLite build: $file missing from OUT" >&2; exit 1; }
  done
done
ls "$out"/*_seed_corpus.zip >/dev/null
echo "ClusterFuzzLite build.sh: $(ls "$out" | wc -l) files in OUT"
rm -rf "$out"
