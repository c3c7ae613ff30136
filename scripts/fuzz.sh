#!/usr/bin/env bash
# Runs the fuzz targets on nightly with the dictionary; on a failure,
# minimises the input into fuzz/regressions/<target>/ with a note, and exits
# non-zero. Ends with a table: target, runs, execs/s, coverage edges, corpus
# size, failures, sanitizer (with the AddressSanitizer replay's figures for
# a target built without it).
#
#   scripts/fuzz.sh [--time SECONDS] [--jobs N] [--max-len BYTES] [--table FILE] [--no-cmin] [TARGET...]
#
# Defaults: 60 seconds per target, 1 job, every target of fuzz/Cargo.toml.
# Each target is built with AddressSanitizer unless fuzz/Cargo.toml names
# another sanitizer for it (`structured`, `stream`, `sse` and `grade` run
# without one, `sse` with comparisons untraced as well); the corpus of
# such a target is replayed under AddressSanitizer after its run, and a
# failure there fails the target like a failure while fuzzing.
# With --jobs N > 1, libFuzzer's fork mode runs N processes per target;
# crashes, timeouts and running out of memory stop it, as in one process.
# Every target runs even when an earlier one failed; the exit status is 1 if
# any failed or if its figures could not be read from libFuzzer's log. The
# working corpus is fuzz/corpus/<target>/ (not committed): seeded from
# fuzz/regressions, the JSONTestSuite files, the MCP examples and corpus/,
# kept small with `cargo fuzz cmin` after each run.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/lib/options.sh
source scripts/lib/options.sh

time_budget=60
jobs=1
max_len=16384
table_out=""
cmin=1
targets=()
# shellcheck source=scripts/lib/fuzz-targets.sh
source scripts/lib/fuzz-targets.sh
mapfile -t all_targets < <(fuzz_targets)
[ ${#all_targets[@]} -gt 0 ] || { echo "fuzz.sh: no fuzz targets found in fuzz/Cargo.toml" >&2; exit 2; }
while [ $# -gt 0 ]; do
  case "$1" in
    --time) option_value fuzz.sh "$1" "${2:-}" whole; time_budget="$2"; shift 2 ;;
    --jobs) option_value fuzz.sh "$1" "${2:-}" whole; jobs="$2"; shift 2 ;;
    --max-len) option_value fuzz.sh "$1" "${2:-}" whole; max_len="$2"; shift 2 ;;
    --table) option_value fuzz.sh "$1" "${2:-}"; table_out="$2"; shift 2 ;;
    --no-cmin) cmin=0; shift ;;
    -h|--help) script_help "$0"; exit 0 ;;
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

declare -A sanitizer trace
while IFS=$'\t' read -r name chosen traced; do
  sanitizer[$name]=$chosen
  trace[$name]=$traced
done < <(fuzz_target_sanitizers)
[ ${#sanitizer[@]} -eq ${#all_targets[@]} ] || { echo "fuzz.sh: could not read each target's sanitizer from fuzz/Cargo.toml" >&2; exit 2; }

# A target on another sanitizer is built into a folder of its own under
# cargo's target folder for fuzz/ (wherever CARGO_TARGET_DIR puts it), so
# the two builds do not rebuild each other's dependencies.
cargo +nightly metadata --manifest-path fuzz/Cargo.toml --format-version 1 --no-deps > "$logs/fuzz-metadata.json"
fuzz_target_dir=$(tool target-dir "$logs/fuzz-metadata.json")

# Sets `flags` to the options of every cargo fuzz command built with
# sanitizer $1, comparisons traced unless $2 is `no-trace`. A build other
# than the default gets a folder of its own.
flags_for() {
  flags=(-O --debug-assertions)
  local folder=""
  [ "$1" = address ] || { flags+=(--sanitizer "$1"); folder="sanitizer-$1"; }
  [ "${2:-trace}" = trace ] || { flags+=(--no-trace-compares); folder="${folder:-sanitizer-address}-no-trace"; }
  [ -z "$folder" ] || flags+=(--target-dir "$fuzz_target_dir/$folder")
}

echo "== building the fuzz targets" >&2
# Every target with AddressSanitizer: the others replay their corpora on it.
flags_for address
cargo +nightly fuzz build "${flags[@]}" >&2
for target in "${targets[@]}"; do
  [ "${sanitizer[$target]}" = address ] && [ "${trace[$target]}" = trace ] && continue
  echo "== building $target with sanitizer ${sanitizer[$target]}, comparisons: ${trace[$target]}" >&2
  flags_for "${sanitizer[$target]}" "${trace[$target]}"
  cargo +nightly fuzz build "${flags[@]}" "$target" >&2
done

# What a failed run said: the panic message with all its lines (up to
# Rust's "note:" line), else libFuzzer's own error line.
panic_message() {
  local text
  text=$(awk '/panicked at/ {on = 1} on && /^note: |^==[0-9]+==|^stack backtrace/ {exit} on {print}' "$1" |
    sed -e "s/^thread .* panicked at /panicked at /" -e "s#$PWD/##" | head -40)
  [ -n "$text" ] || text=$(grep -m1 -E "ERROR: libFuzzer|ERROR: AddressSanitizer|deadly signal|timeout|out-of-memory" "$1" || true)
  printf '%s' "${text:-failure (no panic message in the log)}"
}

# Records a failure of target $1 whose libFuzzer log is $2 (exit status
# $3): says what failed, minimises the input into fuzz/regressions/<target>/
# and adds its note. The cargo fuzz options are those in `flags`, the ones
# the failing run had.
record_failure() {
  local target=$1 log=$2 rc=$3 artifact what minimised name said notes
  status=1
  failures[$target]=1
  artifact=$(grep -oE 'fuzz/artifacts/[^ ]+' "$log" | tail -1 || true)
  # No artifact (the target did not build, say) must not end the script.
  [ -n "$artifact" ] || artifact=$(grep -oE "Test unit written to [^ ]+" "$log" | tail -1 | awk '{print $5}' || true)
  what=$(panic_message "$log")
  grep -q "^error: could not compile" "$log" && what="the target did not build: $(grep -m1 '^error' "$log")"
  echo "!! $target failed (exit status $rc): $what" >&2
  [ -n "$artifact" ] && [ -f "$artifact" ] || return 0
  echo "== minimising $artifact" >&2
  cargo +nightly fuzz tmin "${flags[@]}" "$target" "$artifact" -- -runs=2000 > "$logs/$target.tmin.log" 2>&1 || true
  minimised=$(grep -oE 'fuzz/artifacts/[^ ]*minimized[^ ]*' "$logs/$target.tmin.log" | tail -1 || true)
  [ -n "$minimised" ] && [ -f "$minimised" ] || minimised=$artifact
  mkdir -p "fuzz/regressions/$target"
  name="$(date -u +%Y%m%d)-$(git hash-object "$minimised" | cut -c1-12)"
  cp "$minimised" "fuzz/regressions/$target/$name"
  # The note quotes the minimised input and what the check said about
  # it (the whole panic message: a disagreement names both verdicts).
  cargo +nightly fuzz run "${flags[@]}" "$target" "fuzz/regressions/$target/$name" \
    > "$logs/$target.replay.log" 2>&1 || true
  said=$(panic_message "$logs/$target.replay.log")
  [ "$said" != "failure (no panic message in the log)" ] || said=$what
  notes="fuzz/regressions/$target/NOTES.md"
  [ -f "$notes" ] || printf '# Regressions for %s\n\nEach file is an input that once failed; `cargo test` replays it.\n\n' "$target" > "$notes"
  {
    printf -- '- `%s` (found by scripts/fuzz.sh on %s): input `%s`\n\n' "$name" "$(date -u +%Y-%m-%d)" \
      "$(head -c 300 "fuzz/regressions/$target/$name" | cat -v | sed ':a;N;$!ba;s/\n/\\n/g')"
    printf '%s\n' "$said" | sed 's/^/      /'
    echo
  } >> "$notes"
  echo "== saved fuzz/regressions/$target/$name; reproduce: cargo +nightly fuzz run $target fuzz/regressions/$target/$name" >&2
}

declare -A runs execs cov corpus_size failures sanitizer_note
status=0
for target in "${targets[@]}"; do
  prepare_corpus "$target"
  log="$logs/$target.log"
  chosen=${sanitizer[$target]}
  echo "== fuzzing $target for ${time_budget}s ($jobs job(s), sanitizer $chosen); log: $log" >&2
  fork=()
  # Fork mode ignores timeouts and running out of memory unless told not to.
  [ "$jobs" -gt 1 ] && fork=(-fork="$jobs" -ignore_crashes=0 -ignore_timeouts=0 -ignore_ooms=0)
  flags_for "$chosen" "${trace[$target]}"
  set +e
  cargo +nightly fuzz run "${flags[@]}" "$target" "fuzz/corpus/$target" -- \
    -dict=fuzz/mcp.dict -max_total_time="$time_budget" -max_len="$max_len" -timeout=10 \
    -rss_limit_mb=4096 -print_final_stats=1 "${fork[@]}" > "$log" 2>&1
  rc=$?
  set -e
  if figures=$(libfuzzer_stats "$log"); then
    read -r n e c <<< "$figures"
    runs[$target]=$n; execs[$target]=$e; cov[$target]=$c
  else
    # No figures means no evidence that anything ran: a failure.
    status=1
    runs[$target]="unread"; execs[$target]="unread"; cov[$target]="unread"
  fi
  failures[$target]=0
  [ "$rc" -eq 0 ] || record_failure "$target" "$log" "$rc"
  if [ "$cmin" = 1 ]; then
    echo "== minimising the corpus of $target" >&2
    cargo +nightly fuzz cmin "${flags[@]}" "$target" "fuzz/corpus/$target" -- -max_len="$max_len" \
      > "$logs/$target.cmin.log" 2>&1 || true
  fi
  [ "${trace[$target]}" = trace ] || chosen="$chosen, comparisons untraced"
  sanitizer_note[$target]=$chosen
  if [ "${sanitizer[$target]}" != address ] && [ "${failures[$target]}" = 0 ]; then
    # Every input the run kept, once more under AddressSanitizer: what it
    # would have caught in the code those inputs reach is caught here.
    replay_log="$logs/$target.address.log"
    echo "== replaying the corpus of $target under AddressSanitizer; log: $replay_log" >&2
    flags_for address
    set +e
    cargo +nightly fuzz run "${flags[@]}" "$target" "fuzz/corpus/$target" -- \
      -runs=0 -max_len="$max_len" -timeout=10 -rss_limit_mb=4096 > "$replay_log" 2>&1
    rc=$?
    set -e
    if [ "$rc" -ne 0 ]; then
      record_failure "$target" "$replay_log" "$rc"
      sanitizer_note[$target]="$chosen; corpus replay under address failed: $replay_log"
    elif figures=$(libfuzzer_stats "$replay_log"); then
      # The edges the corpus reaches in the AddressSanitizer build compare
      # with the other targets' figures; the run's own count does not (the
      # builds instrument different code).
      read -r replayed _ replay_cov <<< "$figures"
      sanitizer_note[$target]="$chosen; corpus replayed under address: $replayed runs, $replay_cov edges"
    else
      status=1
      failures[$target]=1
      sanitizer_note[$target]="$chosen; corpus replayed under address: unread runs, unread edges"
    fi
  fi
  corpus_size[$target]=$(find "fuzz/corpus/$target" -type f | wc -l)
done

table() {
  echo "| target | runs | execs/s | coverage edges | corpus size | failures | sanitizer |"
  echo "|---|---|---|---|---|---|---|"
  for target in "${targets[@]}"; do
    echo "| $target | ${runs[$target]} | ${execs[$target]} | ${cov[$target]} | ${corpus_size[$target]} | ${failures[$target]} | ${sanitizer_note[$target]} |"
  done
}
echo
table
[ -n "$table_out" ] && table > "$table_out"
exit "$status"
