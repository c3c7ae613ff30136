#!/usr/bin/env bash
# Runs the benchmarks: criterion wall-clock throughput (our backends and the
# peers, same messages, same run) and callgrind instruction counts; collects
# them into one results file and prints the table.
#
#   scripts/bench.sh [--quick] [--save NAME] [--no-instructions] [--out DIR] [--rounds N]
#
# --quick          criterion's quick mode (a few seconds a benchmark)
# --save NAME      also keep the results as bench-results/baselines/NAME.json
#                  (the workbench compares against the last saved baseline)
# --no-instructions  skip the valgrind suite
# --out DIR        where results go (default bench-results/run-<time>)
# --rounds N       run the wall-clock suite N times and keep the median (default 1)
#
# Needs valgrind for the instruction counts; installs gungraun-runner (the
# version in Cargo.lock) when it is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/lib/options.sh
source scripts/lib/options.sh
# shellcheck source=scripts/lib/tool.sh
source scripts/lib/tool.sh

quick=()
save=""
instructions=1
rounds=1
out="bench-results/run-$(date -u +%Y%m%dT%H%M%SZ)"
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) quick=(--quick); shift ;;
    --save) option_value bench.sh "$1" "${2:-}"; save="$2"; shift 2 ;;
    --no-instructions) instructions=0; shift ;;
    --out) option_value bench.sh "$1" "${2:-}"; out="$2"; shift 2 ;;
    --rounds) option_value bench.sh "$1" "${2:-}" whole; rounds="$2"; shift 2 ;;
    -h|--help) script_help "$0"; exit 0 ;;
    *) echo "bench.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
[ "$rounds" -ge 1 ] || { echo "bench.sh: --rounds takes 1 or more (instruction counts alone: bench-compare.sh --rounds 0)" >&2; exit 2; }
mkdir -p "$out"
out=$(cd "$out" && pwd)

ensure_runner() {
  local want
  want=$(awk '/^name = "gungraun"$/ {getline; gsub(/[^0-9.]/, ""); print; exit}' Cargo.lock)
  if ! command -v valgrind >/dev/null; then
    echo "bench.sh: valgrind is not installed: skipping instruction counts" >&2
    return 1
  fi
  if [ "$(gungraun-runner --version 2>/dev/null | awk '{print $2}')" != "$want" ]; then
    echo "== installing gungraun-runner $want" >&2
    cargo install gungraun-runner --version "$want" --locked >&2
  fi
}

# The race first, on a machine as quiet as it will be: every contender in
# one process, rounds interleaved; the clock decides the speed targets.
echo "== the race (every contender in one process, rounds interleaved)" >&2
cargo bench -p mcp-envelope-benches --bench race -- --json "$out/race.json" >&2
tool race-report "$out/race.json" > "$out/race.md"

rm -f target/bench-verdicts.json
criterion_dirs=()
for round in $(seq 1 "$rounds"); do
  echo "== wall clock, round $round of $rounds" >&2
  export CRITERION_HOME="$out/criterion-$round"
  cargo bench -p mcp-envelope-benches --bench throughput -- "${quick[@]}" --noplot >&2
  criterion_dirs+=("$CRITERION_HOME")
done
unset CRITERION_HOME

gungraun_home=""
if [ "$instructions" = 1 ] && ensure_runner; then
  echo "== instruction counts (callgrind)" >&2
  gungraun_home="$out/gungraun"
  GUNGRAUN_HOME="$gungraun_home" cargo bench -p mcp-envelope-benches --bench instructions -- --save-summary=json >&2
fi

cp -f target/bench-verdicts.json "$out/verdicts.json" 2>/dev/null || true
tool collect --commit "$(git rev-parse --short HEAD 2>/dev/null || echo "")" --criterion "${criterion_dirs[@]}" \
  ${gungraun_home:+--gungraun "$gungraun_home"} --verdicts "$out/verdicts.json" --out "$out/results.json"
tool chart "$out/results.json" --out "$out/throughput.svg"
tool stages "$out/results.json" --out "$out/stages.svg" > "$out/stages.md"
tool table "$out/results.json" | tee "$out/table.md"
if [ -n "$save" ]; then
  mkdir -p bench-results/baselines
  cp "$out/results.json" "bench-results/baselines/$save.json"
  echo "saved baseline: bench-results/baselines/$save.json" >&2
fi
echo "results: $out/results.json, table: $out/table.md, charts: $out/throughput.svg, $out/stages.svg (stages: $out/stages.md); the race: $out/race.md" >&2
