#!/usr/bin/env bash
# Builds every fuzz target into $OUT with its seed corpus and dictionary.
# Runs inside the ClusterFuzzLite image (nightly is its default toolchain)
# and outside it with SRC and OUT set, e.g.:
#   SRC=$PWD/.. OUT=/tmp/cfl-out .clusterfuzzlite/build.sh
set -euo pipefail
: "${OUT:?set OUT to the output folder}"
: "${SRC:?set SRC to the folder holding mcp-envelope}"
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
root=$SRC/mcp-envelope
[ -d "$root/fuzz" ] || root=$here
cd "$root"
mkdir -p "$OUT"

cargo_cmd=(cargo)
if ! cargo --version | grep -q nightly; then
  cargo_cmd=(cargo +nightly)
fi
if ! "${cargo_cmd[@]}" fuzz --version >/dev/null 2>&1; then
  cargo install cargo-fuzz --locked
fi

# OSS-Fuzz sets SANITIZER and RUSTFLAGS itself; outside it, cargo-fuzz's
# defaults (address sanitizer, libFuzzer) apply.
"${cargo_cmd[@]}" fuzz build -O --debug-assertions

# Where cargo put the binaries: its own answer, so CARGO_TARGET_DIR and
# build.target-dir are honoured.
target_dir=$("${cargo_cmd[@]}" metadata --manifest-path fuzz/Cargo.toml --format-version 1 --no-deps |
  grep -o '"target_directory":"[^"]*"' | cut -d'"' -f4)
bin_dir=$target_dir/$(rustc -vV | sed -n 's/^host: //p')/release
# The targets as cargo-fuzz reads them from fuzz/Cargo.toml (the same list
# scripts/lib/fuzz-targets.sh gives; here without building the workspace's
# tooling under the sanitizer flags OSS-Fuzz sets).
targets=$("${cargo_cmd[@]}" fuzz list)
seeds=$(mktemp -d)
trap 'rm -rf "$seeds"' EXIT
for target in $targets; do
  cp "$bin_dir/$target" "$OUT/$target"
  cp fuzz/mcp.dict "$OUT/$target.dict"
  mkdir -p "$seeds/$target"
  find "fuzz/regressions/$target" -type f ! -name NOTES.md -exec cp {} "$seeds/$target/" \; 2>/dev/null || true
  case "$target" in
    parse_serde|parse_simd|differential|stream)
      find testdata/jsontestsuite/test_parsing testdata/mcp-spec/2026-07-28/examples -type f ! -name LICENSE \
        -exec cp --backup=numbered {} "$seeds/$target/" \;
      if [ -d corpus ]; then
        find corpus -type f ! -name '*.md' ! -name '*.py' -size -1024k -exec cp --backup=numbered {} "$seeds/$target/" \;
      fi
      ;;
    sse)
      if [ -d corpus/sse ]; then
        find corpus/sse -type f ! -name '*.md' ! -name LICENSE -size -1024k -exec cp --backup=numbered {} "$seeds/$target/" \;
      fi
      ;;
    exchange)
      find corpus/exchange -type f ! -name '*.md' -exec cp {} "$seeds/$target/" \;
      ;;
  esac
  rm -f "$OUT/${target}_seed_corpus.zip"
  if [ -n "$(ls -A "$seeds/$target")" ]; then
    (cd "$seeds/$target" && zip -q -r "$OUT/${target}_seed_corpus.zip" .)
  fi
  echo "built $target"
done
