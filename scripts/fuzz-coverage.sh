#!/usr/bin/env bash
# Line coverage of core/src reached by each fuzz target's corpus, and by all
# of them together, as a table, so gaps in the fuzzing are visible.
#
#   scripts/fuzz-coverage.sh [--table FILE] [TARGET...]
#
# Uses the working corpora in fuzz/corpus/<target>/ (run scripts/fuzz.sh
# first to grow them; a missing corpus is seeded as fuzz.sh seeds it).
# Needs nightly and its llvm-tools component (installed when missing).
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/lib/options.sh
source scripts/lib/options.sh

table_out=""
targets=()
while [ $# -gt 0 ]; do
  case "$1" in
    --table) option_value fuzz-coverage.sh "$1" "${2:-}"; table_out="$2"; shift 2 ;;
    -h|--help) script_help "$0"; exit 0 ;;
    -*) echo "fuzz-coverage.sh: unknown option $1" >&2; exit 2 ;;
    *) targets+=("$1"); shift ;;
  esac
done
# shellcheck source=scripts/lib/fuzz-targets.sh
source scripts/lib/fuzz-targets.sh
[ ${#targets[@]} -gt 0 ] || mapfile -t targets < <(fuzz_targets)

if ! cargo fuzz --version >/dev/null 2>&1; then
  cargo install cargo-fuzz --locked
fi
sysroot=$(rustc +nightly --print sysroot)
tools="$sysroot/lib/rustlib/$(rustc +nightly -vV | sed -n 's/^host: //p')/bin"
if [ ! -x "$tools/llvm-cov" ]; then
  rustup component add llvm-tools-preview --toolchain nightly >&2
fi
unset RUSTFLAGS

# shellcheck source=scripts/lib/fuzz-corpus.sh
source scripts/lib/fuzz-corpus.sh

src="$PWD/core/src"
# cargo fuzz coverage builds under the target folder of the folder it is run
# from (this repository's root); older versions used fuzz/target.
coverage_bin() {
  local candidate
  for candidate in target fuzz/target ${CARGO_TARGET_DIR:+"$CARGO_TARGET_DIR"}; do
    candidate="$candidate/x86_64-unknown-linux-gnu/coverage/x86_64-unknown-linux-gnu/release/$1"
    [ -x "$candidate" ] && { echo "$candidate"; return; }
  done
  echo "fuzz-coverage.sh: no coverage build of $1" >&2
  exit 1
}
profiles=()
objects=()
declare -A lines_hit lines_all
report_totals() {
  # The TOTAL row of `llvm-cov report`: columns 8 and 9 are lines and missed lines.
  "$tools/llvm-cov" report "$@" "$src" | awk '/^TOTAL/ {print $8, $9}'
}

for target in "${targets[@]}"; do
  [ -d "fuzz/corpus/$target" ] && [ -n "$(ls -A "fuzz/corpus/$target" 2>/dev/null)" ] || prepare_corpus "$target"
  echo "== coverage of $target ($(find "fuzz/corpus/$target" -type f | wc -l) corpus files)" >&2
  cargo +nightly fuzz coverage "$target" "fuzz/corpus/$target" > "target/fuzz-coverage-$target.log" 2>&1
  profile=fuzz/coverage/$target/coverage.profdata
  profiles+=("$profile")
  bin=$(coverage_bin "$target")
  objects+=(-object "$bin")
  read -r all missed < <(report_totals "$bin" -instr-profile="$profile")
  lines_all[$target]=$all
  lines_hit[$target]=$((all - missed))
done

"$tools/llvm-profdata" merge -sparse "${profiles[@]}" -o fuzz/coverage/all.profdata
first=${objects[1]}
read -r all missed < <(report_totals "$first" "${objects[@]:2}" -instr-profile=fuzz/coverage/all.profdata)

table() {
  echo "| target | lines of core/src covered | lines | coverage |"
  echo "|---|---|---|---|"
  for target in "${targets[@]}"; do
    awk -v t="$target" -v h="${lines_hit[$target]}" -v a="${lines_all[$target]}" \
      'BEGIN { printf "| %s | %d | %d | %.1f %% |\n", t, h, a, a ? 100 * h / a : 0 }'
  done
  awk -v h="$((all - missed))" -v a="$all" 'BEGIN { printf "| **all targets** | %d | %d | **%.1f %%** |\n", h, a, a ? 100 * h / a : 0 }'
}
table
[ -n "$table_out" ] && table > "$table_out"
echo >&2
echo "per-file detail: $tools/llvm-cov report $first ${objects[*]:2} -instr-profile=fuzz/coverage/all.profdata $src" >&2
