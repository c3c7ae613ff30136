#!/usr/bin/env bash
# The race across commits: for each commit, in a worktree of its own, the
# race (benches/benches/race.rs, the realistic and adversarial classes) and
# the instruction counts of the default backend and the peers the targets
# name on the realistic classes (callgrind, one pass each), appended as one
# record to the history kept in the repository (docs/bench/race-history.jsonl:
# the commit, when it was committed and measured, the machine), then one
# chart per class drawn into docs/bench/ (race-CLASS.svg).
#
#   scripts/bench-history.sh [--history FILE] [--charts DIR] [--rounds N] COMMIT... | BASE..HEAD
#
# Every commit is measured with today's harness and corpus: the benches
# folder (and Cargo.lock, so every peer is the same version) is copied into
# the commit's worktree, and only the commit's core is its own. The race is
# built with `--cfg race_history`, which leaves out the event-stream classes
# (their API is newer than some commits). Quote ratios, not times, and only
# from records of one machine; run it with nothing else running.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/lib/options.sh
source scripts/lib/options.sh
history=docs/bench/race-history.jsonl
charts=docs/bench
rounds=21
commits=()
while [ $# -gt 0 ]; do
  case "$1" in
    --history) option_value bench-history.sh "$1" "${2:-}"; history=$2; shift 2 ;;
    --charts) option_value bench-history.sh "$1" "${2:-}"; charts=$2; shift 2 ;;
    --rounds) option_value bench-history.sh "$1" "${2:-}" whole; rounds=$2; shift 2 ;;
    -h|--help) script_help "$0"; exit 0 ;;
    -*) echo "bench-history.sh: unknown option $1" >&2; exit 2 ;;
    *..*) mapfile -t range < <(git rev-list --reverse "$1"); commits+=("${range[@]}"); shift ;;
    *) commits+=("$(git rev-parse --verify "$1^{commit}")"); shift ;;
  esac
done
[ ${#commits[@]} -gt 0 ] || { echo "bench-history.sh: name the commits (COMMIT... or BASE..HEAD)" >&2; exit 2; }
command -v valgrind >/dev/null 2>&1 || { echo "bench-history.sh: valgrind is needed for the instruction counts" >&2; exit 2; }
root=$(pwd)
work=$root/target/history
worktree=$work/worktree
mkdir -p "$work"
cargo build --release --locked -q -p mcp-envelope-tooling
tool=$root/target/release/workbench-tool
if [ ! -d "$worktree" ]; then
  git worktree add --detach "$worktree" "${commits[0]}" >/dev/null
fi
# The classes counted, and the contenders: ours and the peers the targets name.
counted_classes=(realistic-small realistic-medium realistic-large)
counted=(mcp-envelope-reference serde_json-ignoredany serde_json-rawvalue-struct sonic-rs-value)
for commit in "${commits[@]}"; do
  short=$(git rev-parse --short "$commit")
  echo "== $short: $(git log -1 --format=%s "$commit" | cut -c1-100)"
  git -C "$worktree" checkout --quiet --force --detach "$commit"
  git -C "$worktree" clean -fdq -- benches
  # Today's harness and corpus generator, and the same versions of the peers.
  rm -rf "$worktree/benches"
  cp -r "$root/benches" "$worktree/benches"
  cp "$root/Cargo.lock" "$worktree/Cargo.lock"
  messages=$work/build.json
  (cd "$worktree" && CARGO_TARGET_DIR=$work/target RUSTFLAGS="--cfg race_history" \
    cargo bench -p mcp-envelope-benches --bench race --no-run --message-format=json >"$messages" 2>"$work/build.log") || {
    echo "bench-history.sh: $short: the race does not build against this commit (see $work/build.log); skipped" >&2
    continue
  }
  race=$("$tool" cargo-executable "$messages" race)
  "$race" --rounds "$rounds" --only realistic --json "$work/race-realistic.json" >/dev/null
  "$race" --rounds "$rounds" --only adversarial --json "$work/race-adversarial.json" >/dev/null
  # One race file: the realistic classes, then the adversarial ones.
  python3 - "$work/race-realistic.json" "$work/race-adversarial.json" "$work/race.json" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
json.dump({"rounds": a["rounds"], "classes": a["classes"] + b["classes"]}, open(sys.argv[3], "w"))
PY
  counts=()
  for class in "${counted_classes[@]}"; do
    n=$(python3 -c "import json,sys; print(next(c['messages'] for c in json.load(open(sys.argv[1]))['classes'] if c['class']==sys.argv[2]))" \
      "$work/race.json" "$class")
    for contender in "${counted[@]}"; do
      ir=$(valgrind --tool=callgrind --toggle-collect='*measured*' --callgrind-out-file="$work/callgrind.out" \
        "$race" --count "$class:$contender" 2>&1 | awk '/Collected/ {print $NF}')
      counts+=(--count "$class/$contender=$(python3 -c "print(round($ir / $n, 1))")")
    done
  done
  "$tool" race-record "$work/race.json" --history "$history" --commit "$short" \
    --subject "$(git log -1 --format=%s "$commit")" --committed "$(git log -1 --format=%cI "$commit")" "${counts[@]}"
  echo "   recorded: $("$tool" race-report "$work/race.json" | grep -c '| yes |') targets met; instructions counted"
done
"$tool" race-charts --history "$history" --out "$charts"
echo "bench-history.sh: $history; charts in $charts/race-*.svg"
