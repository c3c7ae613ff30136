#!/usr/bin/env bash
# Compares the benchmarks of two commits, built from git worktrees and run in
# one session, alternating, so that a noisy machine hurts both alike.
#
#   scripts/bench-compare.sh BASE [HEAD] [--rounds N] [--threshold PCT] [--filter REGEX]
#                            [--no-instructions] [--out DIR]
#
# Prints a Markdown table (bench, base, head, ratio, verdict) from criterion's
# statistics and callgrind instruction counts, and the race of each commit
# (its own process, runs alternated; the speed targets judged at both);
# writes it with an SVG chart of
# throughput per backend and peer into DIR (default bench-results/compare-...),
# appends both commits to bench-results/history.jsonl and redraws
# bench-results/history.svg. Exits 1 when an instruction count regresses by
# more than --threshold percent (default 5) where the race does not have the
# head faster in every run (then the clock decides), 2 on a usage or build
# error.
#
# Defaults: HEAD, 3 rounds, the realistic groups (every peer) and our
# backends on the adversarial cases. --rounds 0 counts instructions only
# (the minutes of criterion rounds saved; instruction counts decide anyway).
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/lib/options.sh
source scripts/lib/options.sh
# shellcheck source=scripts/lib/tool.sh
source scripts/lib/tool.sh
repo=$PWD

rounds=3
threshold=5
filter='^(realistic|adversarial/mcp-envelope)'
instructions=1
out=""
positional=()
while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) option_value bench-compare.sh "$1" "${2:-}" whole; rounds="$2"; shift 2 ;;
    --threshold) option_value bench-compare.sh "$1" "${2:-}" number; threshold="$2"; shift 2 ;;
    --filter) option_value bench-compare.sh "$1" "${2:-}"; filter="$2"; shift 2 ;;
    --no-instructions) instructions=0; shift ;;
    --out) option_value bench-compare.sh "$1" "${2:-}"; out="$2"; shift 2 ;;
    -h|--help) script_help "$0"; exit 0 ;;
    -*) echo "bench-compare.sh: unknown option $1" >&2; exit 2 ;;
    *) positional+=("$1"); shift ;;
  esac
done
[ ${#positional[@]} -ge 1 ] || { sed -n '2,18p' "$0" >&2; exit 2; }
base=$(git rev-parse --verify "${positional[0]}^{commit}") || { echo "bench-compare.sh: no commit ${positional[0]}" >&2; exit 2; }
head=$(git rev-parse --verify "${positional[1]:-HEAD}^{commit}") || { echo "bench-compare.sh: no commit ${positional[1]}" >&2; exit 2; }
short_base=$(git rev-parse --short "$base")
short_head=$(git rev-parse --short "$head")
[ -n "$out" ] || out="bench-results/compare-$short_base-$short_head-$(date -u +%Y%m%dT%H%M%SZ)"
mkdir -p "$out"
out=$(cd "$out" && pwd)

if [ "$instructions" = 1 ]; then
  if command -v valgrind >/dev/null; then
    want=$(awk '/^name = "gungraun"$/ {getline; gsub(/[^0-9.]/, ""); print; exit}' Cargo.lock)
    if [ "$(gungraun-runner --version 2>/dev/null | awk '{print $2}')" != "$want" ]; then
      cargo install gungraun-runner --version "$want" --locked >&2
    fi
  else
    echo "bench-compare.sh: no valgrind: wall clock only" >&2
    instructions=0
  fi
fi
if [ "$rounds" = 0 ] && [ "$instructions" = 0 ]; then
  echo "bench-compare.sh: --rounds 0 without instruction counts would measure nothing" >&2
  exit 2
fi

work=$(mktemp -d)
cleanup() {
  git -C "$repo" worktree remove --force "$work/base" >/dev/null 2>&1 || true
  git -C "$repo" worktree remove --force "$work/head" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
# One target folder for both sides, so dependencies build once. Cargo names
# artifacts without regard to the source path, so the second side's build
# overwrites the first side's binaries: each side's executables are copied
# out as soon as they are built.
export CARGO_TARGET_DIR="$repo/target/compare"

declare -A throughput_bin instructions_bin
for side in base head; do
  commit=${!side}
  git -C "$repo" worktree add --detach --quiet "$work/$side" "$commit"
  echo "== building $side ($(git rev-parse --short "$commit"))" >&2
  if ! (cd "$work/$side" && cargo bench -p mcp-envelope-benches --no-run --message-format=json) > "$work/$side.build.json" 2> "$work/$side.build.log"; then
    tail -20 "$work/$side.build.log" >&2
    echo "bench-compare.sh: $side ($commit) does not build its benchmarks" >&2
    exit 2
  fi
  for bench in throughput instructions; do
    exe=$(tool cargo-executable "$work/$side.build.json" "$bench" || true)
    [ -n "$exe" ] || { echo "bench-compare.sh: $side has no $bench benchmark" >&2; exit 2; }
    mkdir -p "$work/bin/$side"
    cp "$exe" "$work/bin/$side/$bench"
    exe="$work/bin/$side/$bench"
    if [ "$bench" = throughput ]; then throughput_bin[$side]=$exe; else instructions_bin[$side]=$exe; fi
  done
done

# The race of each side: its own, or today's harness over its core where it
# has none (built as scripts/bench-history.sh builds it). Its runs alternate
# between the sides below, each in its own process.
declare -A race_bin
for side in base head; do
  if [ ! -f "$work/$side/benches/benches/race.rs" ]; then
    rm -rf "$work/$side/benches" && cp -r "$repo/benches" "$work/$side/benches"
    cp "$repo/Cargo.lock" "$work/$side/Cargo.lock"
    flags="--cfg race_history"
  else
    flags=""
  fi
  # Both worktrees were checked out before the base's race was built, and
  # cargo names both sides' artifacts alike: without this the head's older
  # files would look built already and the head would race the base's binary.
  find "$work/$side" -name .git -prune -o -type f -exec touch {} +
  (cd "$work/$side" && RUSTFLAGS="${RUSTFLAGS:-} $flags" CARGO_TARGET_DIR="$repo/target/compare-race" \
    cargo bench -p mcp-envelope-benches --bench race --no-run --message-format=json) > "$work/$side.race.json" \
    2> "$work/$side.race.log" || { tail -20 "$work/$side.race.log" >&2; echo "bench-compare.sh: $side's race does not build" >&2; exit 2; }
  mkdir -p "$work/bin/$side"
  cp "$(tool cargo-executable "$work/$side.race.json" race)" "$work/bin/$side/race"
  race_bin[$side]="$work/bin/$side/race"
done

declare -A criterion_dirs
mkdir -p "$out/base" "$out/head"
race_runs=$(( rounds > 3 ? rounds : 3 ))
for run in $(seq 1 "$race_runs"); do
  order=(base head)
  [ $((run % 2)) -eq 0 ] && order=(head base)
  for side in "${order[@]}"; do
    echo "== the race, run $run of $race_runs: $side" >&2
    "${race_bin[$side]}" --rounds 11 --json "$out/$side/race-$run.json" > /dev/null
  done
done
tool race-compare --base "$out"/base/race-*.json --head "$out"/head/race-*.json > "$out/race.md"
for round in $(seq 1 "$rounds"); do
  # Alternate which side goes first, so drift over the session cancels out.
  order=(base head)
  [ $((round % 2)) -eq 0 ] && order=(head base)
  for side in "${order[@]}"; do
    echo "== round $round of $rounds: $side" >&2
    dir="$out/$side/criterion-$round"
    (cd "$work/$side/benches" && CRITERION_HOME="$dir" "${throughput_bin[$side]}" --bench --quick --noplot "$filter") \
      > "$out/$side/throughput-$round.log" 2>&1 || { tail -20 "$out/$side/throughput-$round.log" >&2; exit 2; }
    criterion_dirs[$side]="${criterion_dirs[$side]:-} $dir"
  done
done

for side in base head; do
  gungraun=()
  if [ "$instructions" = 1 ]; then
    echo "== instruction counts: $side" >&2
    (cd "$work/$side/benches" && GUNGRAUN_HOME="$out/$side/gungraun" "${instructions_bin[$side]}" --bench --save-summary=json) \
      > "$out/$side/instructions.log" 2>&1 || { tail -20 "$out/$side/instructions.log" >&2; exit 2; }
    gungraun=(--gungraun "$out/$side/gungraun")
  fi
  commit=${!side}
  criterion=()
  # shellcheck disable=SC2206
  [ "$rounds" = 0 ] || criterion=(--criterion ${criterion_dirs[$side]})
  tool collect --commit "$(git rev-parse --short "$commit")" \
    "${criterion[@]}" "${gungraun[@]}" --verdicts "$work/$side/target/bench-verdicts.json" \
    --out "$out/$side.json"
done

if ! git -C "$repo" diff --quiet "$base" "$head" -- corpus benches/src; then
  echo "note: the corpus or its generator differs between the commits; wall-clock ratios compare different inputs" | tee "$out/NOTE" >&2
fi

set +e
tool compare "$out/base.json" "$out/head.json" --threshold "$threshold" --out "$out/report.md" \
  --race-base "$out"/base/race-*.json --race-head "$out"/head/race-*.json
status=$?
set -e
chart="chart: $out/throughput.svg"
if [ "$rounds" = 0 ]; then
  chart="no throughput chart (no criterion rounds)"
else
  tool chart "$out/head.json" --out "$out/throughput.svg"
fi
mkdir -p bench-results
tool history-append "$out/base.json" --history bench-results/history.jsonl --commit "$short_base"
tool history-append "$out/head.json" --history bench-results/history.jsonl --commit "$short_head"
tool history-chart --history bench-results/history.jsonl --out bench-results/history.svg
{
  echo
  echo "## The race (the clock decides the speed targets)"
  echo
  echo "Each commit's race in its own process, $race_runs runs each, alternated; medians of the runs. The race's history, commit by commit: docs/bench/race-history.jsonl and docs/bench/race-*.svg (scripts/bench-history.sh)."
  echo
  cat "$out/race.md"
} >> "$out/report.md"
cat "$out/race.md"
echo >&2
echo "report: $out/report.md; $chart; history: bench-results/history.svg; the race's history: docs/bench/race-history.jsonl" >&2
exit "$status"
