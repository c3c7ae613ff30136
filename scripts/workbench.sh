#!/usr/bin/env bash
# The main job, in one command (what nightly CI runs): everything that keeps
# mcp-envelope honest, ending in one Markdown report.
#
#   scripts/workbench.sh [--fuzz-time SECONDS] [--no-fuzz] [--no-bench] [--out DIR]
#                        [--baseline NAME] [--save-baseline NAME] [--mutants diff|K/N|all]
#
# 1. agreement: both backends on every test and corpus file, every revision
#    and framing; any disagreement fails the run;
# 2. fuzzing: every fuzz target for --fuzz-time seconds (default 30), when
#    the nightly toolchain is present;
# 3. benchmarks in quick mode: the race (every contender in one process,
#    rounds interleaved, which judges the speed targets), wall clock and
#    instruction counts;
# 4. comparison with a named baseline (bench-results/baselines/NAME.json):
#    --baseline NAME, by default the nearest baseline saved for a commit
#    at or before the merge base of HEAD with main (on main: before HEAD). A run becomes a baseline only
#    when asked (--save-baseline NAME), or on the main branch when nothing
#    failed or regressed (named after its commit); every run still goes
#    into the history chart;
# 5. mutation testing (scripts/mutants.sh), only when asked, as it takes
#    hours whole: --mutants diff (the lines changed since the merge base
#    with main), K/N (one shard of all), or all; the score per core file,
#    kept in bench-results/mutants-history.jsonl, and the chart of the
#    full runs.
# The report is DIR/report.md (default bench-results/workbench-<time>/).
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/lib/options.sh
source scripts/lib/options.sh
# shellcheck source=scripts/lib/tool.sh
source scripts/lib/tool.sh

fuzz_time=30
baseline=""
save_as=""
mutants=""
fuzz=1
bench=1
out="bench-results/workbench-$(date -u +%Y%m%dT%H%M%SZ)"
while [ $# -gt 0 ]; do
  case "$1" in
    --fuzz-time) option_value workbench.sh "$1" "${2:-}" whole; fuzz_time="$2"; shift 2 ;;
    --no-fuzz) fuzz=0; shift ;;
    --no-bench) bench=0; shift ;;
    --out) option_value workbench.sh "$1" "${2:-}"; out="$2"; shift 2 ;;
    --baseline) option_value workbench.sh "$1" "${2:-}"; baseline="$2"; shift 2 ;;
    --save-baseline) option_value workbench.sh "$1" "${2:-}"; save_as="$2"; shift 2 ;;
    --mutants)
      option_value workbench.sh "$1" "${2:-}"
      [[ $2 =~ ^(diff|all|[0-9]+/[1-9][0-9]*)$ ]] || { echo "workbench.sh: --mutants takes diff, K/N or all, not '$2'" >&2; exit 2; }
      mutants="$2"; shift 2 ;;
    -h|--help) script_help "$0"; exit 0 ;;
    *) echo "workbench: unknown option $1" >&2; exit 2 ;;
  esac
done
mkdir -p "$out"
out=$(cd "$out" && pwd)
report="$out/report.md"
status=0
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
step() { printf '\n== %s\n' "$*" >&2; }

{
  echo "# mcp-envelope workbench report"
  echo
  echo "Commit \`$commit\`, $(date -u +%Y-%m-%dT%H:%M:%SZ), $(tool machine), $(rustc --version)."
  echo
  echo "## 0. Prerequisites"
  echo
  echo "What each step needs, as found before it ran; a step whose tool is missing is reported as not run."
  echo
  tool prerequisites || true
} > "$report"

# ---------------------------------------------------------------- agreement
step "1/4 backend agreement"
cargo build --quiet --release -p mcp-envelope-cli
# Where cargo put it, whatever CARGO_TARGET_DIR or build.target-dir say.
cargo metadata --format-version 1 --no-deps > "$out/metadata.json"
target_dir=$(tool target-dir "$out/metadata.json")
cli=$target_dir/release/mcp-envelope
if [ ! -x "$cli" ]; then
  echo "workbench: the CLI is not at $cli after building it" >&2
  exit 1
fi
{
  echo
  # Every revision and framing over every test and corpus file; a row that
  # could not run says so and fails the run (workbench-tool agreement).
  tool agreement --cli "$cli" --logs "$out" || status=1
} >> "$report"

# ---------------------------------------------------------------- fuzzing
{
  echo
  echo "## 2. Fuzzing"
  echo
} >> "$report"
if [ "$fuzz" = 1 ] && cargo +nightly --version >/dev/null 2>&1; then
  step "2/4 fuzzing every target for ${fuzz_time}s"
  if scripts/fuzz.sh --time "$fuzz_time" --table "$out/fuzz-table.md" >&2; then
    echo "Every target ran ${fuzz_time} s with the dictionary; no failure." >> "$report"
  else
    status=1
    echo "**A target failed**: the minimised input is in \`fuzz/regressions/<target>/\` (see its NOTES.md)." >> "$report"
  fi
  echo >> "$report"
  cat "$out/fuzz-table.md" >> "$report" 2>/dev/null || echo "(no table: the fuzz build failed; see target/fuzz-logs/)" >> "$report"
else
  if [ "$fuzz" = 1 ]; then
    status=1
    echo "**Not run**: no nightly toolchain (\`rustup toolchain install nightly\`)." >> "$report"
  else
    echo "Not run: --no-fuzz." >> "$report"
  fi
fi

# ---------------------------------------------------------------- benchmarks
if [ "$bench" = 1 ]; then
  step "3/4 benchmarks (quick)"
  if [ -z "$baseline" ]; then
    # The nearest saved baseline at or before the commit this work started
    # from: the merge base with main, or on main the commit before HEAD.
    from=$(git merge-base HEAD main 2>/dev/null || git rev-parse HEAD)
    [ "$(git rev-parse --abbrev-ref HEAD 2>/dev/null)" = main ] && from=$(git rev-parse HEAD^ 2>/dev/null || echo "$from")
    baseline=$(git rev-parse --short "$from")
    for c in $(git rev-list --first-parent --max-count=500 "$from" 2>/dev/null); do
      short=$(git rev-parse --short "$c")
      if [ -f "bench-results/baselines/$short.json" ]; then
        baseline=$short
        break
      fi
    done
  fi
  previous=bench-results/baselines/$baseline.json
  scripts/bench.sh --quick --out "$out/bench" > /dev/null
  {
    echo
    echo "## 3. Benchmarks (quick mode)"
    echo
    echo "### The race: every contender in one process, rounds interleaved (the speed targets are judged here)"
    echo
    echo "\`cargo bench -p mcp-envelope-benches --bench race\` at $commit. The history of the race, commit by commit: [docs/bench/race-history.jsonl](../../docs/bench/race-history.jsonl), charted in \`docs/bench/race-*.svg\` (\`scripts/bench-history.sh\`)."
    cat "$out/bench/race.md"
    echo
    echo "![the race on small messages, commit by commit](../../docs/bench/race-realistic-small.svg)"
    echo
    echo "### Criterion and instruction counts"
    echo
    echo "![throughput per backend and peer](bench/throughput.svg)"
    echo
    echo "Where a message's time goes on the default backend, stage by stage: each stage measured as the pipeline up to it (UTF-8 alone, then \`check_json\`'s grammar, then the tape, then the whole verdict), and its share of the whole."
    echo
    echo "![where a message's time goes, stage by stage](bench/stages.svg)"
    echo
    cat "$out/bench/stages.md"
    echo
    cat "$out/bench/table.md"
    echo
    echo "## 4. Against the baseline \`$baseline\`"
    echo
  } >> "$report"
  step "4/4 comparison with the baseline $baseline"
  if [ -f "$previous" ]; then
    set +e
    tool compare --saved-baseline "$previous" "$out/bench/results.json" --out "$out/compare.md" > /dev/null
    rc=$?
    set -e
    [ "$rc" -ne 0 ] && status=1
    echo "Baseline: \`$previous\`." >> "$report"
    echo >> "$report"
    sed '1,/^$/d' "$out/compare.md" >> "$report"
  else
    echo "Not compared: there is no baseline \`$baseline\` (\`$previous\`). Save one with \`--save-baseline $baseline\` on that commit." >> "$report"
  fi
  branch=$(git rev-parse --abbrev-ref HEAD 2>/dev/null || echo "")
  if [ -z "$save_as" ] && [ "$branch" = main ] && [ "$status" = 0 ]; then
    save_as=$commit
  fi
  if [ -n "$save_as" ]; then
    mkdir -p bench-results/baselines
    cp "$out/bench/results.json" "bench-results/baselines/$save_as.json"
    printf '\nThis run was saved as the baseline `%s`.\n' "$save_as" >> "$report"
  fi
  tool history-append "$out/bench/results.json" --history bench-results/history.jsonl --commit "$commit"
  tool history-chart --history bench-results/history.jsonl --out bench-results/history.svg
fi

{
  echo
  echo "## 5. Mutation testing"
  echo
} >> "$report"
if [ -z "$mutants" ]; then
  echo "Not run: it takes hours whole; \`--mutants diff\`, \`--mutants K/N\` or \`--mutants all\` (the nightly mutants workflow runs every shard)." >> "$report"
else
  step "mutation testing ($mutants)"
  mutant_args=(--out "$out/mutants" --history bench-results/mutants-history.jsonl)
  case $mutants in
    diff) mutant_args+=(--in-diff "$(git merge-base HEAD main 2>/dev/null || git rev-parse HEAD~1)") ;;
    all) ;;
    *) mutant_args+=(--shard "$mutants") ;;
  esac
  echo "\`scripts/mutants.sh ${mutant_args[*]}\`; a mutant counts as caught when the core's tests (\`cargo nextest run -p mcp-envelope\`, the doctests aside) fail or time out. The history chart shows every full run (\`--mutants all\`) this machine kept." >> "$report"
  echo >> "$report"
  if scripts/mutants.sh "${mutant_args[@]}" > "$out/mutants.log" 2>&1; then :; else status=1; fi
  if [ -f "$out/mutants/score.md" ]; then
    cat "$out/mutants/score.md" >> "$report"
  else
    tail -5 "$out/mutants.log" >> "$report"
  fi
  tool mutants-chart --history bench-results/mutants-history.jsonl --out "$out/mutants-history.svg"
  printf '\n![mutants caught, full run by full run](mutants-history.svg)\n' >> "$report"
fi

cat "$report"
echo >&2
echo "report: $report" >&2
exit "$status"
