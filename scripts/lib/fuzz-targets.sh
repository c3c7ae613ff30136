# Sourced by the fuzzing scripts: the one list of fuzz targets, and the
# figures of a libFuzzer run read from its log.

# shellcheck source=scripts/lib/tool.sh
source scripts/lib/tool.sh

# Every fuzz target, from the [[bin]] entries of fuzz/Cargo.toml.
fuzz_targets() {
  tool fuzz-targets
}

# Every fuzz target, a tab, the sanitizer it is built with (`address`
# unless fuzz/Cargo.toml's [package.metadata.mcp-envelope.sanitizer] names
# another), a tab, and `trace` or `no-trace` (whether comparisons are
# traced: [package.metadata.mcp-envelope.trace-compares]).
fuzz_target_sanitizers() {
  tool fuzz-targets --sanitizer
}

# Prints "RUNS EXECS_PER_SEC COVERAGE" from a libFuzzer log, or fails with a
# message. Both modes end with a status line starting `#<runs>` that holds
# `cov:` and `exec/s:` (one process: `#N DONE cov: ...`; fork mode, which
# prints no `stat::` lines: `#N: cov: ... exec/s: ...`), so the last such
# line gives the figures in either mode.
libfuzzer_stats() {
  local log=$1 line
  line=$(grep -E '^#[0-9]+:?[[:space:]].*cov: [0-9]+.*exec/s:? [0-9]+' "$log" | tail -1) || true
  if [ -z "$line" ]; then
    echo "fuzz.sh: no libFuzzer status line in $log: cannot tell how many inputs ran" >&2
    return 1
  fi
  awk '{
    runs = $1; gsub(/[^0-9]/, "", runs)
    for (i = 1; i < NF; i++) {
      if ($i == "cov:") cov = $(i + 1)
      if ($i == "exec/s:" || $i == "exec/s") execs = $(i + 1)
    }
    print runs + 0, execs + 0, cov + 0
  }' <<< "$line"
}
