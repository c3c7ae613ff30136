# Sourced by scripts/fuzz.sh and scripts/fuzz-coverage.sh: where each fuzz
# target's working corpus (fuzz/corpus/<target>/, not committed) comes from.

# Seeds: byte-level targets start from real and hostile JSON; the others
# (structured, ids) decode raw bytes, so only their own findings seed them;
# the event-stream target starts from the streams of corpus/sse, the
# exchange target from corpus/exchange.
seed_dirs() {
  local target=$1
  echo "fuzz/regressions/$target"
  case "$target" in
    parse_serde|parse_simd|differential|stream)
      echo testdata/jsontestsuite/test_parsing
      find testdata/mcp-spec/2026-07-28/examples -mindepth 1 -maxdepth 1 -type d
      [ -d corpus ] && find corpus -mindepth 1 -maxdepth 1 -type d
      ;;
    sse)
      [ -d corpus/sse ] && find corpus/sse -mindepth 1 -maxdepth 1 -type d
      ;;
    exchange)
      echo corpus/exchange
      ;;
  esac
}

prepare_corpus() {
  local target=$1 dir=fuzz/corpus/$1
  mkdir -p "$dir"
  while read -r seeds; do
    [ -d "$seeds" ] || continue
    find "$seeds" -maxdepth 1 -type f ! -name NOTES.md ! -name LICENSE ! -name '*.md' -size -1024k -print0 |
      while IFS= read -r -d '' f; do
        # Content-addressed names, so reseeding never duplicates.
        cp -n "$f" "$dir/seed-$(sha1sum "$f" | cut -c1-16)" 2>/dev/null || true
      done
  done < <(seed_dirs "$target")
}
