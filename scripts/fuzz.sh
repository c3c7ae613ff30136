#!/usr/bin/env bash
# Runs the fuzz targets on nightly with the dictionary; on a failure,
# minimises the input into fuzz/regressions/<target>/ with a note, and exits
# non-zero. Ends with a table: target, runs, execs/s, coverage edges, corpus
# size, failures.
#
#   scripts/fuzz.sh [--time SECONDS] [--jobs N] [--max-len BYTES] [--table FILE] [--no-cmin] [TARGET...]
#
# Defaults: 60 seconds per target, 1 job, every target. The working corpus
# is fuzz/corpus/<target>/ (not committed): seeded from fuzz/regressions,
# the JSONTestSuite files, the MCP examples and corpus/, kept small with
# `cargo fuzz cmin` after each run.
set -euo pipefail
cd "$(dirname "$0")/.."

time_budget=60
jobs=1
max_len=16384
table_out=""
cmin=1
targets=()
all_targets=(parse_serde parse_simd differential structured stream ids)
while [ $# -gt 0 ]; do
  case "$1" in
    --time) time_budget="$2"; shift 2 ;;
    --jobs) jobs="$2"; shift 2 ;;
    --max-len) max_len="$2"; shift 2 ;;
    --table) table_out="$2"; shift 2 ;;
    --no-cmin) cmin=0; shift ;;
    -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
    -*) echo "fuzz.sh: unknown option $1" >&2; exit 2 ;;
    *) targets+=("$1"); shift ;;
  esac
done
[ ${#targets[@]} -gt 0 ] || targets=("${all_targets[@]}")
for t in "${targets[@]}"; do
  [ -f "fuzz/fuzz_targets/$t.rs" ] || { echo "fuzz.sh: no target $t (have: ${all_targets[*]})" >&2; exit 2; }
done

if ! cargo +nightly --version >/dev/null 2>&1; then
  echo "fuzz.sh: the nightly toolchain is needed (rustup toolchain install nightly)" >&2
  exit 2
fi
if ! cargo fuzz --version >/dev/null 2>&1; then
  echo "== installing cargo-fuzz" >&2
  cargo install cargo-fuzz --locked
fi
# cargo-fuzz adds its own flags; warnings-as-errors from a caller's
# environment must not break an instrumented build.
unset RUSTFLAGS

logs=target/fuzz-logs
mkdir -p "$logs"

# shellcheck source=scripts/lib/fuzz-corpus.sh
source scripts/lib/fuzz-corpus.sh

echo "== building the fuzz targets" >&2
cargo +nightly fuzz build -O --debug-assertions >&2

declare -A runs execs cov corpus_size failures
status=0
for target in "${targets[@]}"; do
  prepare_corpus "$target"
  log="$logs/$target.log"
  echo "== fuzzing $target for ${time_budget}s ($jobs job(s)); log: $log" >&2
  fork=()
  [ "$jobs" -gt 1 ] && fork=(-fork="$jobs" -ignore_crashes=0)
  set +e
  cargo +nightly fuzz run -O --debug-assertions "$target" "fuzz/corpus/$target" -- \
    -dict=fuzz/mcp.dict -max_total_time="$time_budget" -max_len="$max_len" -timeout=10 \
    -rss_limit_mb=4096 -print_final_stats=1 "${fork[@]}" > "$log" 2>&1
  rc=$?
  set -e
  runs[$target]=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | awk '{s+=$2} END {print s+0}')
  execs[$target]=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$log" | awk '{s+=$2} END {print s+0}')
  cov[$target]=$(grep -oE 'cov: [0-9]+' "$log" | tail -1 | awk '{print $2+0}')
  failures[$target]=0
  if [ "$rc" -ne 0 ]; then
    status=1
    failures[$target]=1
    artifact=$(grep -oE 'fuzz/artifacts/[^ ]+' "$log" | tail -1 || true)
    [ -n "$artifact" ] || artifact=$(grep -oE "Test unit written to [^ ]+" "$log" | tail -1 | awk '{print $5}')
    what=$(grep -m1 -A1 -E "panicked at" "$log" | tail -1 | cut -c1-160 || true)
    [ -n "$what" ] || what=$(grep -m1 -E "ERROR: libFuzzer|ERROR: AddressSanitizer|deadly signal|timeout" "$log" | cut -c1-160 || echo "failure")
    echo "!! $target failed: $what" >&2
    if [ -n "$artifact" ] && [ -f "$artifact" ]; then
      echo "== minimising $artifact" >&2
      cargo +nightly fuzz tmin -O --debug-assertions "$target" "$artifact" -- -runs=2000 > "$logs/$target.tmin.log" 2>&1 || true
      minimised=$(grep -oE 'fuzz/artifacts/[^ ]*minimized[^ ]*' "$logs/$target.tmin.log" | tail -1 || true)
      [ -n "$minimised" ] && [ -f "$minimised" ] || minimised=$artifact
      mkdir -p "fuzz/regressions/$target"
      name="$(date -u +%Y%m%d)-$(sha1sum "$minimised" | cut -c1-12)"
      cp "$minimised" "fuzz/regressions/$target/$name"
      notes="fuzz/regressions/$target/NOTES.md"
      [ -f "$notes" ] || printf '# Regressions for %s\n\nEach file is an input that once failed; `cargo test` replays it.\n\n' "$target" > "$notes"
      printf -- '- `%s`: %s (found by scripts/fuzz.sh)\n' "$name" "$what" >> "$notes"
      echo "== saved fuzz/regressions/$target/$name; reproduce: cargo +nightly fuzz run $target fuzz/regressions/$target/$name" >&2
    fi
  fi
  if [ "$cmin" = 1 ]; then
    echo "== minimising the corpus of $target" >&2
    cargo +nightly fuzz cmin -O --debug-assertions "$target" "fuzz/corpus/$target" -- -max_len="$max_len" \
      > "$logs/$target.cmin.log" 2>&1 || true
  fi
  corpus_size[$target]=$(find "fuzz/corpus/$target" -type f | wc -l)
done

table() {
  echo "| target | runs | execs/s | coverage edges | corpus size | failures |"
  echo "|---|---|---|---|---|---|"
  for target in "${targets[@]}"; do
    echo "| $target | ${runs[$target]} | ${execs[$target]} | ${cov[$target]:-0} | ${corpus_size[$target]} | ${failures[$target]} |"
  done
}
echo
table
[ -n "$table_out" ] && table > "$table_out"
exit "$status"
